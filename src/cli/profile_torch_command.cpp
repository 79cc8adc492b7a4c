// `aisp profile torch` (issue 23): torch.profiler around one checked run of each Python variant of a target,
// in the same worker `bench run` starts (not a second harness); the variant's outputs are compared with the
// baseline's under the pair's tolerance, so the profiled run is a verified one. The profiling itself is
// python/aisp/torch_profile.py; the ops documents are read by src/profile/torch_profile.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>

#include "cli/paths.hpp"
#include "cli/profile_common.hpp"
#include "core/discovery.hpp"
#include "core/json_io.hpp"
#include "core/output_comparison.hpp"
#include "core/worker_requests.hpp"
#include "profile/torch_profile.hpp"
#include "runner/worker_process.hpp"

namespace aisp::profile_cli {
namespace fs = std::filesystem;
namespace pf = aisp::profile;
using json = nlohmann::json;

namespace {

// One Python variant under torch.profiler: the worker `bench run` starts (runner/worker_process.hpp), with
// $AISP_TORCH_PROFILE naming the output prefix and --validity off (CUPTI is the profiler's), sent setup and ONE
// check request (fresh inputs from `seed`, poisoned outputs, every output dumped), then exit. The worker
// profiles that check's run() (python/aisp/torch_profile.py).
struct TorchVariantRun {
  json result;                                               // the variant's entry in the JSON answer
  std::vector<std::pair<std::string, std::string>> outputs;  // name -> dumped file
  json tolerance, buffers;
  bool ok = false;
};

TorchVariantRun torch_profile_variant(const ProfileArgs& a, const Picked& p, const Variant& v, const fs::path& dir,
                                      uint64_t static_seed, uint64_t seed, bool profiled) {
  TorchVariantRun out;
  std::string prefix = (dir / v.name).string();
  out.result = {{"variant", v.name}, {"file", v.file}, {"profiled", profiled}, {"log", prefix + ".log"}};
  auto failed = [&](const std::string& stage, const Reply& r) {
    out.result["error"] = fmt::format("{}: {}{} (log {}.log)", stage, r.kind.empty() ? "" : r.kind + ": ", r.reason, prefix);
    return out;
  };
  WorkerSpawn spawn;
  spawn.aisp_exe = self_exe().string();
  spawn.plugin = (p.plugin_root / v.file).string();
  spawn.log_file = prefix + ".log";
  spawn.validity = false;
  if (profiled) spawn.env.emplace_back(pf::kTorchProfileEnv, prefix);
  WorkerProcess worker(spawn);
  Reply ready = worker.wait_ready(a.timeout_s);
  if (!ready.ok()) return failed("load", ready);
  out.tolerance = ready.body.value("tolerance", json::object());
  Reply setup = worker.request(to_json(WorkerRequest{SetupRequest{static_seed, seed ^ 0x9e3779b97f4a7c15ULL}}), a.timeout_s);
  if (!setup.ok()) return failed("setup", setup);
  out.buffers = setup.body.value("buffers", json::array());
  CheckRequest check;
  check.seed = seed;
  check.dir = (dir / "outputs").string();
  check.tag = v.name;
  check.audit = false;
  check.dump = true;
  Reply checked = worker.request(to_json(WorkerRequest{check}), a.timeout_s);
  worker.shutdown(30);
  if (!checked.ok()) return failed("check", checked);
  int64_t unwritten = 0;
  for (const json& o : checked.body.value("outputs", json::array())) {
    unwritten += o.value("unwritten", int64_t{0});
    out.outputs.emplace_back(o.value("name", ""), o.value("file", ""));
  }
  out.result["run_wall_ms"] = checked.body.value("wall_ms", 0.0);
  out.result["unwritten"] = unwritten;
  if (unwritten > 0) out.result["error"] = fmt::format("{} output elements left unwritten by the checked run", unwritten);
  if (profiled) {
    std::ifstream f(prefix + ".torch_ops.json");
    json doc = json::parse(f, nullptr, false);
    if (!f || doc.is_discarded()) {
      out.result["error"] = fmt::format("the worker wrote no {}.torch_ops.json (log {}.log)", prefix, prefix);
      return out;
    }
    pf::TorchOps ops = pf::parse_torch_ops(doc);
    std::error_code ec;
    out.result["trace"] = ops.trace;
    out.result["trace_bytes"] = static_cast<int64_t>(fs::file_size(ops.trace, ec));
    out.result["ops_file"] = prefix + ".torch_ops.json";
    out.result["torch_version"] = ops.torch_version;
    out.result["profiled_wall_ms"] = ops.wall_ms;
    out.result["total_self_device_us"] = ops.total_self_device_us;
    json top = json::array();
    for (size_t i = 0; i < ops.ops.size() && static_cast<int>(i) < a.top; ++i) top.push_back(pf::to_json(ops.ops[i]));
    out.result["top_ops"] = top;
    out.result["table"] = pf::torch_ops_table(ops, a.top, "    ");
  }
  out.ok = !out.result.contains("error");
  return out;
}

// The variant's dumped outputs against the baseline's (same seeds), with the pair's declared tolerance (the
// dtype's default when it declares none): the checked run is verified, not only profiled.
json compare_with_baseline(const TorchVariantRun& base, const TorchVariantRun& v) {
  json res = json::array();
  for (auto& [name, file] : v.outputs) {
    std::string base_file;
    for (auto& [bn, bf] : base.outputs)
      if (bn == name) base_file = bf;
    std::string dtype_name_;
    for (const json& b : v.buffers)
      if (b.value("name", "") == name && b.value("kind", "") == "output") dtype_name_ = b.value("dtype", "");
    auto dtype = dtype_from_name(dtype_name_);
    if (base_file.empty() || !dtype) {
      res.push_back({{"output", name}, {"passed", false}, {"reason", "the baseline has no such output"}});
      continue;
    }
    std::string x, y;
    try {  // an output file the worker did not write reads as empty: reported below, not thrown
      x = read_file(base_file), y = read_file(file);
    } catch (const std::exception&) {}
    if (x.size() != y.size() || x.empty()) {
      res.push_back({{"output", name}, {"passed", false}, {"reason", "sizes differ from the baseline's"}});
      continue;
    }
    ToleranceValues tol = default_tolerance(*dtype);
    double rtol = v.tolerance.value("rtol", -1.0), atol = v.tolerance.value("atol", -1.0);
    if (rtol >= 0) tol.rtol = rtol;
    if (atol >= 0) tol.atol = atol;
    int64_t count = static_cast<int64_t>(x.size() / dtype_size(*dtype));
    CompareResult c = compare_buffers(x.data(), y.data(), count, *dtype, tol);
    res.push_back({{"output", name},
                   {"passed", c.passed()},
                   {"mismatches", c.mismatches},
                   {"count", c.count},
                   {"max_abs_error", c.max_abs_error},
                   {"rtol", tol.rtol},
                   {"atol", tol.atol}});
  }
  return res;
}

// The text answer: per variant its trace, its comparison with the baseline and its top-ops table.
void print_torch_profile(const std::string& target, const fs::path& dir, const json& variants) {
  std::cout << fmt::format("{}: torch.profiler (CPU + CUDA) around one checked run of each variant; {}\n", target,
                           dir.string());
  for (auto& r : variants) {
    std::cout << fmt::format("{} {}:", target, r["variant"].get<std::string>());
    if (r.contains("trace"))
      std::cout << fmt::format(" trace {} ({:.1f} MB), torch {}, {} outputs left unwritten", r["trace"].get<std::string>(),
                               r["trace_bytes"].get<int64_t>() / 1e6, r["torch_version"].get<std::string>(),
                               r.value("unwritten", int64_t{0}));
    if (r.contains("compared") && r["compared"].is_array())
      for (auto& c : r["compared"])
        std::cout << fmt::format("; output {} vs baseline: {}", c.value("output", ""),
                                 c.value("passed", false)
                                     ? fmt::format("match (max |err| {:.3g})", c.value("max_abs_error", 0.0))
                                     : c.value("reason", fmt::format("{} mismatches", c.value("mismatches", int64_t{0}))));
    else if (r.contains("compared")) std::cout << "; " << r["compared"].get<std::string>();
    if (r.contains("error")) std::cout << "\n  FAILED: " << r["error"].get<std::string>();
    std::cout << "\n";
    if (r.contains("table")) std::cout << r["table"].get<std::string>();
  }
}

}  // namespace

int torch_command(const ProfileArgs& a) {
  if (a.target.empty()) fail("a target is required: aisp profile torch --target ch14:transformer_block_torch");
  if (a.top < 1) fail("--top must be at least 1");
  Picked p = pick(a.target, a.variant);
  std::vector<Variant> python;
  for (auto& v : p.variants)
    if (is_python_variant(v.file)) python.push_back(v);
  if (python.empty()) {
    bool any = is_python_variant(p.target.baseline.file);
    for (auto& v : p.target.optimized) any = any || is_python_variant(v.file);
    if (!any) fail(fmt::format("{} has no Python variants: use aisp profile ncu --target {}", p.target.id, p.target.id));
    fail(fmt::format("{}: the variants selected by --variant {} are not Python ones", p.target.id, a.variant));
  }
  std::string python_exe = pf::python_interpreter();
  if (std::string why = pf::torch_import_problem(python_exe); !why.empty())
    fail(
        fmt::format("aisp profile torch needs PyTorch, and the Python worker's interpreter ({}) cannot import "
                    "torch.profiler: {}\n(install torch there, or set $AISP_PYTHON to an interpreter that has it)",
                    python_exe, why));
  fs::path dir = new_profile_dir(a.artifacts_dir, "torch", p.target.id);
  std::random_device rd;
  uint64_t static_seed = (uint64_t{rd()} << 32) | rd(), seed = (uint64_t{rd()} << 32) | rd();
  // The baseline runs first (profiled when it is selected and Python), so each variant's outputs are
  // compared with it; a C++ baseline runs in `aisp worker` unprofiled, for the comparison only.
  const Variant& base_v = p.target.baseline;
  bool base_selected = false;
  for (auto& v : python) base_selected = base_selected || v.name == base_v.name;
  TorchVariantRun base = torch_profile_variant(a, p, base_v, dir, static_seed, seed, base_selected);
  std::vector<TorchVariantRun> runs;
  if (base_selected) runs.push_back(base);
  for (auto& v : python)
    if (v.name != base_v.name) runs.push_back(torch_profile_variant(a, p, v, dir, static_seed, seed, true));
  int failed = 0;
  json variants = json::array();
  for (auto& r : runs) {
    if (r.ok && r.result["variant"] != base_v.name) {
      if (!base.ok) {
        r.result["compared"] = "not compared: the baseline's checked run failed";
      } else {
        json cmp = compare_with_baseline(base, r);
        r.result["compared"] = cmp;
        for (auto& c : cmp)
          if (!c.value("passed", false)) r.result["error"] = "outputs differ from the baseline's beyond the tolerance";
      }
    }
    r.ok = !r.result.contains("error");
    failed += !r.ok;
    variants.push_back(r.result);
  }
  json doc = {{"schema", "aisp.torch_profile/1"},
              {"tool", "torch.profiler"},
              {"target", p.target.id},
              {"dir", dir.string()},
              {"static_seed", static_seed},
              {"seed", seed},
              {"variants", variants}};
  {
    std::ofstream f(dir / "torch_profile.json");
    f << doc.dump(1) << "\n";
  }
  if (a.as_json) {
    json printed = doc;
    for (auto& v : printed["variants"]) v.erase("table");
    std::cout << printed.dump(2) << "\n";
    return failed ? 1 : 0;
  }
  print_torch_profile(p.target.id, dir, variants);
  return failed ? 1 : 0;
}

}  // namespace aisp::profile_cli
