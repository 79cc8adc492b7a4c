// `aisp profile …`: ncu and compute-sanitizer around one run of each variant (`aisp worker --once`), the
// seed's decision tree, roofline placement on the measured ceilings, and baseline-vs-optimized deltas.
// The tools are found, run and parsed in src/profile; this file picks targets, stores and prints.
#include "cli/profile_commands.hpp"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>

#include "analysis/analysis.hpp"
#include "cli/paths.hpp"
#include "cli/profile_common.hpp"
#include "cli/store_commands.hpp"
#include "core/json_io.hpp"
#include "core/schema.hpp"
#include "profile/bottleneck.hpp"
#include "profile/command_profile.hpp"
#include "profile/metrics_catalog.hpp"
#include "profile/profile_compare.hpp"
#include "profile/profile_run.hpp"
#include "profile/roofline_place.hpp"
#include "profile/tools.hpp"
#include "runner/bench_suite.hpp"
#include "store/store.hpp"

namespace aisp {
namespace fs = std::filesystem;
namespace pf = aisp::profile;
namespace an = aisp::analysis;
using json = nlohmann::json;
using namespace profile_cli;

namespace {

pf::ToolLocation need_tool(const std::string& name, const std::string& env) {
  pf::ToolLocation t = pf::find_tool(name, env);
  if (!t.found()) fail(t.missing_message() + fmt::format("\n(set ${} to its full path; on the GPU machines it ships with "
                                                         "the CUDA toolkit)", env));
  return t;
}

json hardware_facts() {
  int code = 0;
  json info = json::parse(capture_stdout(fmt::format("'{}' info gpu --json 2>/dev/null", self_exe().string()), &code),
                          nullptr, false);
  // Without a GPU the tool itself fails and says why (its log is quoted); the document then has no
  // hardware and the roofline falls back to --caps. Not fatal here, so the whole pipeline can be tested
  // on CPU with stand-in tools (tests/e2e/profile_cli.sh).
  if (info.is_discarded() || info.value("gpus", json::array()).empty()) {
    std::cerr << "warning: `aisp info gpu` found no NVIDIA GPU"
              << (info.is_object() && info.contains("error") ? ": " + info["error"].get<std::string>() : std::string())
              << "; the profile records no hardware\n";
    return json::object();
  }
  return {{"hardware_key", info["hardware"].value("hardware_key", "")},
          {"gpu_model", info["hardware"].value("gpu_model", "")},
          {"driver_version", info["hardware"].value("driver_version", "")},
          {"device", info["gpus"][0]}};
}

void store_doc(const ProfileArgs& a, const json& doc, const fs::path& dir, const std::string& bench_run = "") {
  if (a.no_db) return;
  fs::path db = store_path(a.db, a.artifacts_dir);
  try {
    Store::open(db).add_profile(doc.dump(), dir.string(), bench_run);
  } catch (const std::exception& e) {
    std::cerr << "warning: profile not stored in " << db.string() << ": " << e.what() << " (it is in " << dir.string() << ")\n";
  }
}

std::string fmt_value(double v, const std::string& unit) {
  if (!std::isfinite(v)) return "n/a";
  if (unit == "ns") return v >= 1e6 ? fmt::format("{:.3f} ms", v / 1e6) : fmt::format("{:.1f} us", v / 1e3);
  if (unit == "byte") return v >= 1e6 ? fmt::format("{:.1f} MB", v / 1e6) : fmt::format("{:.0f} B", v);
  if (unit == "%") return fmt::format("{:.1f}%", v);
  // Other units (sector, request, register/thread ...) are in the row's label; the number stands alone.
  if (std::fabs(v) >= 1e4) return fmt::format("{:.4g}", v);
  return fmt::format("{:.4g}", v);
}

void print_kernel_metrics(const pf::KernelProfile& k) {
  std::cout << fmt::format("  {}  grid {} block {}\n", k.short_name(), k.grid, k.block);
  std::cout << fmt::format("    {:<30} {:>12}  {:<8}  {:<14} {}\n", "metric (seed thresholds)", "value", "level", "good / crit", "meaning");
  auto unit_of = [&](const std::string& m) { auto it = k.metrics.find(m); return it == k.metrics.end() ? std::string() : it->second.unit; };
  std::cout << fmt::format("    {:<30} {:>12}\n", "kernel time", fmt_value(k.get(pf::m::duration), "ns"));
  for (auto& t : pf::thresholds()) {
    if (!k.metrics.count(t.metric)) continue;
    double v = k.get(t.metric);
    std::string band = t.good == t.critical ? fmt::format("{}{:g}", t.higher_is_better ? "<" : "> ", t.critical)
                                            : fmt::format("{}{:g} / {}{:g}", t.higher_is_better ? ">" : "<", t.good,
                                                          t.higher_is_better ? "<" : ">", t.critical);
    // The tensor-pipe line judges tensor-core kernels; a kernel that issues (almost) no tensor work is not
    // "critical" for leaving the pipe idle.
    bool unused = t.metric == pf::m::tensor_active && std::isfinite(v) && v < 1;
    std::cout << fmt::format("    {:<30} {:>12}  {:<8}  {:<14} {}\n", t.label, fmt_value(v, unit_of(t.metric)),
                             unused ? "unused" : pf::level_name(pf::judge(t, v)), band, t.meaning);
  }
  double rd = k.get(pf::m::dram_read), wr = k.get(pf::m::dram_write);
  if (std::isfinite(rd)) std::cout << fmt::format("    {:<30} {:>12}\n", "DRAM bytes read + written", fmt_value(rd + wr, "byte"));
  for (auto [label, s, r] : {std::tuple{"global load sectors/request", pf::m::ld_sectors, pf::m::ld_requests},
                             std::tuple{"global store sectors/request", pf::m::st_sectors, pf::m::st_requests}})
    if (k.has(s) && k.get(r) > 0) std::cout << fmt::format("    {:<30} {:>12.2f}\n", label, k.get(s) / k.get(r));
  for (auto [label, m] : {std::pair{"load bytes used per sector", pf::m::ld_efficiency},
                          std::pair{"store bytes used per sector", pf::m::st_efficiency},
                          std::pair{"L2 throughput", pf::m::l2_throughput}})
    if (k.has(m)) std::cout << fmt::format("    {:<30} {:>12}\n", label, fmt_value(k.get(m), "%"));
}

// ------------------------------------------------------------------ ncu

std::vector<json> profile_variants(const ProfileArgs& a, const Picked& p, const std::string& preset, const fs::path& dir,
                                   const std::string& bench_run, bool print) {
  pf::ToolLocation ncu = need_tool("ncu", "AISP_NCU");
  json hw = hardware_facts();
  std::vector<json> docs;
  for (auto& v : p.variants) {
    pf::RunRequest r;
    r.aisp_exe = self_exe().string();
    r.tool_path = ncu.path;
    r.plugin = (p.plugin_root / v.file).string();
    r.target = p.target.id;
    r.variant = v.name;
    r.out_dir = dir.string();
    r.preset = preset;
    r.clock_control = a.clock_control;
    r.warmup = a.warmup;
    r.timeout_s = a.timeout_s;
    r.hardware = hw;
    for (auto& [k, val] : p.target.axes) r.env["AISP_AXIS_" + k] = std::to_string(val);
    if (print) std::cerr << fmt::format("profiling {} {} with ncu (preset {})...\n", p.target.id, v.name, preset);
    pf::RunOutcome o = pf::run_ncu(r);
    write_json_atomic(dir / (v.name + ".profile.json"), o.doc);
    store_doc(a, o.doc, dir, bench_run);
    if (!o.ok) std::cerr << fmt::format("{} {}: {}\n", p.target.id, v.name, o.error);
    docs.push_back(o.doc);
  }
  return docs;
}

int command_profile(const ProfileArgs& a, const std::string& tool);

int ncu_command(const ProfileArgs& a) {
  if (!pf::find_preset(a.preset)) fail("--preset must be minimal, roofline or deep_dive");
  if (!a.command.empty()) return command_profile(a, "ncu");
  need_tool("ncu", "AISP_NCU");  // before anything else: a missing tool is the first thing to say
  if (a.target.empty()) fail("a target is required: aisp profile ncu --target ch07:copy_scalar");
  Picked p = pick(a.target, a.variant);
  fs::path dir = new_profile_dir(a.artifacts_dir, "ncu", p.target.id);
  auto docs = profile_variants(a, p, a.preset, dir, "", true);
  int failed = 0;
  for (auto& d : docs) failed += d.contains("error");
  if (a.as_json) {
    std::cout << json(docs).dump(2) << "\n";
    return failed ? 1 : 0;
  }
  for (auto& d : docs) {
    auto kernels = pf::kernels_from_json(d.value("kernels", json::array()));
    std::cout << fmt::format("\n{} {}  (preset {}, {}, NVTX range {}, {} kernel{})\n", d.value("target", ""),
                             d.value("variant", ""), d.value("preset", ""), d.value("tool_version", "ncu"),
                             d.value("nvtx_range", ""), kernels.size(), kernels.size() == 1 ? "" : "s");
    if (d.contains("error")) std::cout << "  FAILED: " << d["error"].get<std::string>() << "\n";
    for (auto& k : kernels) print_kernel_metrics(k);
  }
  std::cout << "\nprofiles: " << dir.string() << " (open <variant>.ncu-rep in Nsight Compute)\n";
  return failed ? 1 : 0;
}

// ------------------------------------------------------------------ profiles for the analyses

// Per variant, the newest profile document whose preset covers `need`: from --from (a profile directory),
// else the store, else (or with --fresh) a new ncu run of the target.
std::vector<json> load_profiles(const ProfileArgs& a, const std::string& need) {
  std::vector<json> docs;
  if (!a.from.empty()) {
    fs::path from = a.from;
    std::vector<fs::path> files;
    if (fs::is_directory(from)) {
      // Profile documents; raw .csv files only where no document exists (a profile directory holds both).
      for (auto& e : fs::directory_iterator(from))
        if (e.path().string().ends_with(".profile.json")) files.push_back(e.path());
      if (files.empty())
        for (auto& e : fs::directory_iterator(from))
          if (e.path().extension() == ".csv") files.push_back(e.path());
      std::sort(files.begin(), files.end());
    } else {
      files.push_back(from);
    }
    for (auto& f : files) {
      json d;
      if (f.extension() == ".csv") {
        // A raw ncu CSV (ncu --csv --page raw), e.g. recorded elsewhere: the file's stem names the variant.
        try {
          d = {{"schema", pf::kProfileSchema}, {"tool", "ncu"}, {"preset", "deep_dive"}, {"variant", f.stem().string()},
               {"target", a.target.empty() ? std::string("csv") : a.target}, {"files", {{"csv", f.string()}}},
               {"hardware", json::object()}, {"kernels", pf::kernels_to_json(pf::parse_ncu_csv(read_file(f)).kernels)}};
        } catch (const std::exception& e) {
          fail(f.string() + ": " + e.what());
        }
      } else {
        d = json::parse(read_file(f), nullptr, false);
      }
      if (d.is_discarded() || d.value("schema", "") != pf::kProfileSchema) fail(f.string() + ": not an aisp profile document");
      if (d.value("tool", "") == "ncu" && !d.contains("error") && (a.target.empty() || d.value("target", "") == a.target) &&
          (a.variant == "all" || d.value("variant", "") == a.variant))
        docs.push_back(d);
    }
    if (docs.empty()) fail(fmt::format("no usable ncu profile in {}", from.string()));
    return docs;
  }
  std::string target = a.target;
  fs::path db = store_path(a.db, a.artifacts_dir);
  if (!a.fresh && fs::exists(db)) {
    Store s = Store::open(db);
    auto rows = s.profiles(target, "", "ncu", 500, true);
    if (target.empty() && !rows.empty()) target = rows.front().target;  // the newest profiled target
    std::set<std::string> seen;
    for (auto& r : rows) {
      if (r.target != target || seen.count(r.variant) || !pf::preset_covers(r.preset, need)) continue;
      if (a.variant != "all" && a.variant != r.variant && !(a.variant == "optimized" && r.variant != "baseline")) continue;
      seen.insert(r.variant);
      docs.push_back(json::parse(r.doc));
    }
  }
  if (!docs.empty()) {
    // Baseline first, then the optimized variants by name, as everywhere else.
    std::sort(docs.begin(), docs.end(), [](const json& x, const json& y) {
      auto key = [](const json& d) { std::string v = d.value("variant", ""); return (v == "baseline" ? "0" : "1") + v; };
      return key(x) < key(y);
    });
    return docs;
  }
  if (target.empty())
    fail(fmt::format("no stored profile in {} and no --target given: run `aisp profile ncu --target <id> --preset {}`",
                     db.string(), need));
  std::cerr << fmt::format("no stored {} profile of {} covers preset {}: profiling now\n", a.fresh ? "(--fresh)" : "", target, need);
  Picked p = pick(target, a.variant);
  fs::path dir = new_profile_dir(a.artifacts_dir, "ncu", p.target.id);
  for (auto& d : profile_variants(a, p, need, dir, "", true))
    if (!d.contains("error")) docs.push_back(d);
  if (docs.empty()) fail("every variant failed to profile (messages above)", 1);
  return docs;
}

std::string doc_name(const json& d) { return d.value("target", "") + " " + d.value("variant", ""); }

// ------------------------------------------------------------------ bottleneck

json evidence_json(const pf::Evidence& e) {
  return {{"metric", e.metric}, {"label", e.label}, {"value", std::isfinite(e.value) ? json(e.value) : json(nullptr)},
          {"unit", e.unit}, {"note", e.note}};
}

int bottleneck_command(const ProfileArgs& a) {
  auto docs = load_profiles(a, "deep_dive");
  json out = json::array();
  for (auto& d : docs) {
    for (auto& k : pf::kernels_from_json(d.value("kernels", json::array()))) {
      pf::Diagnosis dg = pf::diagnose(k);
      json findings = json::array();
      for (auto& f : dg.findings) {
        json ev = json::array();
        for (auto& e : f.evidence) ev.push_back(evidence_json(e));
        findings.push_back({{"id", f.id}, {"title", f.title}, {"severity", f.severity}, {"why", f.why},
                            {"evidence", ev}, {"fixes", f.fixes}});
      }
      out.push_back({{"target", d.value("target", "")}, {"variant", d.value("variant", "")}, {"kernel", dg.kernel},
                     {"verdict", dg.verdict}, {"findings", findings}, {"not_evaluated", dg.not_evaluated},
                     {"preset", d.value("preset", "")}});
      if (a.as_json) continue;
      std::cout << fmt::format("\n{}  kernel {}\n  verdict: {}\n", doc_name(d), dg.kernel,
                               dg.findings.empty() ? "unknown" : dg.findings.front().title);
      for (auto& f : dg.findings) {
        std::cout << fmt::format("  [{}] {}: {}\n", f.severity, f.title, f.why);
        for (auto& e : f.evidence)
          if (std::isfinite(e.value))
            std::cout << fmt::format("      {:<36} {:>12}{}\n", e.label, fmt_value(e.value, e.unit),
                                     e.note.empty() ? "" : "   (" + e.note + ")");
        if (!f.fixes.empty()) std::cout << "      fixes: " << fmt::format("{}", fmt::join(f.fixes, "; ")) << "\n";
      }
      for (auto& n : dg.not_evaluated) std::cout << "  not evaluated: " << n << "\n";
    }
  }
  if (a.as_json) std::cout << out.dump(2) << "\n";
  return 0;
}

// ------------------------------------------------------------------ roofline

int roofline_command(const ProfileArgs& a) {
  auto docs = load_profiles(a, "roofline");
  json out = json::array();
  std::set<std::string> sources;
  for (auto& d : docs) {
    const json& h = d.value("hardware", json::object());
    an::Hardware hw;
    hw.hardware_key = h.value("hardware_key", "");
    hw.gpu_model = h.value("gpu_model", "");
    if (h.contains("device") && h["device"].is_object()) hw.device = device_from_json(h["device"]);
    std::vector<fs::path> dirs = {"artifacts/hw", fs::path(a.artifacts_dir) / "hw"};
    if (fs::path root = project_source_root(); !root.empty()) dirs.push_back(root / "artifacts" / "hw");
    try {
      an::attach_capabilities(hw, a.caps, dirs);
    } catch (const std::exception& e) {
      fail(e.what());
    }
    for (auto& k : pf::kernels_from_json(d.value("kernels", json::array()))) {
      std::string precision;
      pf::counted_flops(k, &precision);
      an::RooflineCeilings c = an::roofline_ceilings(hw, precision.empty() ? "f32" : precision);
      pf::RooflinePoint p = pf::place_on_roofline(k, c.dram_bytes_per_s, c.flops_per_s);
      sources.insert("bandwidth: " + c.bandwidth_source);
      sources.insert("compute (" + (precision.empty() ? std::string("f32") : precision) + "): " + c.compute_source);
      auto num = [](double v) { return std::isfinite(v) ? json(v) : json(nullptr); };
      out.push_back({{"target", d.value("target", "")}, {"variant", d.value("variant", "")}, {"kernel", p.kernel},
                     {"seconds", num(p.seconds)}, {"dram_bytes", num(p.dram_bytes)}, {"flops", num(p.flops)},
                     {"intensity", num(p.intensity)}, {"bytes_per_s", num(p.bytes_per_s)}, {"flops_per_s", num(p.flops_per_s)},
                     {"peak_bytes_per_s", num(p.peak_bytes_per_s)}, {"peak_flops_per_s", num(p.peak_flops_per_s)},
                     {"ridge", num(p.ridge)}, {"bound", p.bound}, {"pct_of_roof", num(p.pct_of_roof)}, {"note", p.note},
                     {"bandwidth_source", c.bandwidth_source}, {"compute_source", c.compute_source}});
    }
  }
  if (a.as_json) {
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  std::cout << fmt::format("{:<34} {:<20} {:>10} {:>11} {:>10} {:>10} {:>8} {:>9}\n", "variant", "kernel", "time",
                           "FLOP/byte", "GB/s", "TFLOP/s", "bound", "% of roof");
  for (auto& r : out) {
    auto g = [&](const char* k) { return r[k].is_number() ? r[k].get<double>() : pf::kNaN; };
    std::cout << fmt::format("{:<34} {:<20} {:>10} {:>11.3g} {:>10.0f} {:>10.3f} {:>8} {:>8.1f}%\n",
                             (r["target"].get<std::string>() + " " + r["variant"].get<std::string>()).substr(0, 34),
                             r["kernel"].get<std::string>().substr(0, 20), fmt_value(g("seconds") * 1e9, "ns"),
                             g("intensity"), g("bytes_per_s") / 1e9, g("flops_per_s") / 1e12, r["bound"].get<std::string>(),
                             g("pct_of_roof"));
    if (!r["note"].get<std::string>().empty()) std::cout << "    note: " << r["note"].get<std::string>() << "\n";
  }
  std::cout << "ceilings:\n";
  for (auto& s : sources) std::cout << "  " << s << "\n";
  std::cout << "time: ncu gpu__time_duration of the one profiled run (clock control " << a.clock_control
            << "); bytes: dram__bytes_read + dram__bytes_write; FLOPs: SASS FP instruction counters (no tensor cores)\n";
  return 0;
}

// ------------------------------------------------------------------ compare

int compare_command(const ProfileArgs& a) {
  if (a.target.empty() && a.from.empty()) fail("a target is required: aisp profile compare ch07:transpose");
  auto docs = load_profiles(a, "deep_dive");
  const json* base = nullptr;
  for (auto& d : docs)
    if (d.value("variant", "") == "baseline") base = &d;
  if (!base) fail(fmt::format("no baseline profile of {} (profile it: aisp profile ncu --target {} --preset deep_dive)", a.target, a.target));
  json out = json::array();
  auto kb = pf::aggregate(pf::kernels_from_json((*base)["kernels"]));
  for (auto& d : docs) {
    if (&d == base) continue;
    auto ko = pf::aggregate(pf::kernels_from_json(d["kernels"]));
    pf::ProfileComparison c = pf::compare_profiles("baseline", kb, d.value("variant", ""), ko);
    json deltas = json::array();
    for (auto& x : c.deltas)
      deltas.push_back({{"metric", x.metric}, {"label", x.label}, {"unit", x.unit},
                        {"baseline", std::isfinite(x.a) ? json(x.a) : json(nullptr)},
                        {"optimized", std::isfinite(x.b) ? json(x.b) : json(nullptr)},
                        {"change_pct", std::isfinite(x.change_pct) ? json(x.change_pct) : json(nullptr)},
                        {"better", x.better}});
    out.push_back({{"target", d.value("target", "")}, {"baseline", "baseline"}, {"optimized", c.b_name},
                   {"profiled_speedup", std::isfinite(c.speedup) ? json(c.speedup) : json(nullptr)},
                   {"explanation", c.explanation}, {"deltas", deltas}});
    if (a.as_json) continue;
    std::cout << fmt::format("\n{}: baseline vs {}\n", d.value("target", ""), c.b_name);
    std::cout << "why it is faster (or not):\n";
    for (auto& e : c.explanation) std::cout << "  - " << e << "\n";
    std::cout << fmt::format("  {:<32} {:>14} {:>14} {:>9}  better\n", "metric", "baseline", c.b_name.substr(0, 14), "change");
    for (auto& x : c.deltas)
      std::cout << fmt::format("  {:<32} {:>14} {:>14} {:>9}  {}\n", x.label, fmt_value(x.a, x.unit), fmt_value(x.b, x.unit),
                               std::isfinite(x.change_pct) ? fmt::format("{:+.0f}%", x.change_pct) : "",
                               x.better == "same" ? "=" : x.better == "b" ? c.b_name : "baseline");
  }
  if (a.as_json) std::cout << out.dump(2) << "\n";
  if (out.empty()) fail("only the baseline was profiled: nothing to compare");
  return 0;
}

// ------------------------------------------------------------------ sanitizer

int sanitizer_command(const ProfileArgs& a) {
  static const std::vector<std::string> kTools = {"memcheck", "racecheck", "synccheck", "initcheck"};
  std::vector<std::string> tools;
  if (a.sanitizer_tool == "all") tools = kTools;
  else if (std::find(kTools.begin(), kTools.end(), a.sanitizer_tool) != kTools.end()) tools = {a.sanitizer_tool};
  else fail("--tool must be memcheck, racecheck, synccheck, initcheck or all");
  pf::ToolLocation san = need_tool("compute-sanitizer", "AISP_COMPUTE_SANITIZER");
  if (a.target.empty()) fail("a target is required: aisp profile sanitizer --target sanitizer:oob_write");
  Picked p = pick(a.target, a.variant);
  json hw = hardware_facts();
  fs::path dir = new_profile_dir(a.artifacts_dir, "sanitizer", p.target.id);
  json out = json::array();
  int dirty = 0, failed = 0;
  for (auto& v : p.variants) {
    for (auto& tool : tools) {
      pf::RunRequest r;
      r.aisp_exe = self_exe().string();
      r.tool_path = san.path;
      r.plugin = (p.plugin_root / v.file).string();
      r.target = p.target.id;
      r.variant = v.name;
      r.out_dir = dir.string();
      r.sanitizer_tool = tool;
      r.timeout_s = a.timeout_s;
      r.hardware = hw;
      for (auto& [k, val] : p.target.axes) r.env["AISP_AXIS_" + k] = std::to_string(val);
      std::cerr << fmt::format("compute-sanitizer --tool {} on {} {}...\n", tool, p.target.id, v.name);
      pf::RunOutcome o = pf::run_sanitizer(r);
      write_json_atomic(dir / fmt::format("{}.{}.profile.json", v.name, tool), o.doc);
      store_doc(a, o.doc, dir);
      out.push_back(o.doc);
      if (!o.ok) {
        ++failed;
        std::cerr << fmt::format("{} {} {}: {}\n", p.target.id, v.name, tool, o.error);
        continue;
      }
      const json& s = o.doc["sanitizer"];
      dirty += s.value("errors", 0) > 0;
      if (a.as_json) continue;
      std::cout << fmt::format("{} {} {}: {}\n", p.target.id, v.name, tool,
                               s.value("clean", false) ? "clean (0 errors)" : fmt::format("{} error(s)", s.value("errors", 0)));
      for (auto& f : s["findings"])
        std::cout << fmt::format("    {}\n      at {}\n      {}\n      {}\n", f.value("kind", ""), f.value("kernel", ""),
                                 f.value("where", ""), f.value("address", ""));
    }
  }
  if (a.as_json) std::cout << out.dump(2) << "\n";
  else
    std::cout << fmt::format("\nlogs: {}\n{}", dir.string(),
                             dirty ? "validity: a sanitizer error is evidence the variant is INVALID (docs/VALIDITY.md, "
                                     "memory safety); exit 3\n" : "");
  // 3 = invalid (a finding), as everywhere in aisp; 1 = a run that could not be checked.
  return dirty ? 3 : failed ? 1 : 0;
}

// ------------------------------------------------------------------ any command

// `aisp profile ncu|nsys -- CMD ARGS...`: the tool around a command of the user's; the report, log and
// profile document under <artifacts>/profiles/<stamp>__<tool>__cmd_<name>/; ncu's document also stored.
int command_profile(const ProfileArgs& a, const std::string& tool) {
  if (!a.target.empty()) fail("give either --target or a command after --, not both");
  if (a.command.front().rfind("-", 0) == 0)
    fail(fmt::format("'{}' is not a command: put the command after --, e.g. aisp profile {} -- python3 train.py",
                     a.command.front(), tool));
  pf::ToolLocation t = tool == "ncu" ? need_tool("ncu", "AISP_NCU") : need_tool("nsys", "AISP_NSYS");
  pf::CommandRequest r;
  r.tool_path = t.path;
  r.command = a.command;
  r.name = safe(fs::path(a.command.front()).filename().string());
  r.out_dir = new_profile_dir(a.artifacts_dir, tool, "cmd_" + r.name).string();
  r.preset = a.preset;
  r.clock_control = a.clock_control;
  r.launch_count = a.launch_count;
  r.nvtx_range = a.nvtx_include;
  r.timeout_s = a.timeout_s;
  r.hardware = hardware_facts();
  std::cerr << fmt::format("profiling `{}` with {}...\n", fmt::join(a.command, " "), tool);
  pf::RunOutcome o = tool == "ncu" ? pf::profile_command_ncu(r) : pf::profile_command_nsys(r);
  write_json_atomic(fs::path(r.out_dir) / (r.name + ".profile.json"), o.doc);
  if (tool == "ncu" && o.ok) store_doc(a, o.doc, r.out_dir);
  if (a.as_json) {
    std::cout << o.doc.dump(2) << "\n";
  } else if (!o.ok) {
    std::cout << "FAILED: " << o.error << "\n";
  } else {
    if (o.doc.contains("warning")) std::cout << "warning: " << o.doc["warning"].get<std::string>() << "\n";
    for (auto& k : pf::kernels_from_json(o.doc.value("kernels", json::array()))) print_kernel_metrics(k);
    std::cout << "report: " << o.doc["files"]["report"].get<std::string>() << "\n";
  }
  // With --json stdout holds the document alone (device call of 2026-11-28: a trailing line made it unparsable).
  (a.as_json ? std::cerr : std::cout) << "profile: " << r.out_dir << "\n";
  // A command that failed under the tool fails this command too (its report, when there is one, is kept).
  return o.ok && !o.doc.contains("warning") ? 0 : 1;
}

// ------------------------------------------------------------------ nsys

int nsys_command(const ProfileArgs& a) {
  if (!a.command.empty()) return command_profile(a, "nsys");
  pf::ToolLocation nsys = pf::find_tool("nsys", "AISP_NSYS");
  if (!nsys.found())
    fail(nsys.missing_message() + "\nNsight Systems is not installed here. On the project's GPU machines (Firecracker "
         "VMs) nsys is not on the PATH, and the copy inside Nsight Compute writes a .qdstrm it cannot turn into a "
         "report: use `aisp profile ncu` (kernel metrics) and the harness's own timings there.");
  if (a.target.empty()) fail("a target is required: aisp profile nsys --target ch07:copy_scalar");
  Picked p = pick(a.target, a.variant);
  fs::path dir = new_profile_dir(a.artifacts_dir, "nsys", p.target.id);
  int failed = 0;
  for (auto& v : p.variants) {
    std::string out = (dir / v.name).string();
    pf::ToolRun r = pf::run_tool({nsys.path, "profile", "--force-overwrite=true", "-t", "cuda,nvtx", "-o", out,
                                  self_exe().string(), "worker", "--once", "--plugin", (p.plugin_root / v.file).string(),
                                  "--result", out + ".oneshot.json"},
                                 out + ".nsys.log", a.timeout_s);
    bool report = fs::exists(out + ".nsys-rep");
    std::cout << fmt::format("{} {}: {}\n", p.target.id, v.name,
                             report ? "report " + out + ".nsys-rep"
                                    : fmt::format("nsys exited {} and produced no .nsys-rep (log {}): Nsight Systems cannot "
                                                  "make reports on this machine", r.exit_code, out + ".nsys.log"));
    failed += !report;
  }
  return failed ? 2 : 0;
}

void run_and_exit(int code) {
  if (code != 0) throw CLI::RuntimeError(code);
}

}  // namespace

void require_ncu() { need_tool("ncu", "AISP_NCU"); }

void profile_after_bench(const std::vector<Target>& targets, const fs::path& plugin_root, const fs::path& run_dir,
                         const std::string& preset, const fs::path& db) {
  ProfileArgs a;
  a.db = db.string();
  a.preset = preset;
  for (auto& t : targets) {
    try {
      Picked p;
      p.target = t;
      p.plugin_root = plugin_root;
      p.variants = {t.baseline};
      p.variants.insert(p.variants.end(), t.optimized.begin(), t.optimized.end());
      fs::path dir = run_dir / "profiles" / safe(t.id);
      fs::create_directories(dir);
      int ok = 0;
      auto docs = profile_variants(a, p, preset, dir, run_dir.filename().string(), true);
      for (auto& d : docs) ok += !d.contains("error");
      std::cerr << fmt::format("profiled {}: {}/{} variants ({})\n", t.id, ok, docs.size(), dir.string());
    } catch (const std::exception& e) {
      std::cerr << fmt::format("warning: profiling {} failed: {}\n", t.id, e.what());
    }
  }
}

void add_profile_commands(CLI::App& root) {
  static ProfileArgs a;
  auto* prof = root.add_subcommand("profile", "Nsight Compute / compute-sanitizer around one run of a variant: metrics "
                                              "with the seed's thresholds, bottleneck decision tree, roofline, compare");
  prof->require_subcommand(1);
  auto common = [](CLI::App* c, bool variant) {
    c->add_option("--artifacts-dir", a.artifacts_dir, "Where profiles/ is written")->capture_default_str();
    c->add_option("--db", a.db, "Results store (default: $AISP_DB, else <artifacts-dir>/aisp.db)");
    c->add_flag("--json", a.as_json, "Print JSON");
    c->add_option("--timeout", a.timeout_s, "Seconds one tool run may take before it is killed")->capture_default_str();
    if (variant)
      c->add_option("--variant", a.variant, "baseline, optimized (every optimized variant), a variant name, or all")
          ->capture_default_str();
  };
  // `-- CMD ARGS...`: a positional after --. Its help names PATH, which keeps it out of the MCP server's
  // tools (mcp/option_policy.hpp hides options that name a path): a client must never run a command.
  auto add_command_options = [](CLI::App* c) {
    c->add_option("command", a.command, "-- CMD ARGS...: profile this command (argv[0] looked up on PATH) instead of "
                                        "a target");
  };
  auto analysis = [&](CLI::App* c) {
    c->add_option("--from", a.from, "A profile directory (artifacts/profiles/…) or .profile.json instead of the store");
    c->add_flag("--fresh", a.fresh, "Profile the target now even when the store has a profile");
    c->add_option("--clock-control", a.clock_control, "ncu --clock-control when profiling now")->capture_default_str();
  };

  auto* ncu = prof->add_subcommand("ncu", "Profile a target's variants with ncu (only the timed run, by NVTX range); "
                                          "store and print the metrics with the seed's good/warning/critical levels");
  // Targets are checked in the command (exit 2), not by CLI11's required(): the MCP server derives its tool
  // schemas from these options, and a job started without one must fail like any other usage error.
  ncu->add_option("-t,--target", a.target, "Target id, e.g. ch07:copy_scalar (required unless a command follows --)");
  ncu->add_option("--preset", a.preset, "minimal | roofline | deep_dive (each includes the one before)")
      ->check(CLI::IsMember({"minimal", "roofline", "deep_dive"}))->capture_default_str();
  ncu->add_option("--warmup", a.warmup, "Untimed runs before the profiled one")->capture_default_str();
  ncu->add_option("--clock-control", a.clock_control,
                  "ncu --clock-control: none (default: profile at the clocks the GPU runs; the GPU VMs here refuse "
                  "ncu's clock locking) or base")->check(CLI::IsMember({"none", "base"}))->capture_default_str();
  ncu->add_flag("--no-db", a.no_db, "Do not store the profiles");
  add_command_options(ncu);
  ncu->add_option("--launch-count", a.launch_count, "With a command: profile its first N kernels (0: all; each is "
                                                     "replayed once per metric pass)")->capture_default_str();
  ncu->add_option("--nvtx-include", a.nvtx_include, "With a command: only kernels inside this NVTX push/pop range");
  common(ncu, true);
  ncu->callback([] { run_and_exit(ncu_command(a)); });

  auto* bn = prof->add_subcommand("bottleneck", "The seed's bottleneck decision tree on each profiled kernel, with the "
                                                "evidence and the matching optimization patterns");
  bn->add_option("-t,--target", a.target, "Target id (default: the newest profiled target in the store)");
  analysis(bn);
  common(bn, true);
  bn->callback([] { run_and_exit(bottleneck_command(a)); });

  auto* rl = prof->add_subcommand("roofline", "Place each profiled kernel on the measured roofline "
                                              "(hardware_capabilities_<hwkey>.json from `aisp hw`)");
  rl->add_option("-t,--target", a.target, "Target id (default: the newest profiled target in the store)");
  rl->add_option("--caps", a.caps, "hardware_capabilities JSON (default: artifacts/hw/hardware_capabilities_<hwkey>.json)");
  analysis(rl);
  common(rl, true);
  rl->callback([] { run_and_exit(roofline_command(a)); });

  auto* cmp = prof->add_subcommand("compare", "Baseline vs each optimized variant: metric deltas that explain the speedup");
  cmp->add_option("target", a.target, "Target id, e.g. ch07:transpose (required)");
  analysis(cmp);
  common(cmp, false);
  cmp->callback([] { run_and_exit(compare_command(a)); });

  auto* san = prof->add_subcommand("sanitizer", "compute-sanitizer on one checked run of each variant; an error makes "
                                                "the variant INVALID (exit 3)");
  san->add_option("-t,--target", a.target, "Target id, e.g. sanitizer:oob_write (required)");
  san->add_option("--tool", a.sanitizer_tool, "memcheck, racecheck, synccheck, initcheck or all")->capture_default_str();
  san->add_flag("--no-db", a.no_db, "Do not store the findings");
  common(san, true);
  san->callback([] { run_and_exit(sanitizer_command(a)); });

  auto* ns = prof->add_subcommand("nsys", "Nsight Systems timeline of one run (says clearly when nsys is missing or "
                                          "cannot write reports, as on the GPU VMs here)");
  ns->add_option("-t,--target", a.target, "Target id (required unless a command follows --)");
  add_command_options(ns);
  common(ns, true);
  ns->callback([] { run_and_exit(nsys_command(a)); });

  auto* tp = prof->add_subcommand("torch",
                                  "PyTorch profiler (CPU + CUDA) around one checked run of each Python variant, "
                                  "in the worker bench run uses: a Chrome trace per variant and the top ops");
  tp->add_option("-t,--target", a.target, "Target id with Python variants, e.g. ch14:transformer_block_torch (required)");
  tp->add_option("--top", a.top, "Rows of the top-ops table (by self CUDA time)")->capture_default_str();
  tp->add_option("--artifacts-dir", a.artifacts_dir, "Where profiles/ is written")->capture_default_str();
  // Accepted like the other profile commands' (the MCP server passes it to each); nothing is stored: the trace
  // and the ops documents are files under <artifacts-dir>/profiles/.
  tp->add_option("--db", a.db,
                 "Accepted for the profile commands' common options; profile torch stores nothing "
                 "(its trace and ops documents are files)");
  tp->add_flag("--json", a.as_json, "Print JSON");
  tp->add_option("--timeout", a.timeout_s,
                 "Seconds each worker request (load, setup with its compilation, the "
                 "profiled check) may take")
      ->capture_default_str();
  tp->add_option("--variant", a.variant, "baseline, optimized (every optimized variant), a variant name, or all")
      ->capture_default_str();
  tp->callback([] { run_and_exit(torch_command(a)); });
}

}  // namespace aisp
