// `aisp bench …`: list-targets, run, compare.
#include "cli/bench_commands.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>

#include "cli/info_commands.hpp"
#include "cli/paths.hpp"
#include "cli/profile_commands.hpp"
#include "cli/store_commands.hpp"
#include "core/axes.hpp"
#include "core/discovery.hpp"
#include "core/json_io.hpp"
#include "runner/bench_suite.hpp"
#include "runner/plugin_compiler.hpp"

namespace aisp {
namespace fs = std::filesystem;
namespace {

struct BenchArgs {
  std::vector<std::string> targets;
  std::string chapter, bench_root, mode = "cold", artifacts_dir = "artifacts", format = "all", label;
  std::string data_file;
  std::string validity_profile = "portable";
  int iterations = 0, warmup = 5;
  double timeout_multiplier = 1.0, time_limit = 15.0, max_noise = 0.5, min_time = 0.5;
  bool reproducible = false, as_json = false;
  std::string validity = "on";
  std::vector<std::string> axes;  // --axis name=values, one per axis (core/axes.hpp)
  bool calibrate = false;  // `bench calibrate`: every selected baseline timed against copies of itself (A/A)
  int replicates = 3;      // calibrate: copies of the baseline, each in its own worker process
  std::string noise_floor_file;  // run: the A/A calibration to use ("none": none)
  std::string from_run;          // calibrate: the floor from an existing (possibly interrupted) A/A run
  bool update_expectations = false, accept_regressions = false;  // chNN/expectations_<hwkey>.json
  std::string variant_a, variant_b;
  std::string db;      // results store (default <artifacts-dir>/aisp.db)
  bool no_db = false;  // do not store the run
  std::string profile = "none";  // ncu preset to profile every variant with after timing (cli/profile_commands.hpp)
};

std::vector<std::string> list_relative_files(const fs::path& root) {
  std::vector<std::string> files;
  if (!fs::is_directory(root)) return files;
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::follow_directory_symlink);
       it != fs::recursive_directory_iterator(); ++it)
    if (it->is_regular_file() || it->is_symlink()) files.push_back(it->path().lexically_relative(root).string());
  return files;
}

// Plugin tree (built or compiled from --bench-root) and its targets.
struct Catalog {
  fs::path plugin_root;
  std::vector<Target> targets;
  std::vector<std::string> compile_failures;
};

Catalog load_catalog(const BenchArgs& a, bool compile) {
  Catalog c;
  if (!a.bench_root.empty()) {
    if (!compile) {
      c.plugin_root = a.bench_root;
      c.targets = discover_targets(list_relative_files(a.bench_root), ".cu");
      return c;
    }
    std::cerr << "compiling benchmarks under " << a.bench_root << " (cached)...\n";
    CompiledTree tree = compile_bench_root(a.bench_root, default_compile_settings(self_exe()));
    c.plugin_root = tree.plugin_root;
    c.compile_failures = tree.failures;
  } else {
    c.plugin_root = default_plugin_root();
    if (!fs::is_directory(c.plugin_root))
      throw CLI::Error("NoPlugins", fmt::format("no plugins at {} (build the project, or set AISP_PLUGIN_DIR)",
                                                c.plugin_root.string()), 2);
  }
  c.targets = discover_targets(list_relative_files(c.plugin_root), ".so");
  return c;
}

// Plugin folders the build marked as test fixtures (a `.test-only` file): named selectors reach them,
// `all` does not, so `bench run --targets all` is the chapters and labs, never the cheating fixtures.
bool test_only(const Catalog& c, const Target& t) {
  std::error_code ec;
  return fs::exists(c.plugin_root / t.chapter / ".test-only", ec);
}

Selection select_or_explain(const Catalog& c, const std::vector<std::string>& selectors) {
  Selection sel = select_targets(c.targets, selectors);
  if (std::find(selectors.begin(), selectors.end(), "all") != selectors.end()) {
    std::vector<std::string> named(selectors.begin(), selectors.end());
    std::erase(named, "all");
    Selection explicitly = select_targets(c.targets, named);
    std::erase_if(sel.targets, [&](const Target& t) {
      return test_only(c, t) && std::none_of(explicitly.targets.begin(), explicitly.targets.end(),
                                            [&](const Target& e) { return e.id == t.id; });
    });
  }
  if (!sel.unknown.empty()) {
    std::string msg;
    for (auto& u : sel.unknown) {
      auto near = closest_names(c.targets, u);
      std::string hint;
      for (auto& n : near) hint += (hint.empty() ? "" : ", ") + n;
      msg += fmt::format("unknown target '{}'{}\n", u, hint.empty() ? "" : " (did you mean: " + hint + "?)");
    }
    msg += "list them with: aisp bench list-targets";
    throw CLI::Error("UnknownTarget", msg, 2);
  }
  return sel;
}

json git_info() {
  fs::path dir = self_exe().parent_path();
  int code = 0;
  std::string commit = capture_stdout(fmt::format("git -C '{}' rev-parse HEAD 2>/dev/null", dir.string()), &code);
  if (code != 0 || commit.empty()) return {{"commit", nullptr}, {"dirty", nullptr}};
  commit.erase(commit.find_last_not_of("\n") + 1);
  std::string status = capture_stdout(fmt::format("git -C '{}' status --porcelain 2>/dev/null", dir.string()));
  std::string branch = capture_stdout(fmt::format("git -C '{}' rev-parse --abbrev-ref HEAD 2>/dev/null", dir.string()));
  branch.erase(branch.find_last_not_of("\n") + 1);
  return {{"commit", commit}, {"branch", branch}, {"dirty", !status.empty()}};
}

// Writes this GPU's noise floor from an A/A run and prints it; A/A intervals that exclude 1.0 are shown,
// not hidden: they are exactly the systematic difference the floor exists to absorb.
int finish_calibration(const SuiteOutcome& r, const json& info, const fs::path& file, int replicates, bool as_json) {
  NoiseFloor f = noise_floor_from_results(r.results);
  f.hardware_key = info["hardware"].value("hardware_key", "unknown");
  f.gpu = info["hardware"].value("gpu_model", "");
  f.driver = info["hardware"].value("driver_version", "");
  f.cuda = info["hardware"].value("cuda_version", "");
  // The run's own date and commit when it is read back from disk (--from-run), else now and this checkout.
  f.date = info.contains("date") ? info["date"].get<std::string>() : now_stamp("%Y-%m-%dT%H:%M:%S%z");
  f.commit = info.contains("commit") ? info["commit"].get<std::string>() : git_info().value("commit", "");
  if (f.targets.empty()) throw CLI::Error("CalibrationFailed", "no target produced A/A samples: nothing written", 1);
  std::vector<std::string> measured_now;
  for (auto& [id, e] : f.targets) measured_now.push_back(id);
  size_t kept = 0;
  if (fs::exists(file)) {
    try {
      NoiseFloor older = load_noise_floor(file);
      keep_older_targets(f, older);
      kept = f.targets.size() - measured_now.size();
    } catch (const std::exception& e) {
      std::cerr << "warning: the previous calibration is unreadable and is replaced: " << e.what() << "\n";
    }
  }
  write_json_atomic(file, to_json(f));
  if (as_json) {
    std::cout << to_json(f).dump(2) << "\n";
    return 0;
  }
  std::cout << fmt::format("A/A noise floor, {} ({}): each baseline against {} copies of itself in their own "
                           "processes\n", f.gpu, f.hardware_key, replicates);
  std::cout << fmt::format("{:<40} {:>9} {:>20} {:>20} {:>9} {:>7} {:>7}\n", "target", "speedup", "95% CI, one pair",
                           "with process spread", "spread", "floor", "n");
  int excluding = 0, pairs = 0, within_excluding = 0;
  for (auto& id : measured_now) {
    const NoiseFloorEntry& e = f.targets.at(id);
    within_excluding += e.within_excluding_one();
    for (auto& c : e.comparisons) {
      bool contains = c.widened.low <= 1.0 && c.widened.high >= 1.0;
      excluding += !contains;
      ++pairs;
      std::cout << fmt::format("{:<40} {:>9.4f} {:>20} {:>20} {:>8.3f}% {:>6.2f}% {:>7}{}\n", id + " " + c.variant,
                               c.within.point, fmt::format("[{:.4f}, {:.4f}]", c.within.low, c.within.high),
                               fmt::format("[{:.4f}, {:.4f}]", c.widened.low, c.widened.high), 100 * e.spread.sd_log,
                               100 * e.floor, c.samples, contains ? "" : "  (excludes 1.0)");
    }
  }
  std::cout << fmt::format("{} of {} A/A intervals contain 1.0 ({} of them without the between-process spread)\n",
                           pairs - excluding, pairs, pairs - within_excluding);
  if (kept > 0) std::cout << fmt::format("{} targets calibrated earlier kept from the file\n", kept);
  std::cout << fmt::format("device floor {:.2f}% -> {}\nrun: {}\n", 100 * f.device_floor, file.string(),
                           r.run_dir.string());
  return 0;
}

// `calibrate --from-run DIR`: the A/A run's finished targets, with the GPU facts its manifest recorded.
void calibration_from_run(const BenchArgs& a) {
  fs::path dir(a.from_run);
  fs::path results = dir / "results" / "benchmark_test_results.json", manifest = dir / "manifest.json";
  for (auto& f : {results, manifest})
    if (!fs::exists(f)) throw CLI::Error("NoRun", fmt::format("--from-run: {} does not exist", f.string()), 2);
  json m = read_json(manifest);
  if (dir.filename().string().find("__calibrate") == std::string::npos)  // <stamp>__bench__calibrate-<targets>
    throw CLI::Error("NotCalibration", fmt::format("--from-run: {} is not an A/A run (`aisp bench calibrate`)", dir.string()), 2);
  json info = {{"hardware", m.value("hardware", json::object())}, {"date", m.value("start_time", "")}};
  if (m.contains("git") && m["git"].value("commit", json()).is_string()) info["commit"] = m["git"]["commit"];
  std::string hwkey = info["hardware"].value("hardware_key", "unknown");
  SuiteOutcome r;
  r.results = targets_from_document(read_json(results));
  r.run_dir = dir;
  size_t copies = 0;
  for (auto& t : r.results) copies = std::max(copies, t.optimizations.size());
  finish_calibration(r, info, noise_floor_path(a.artifacts_dir, hwkey), static_cast<int>(copies), a.as_json);
}

// The A/A calibration a run applies: --noise-floor FILE (an error if unusable), else this machine's own
// (<artifacts>/calibration/), else the one committed with the reference data for this GPU; none with
// --noise-floor none. A default file that is unreadable or from another GPU is a warning, not an error.
std::optional<NoiseFloor> load_calibration(const BenchArgs& a, const std::string& hwkey, const fs::path& floor_file,
                                           json& manifest) {
  if (a.noise_floor_file == "none") return std::nullopt;
  bool given = !a.noise_floor_file.empty();
  fs::path use = given ? fs::path(a.noise_floor_file) : floor_file;
  if (!given && !fs::exists(use))
    if (fs::path root = project_source_root(); !root.empty())
      use = root / "results" / "reference" / hwkey / floor_file.filename();
  if (given && !fs::exists(use))
    throw CLI::Error("NoNoiseFloor", fmt::format("--noise-floor: {} does not exist", use.string()), 2);
  if (!fs::exists(use)) return std::nullopt;
  try {
    NoiseFloor f = load_noise_floor(use);
    if (f.hardware_key != hwkey)
      throw std::runtime_error(
          fmt::format("{} was measured on '{}', this GPU is '{}'", use.string(), f.hardware_key, hwkey));
    manifest["noise_floor"] = {{"file", use.string()}, {"device_floor", f.device_floor}, {"date", f.date}};
    std::cerr << fmt::format("A/A calibration: {} ({}): CIs include the between-process spread measured there\n",
                             use.string(), f.date);
    return f;
  } catch (const std::exception& e) {
    if (given) throw CLI::Error("BadNoiseFloor", e.what(), 2);
    std::cerr << "warning: ignoring the noise-floor file: " << e.what() << "\n";
    return std::nullopt;
  }
}

int run_command(const BenchArgs& a) {
  if (a.mode != "cold" && a.mode != "hot" && a.mode != "graph")
    throw CLI::ValidationError("--mode", "must be cold, hot or graph");
  // A missing profiler is a usage error found before any GPU time is spent, not after the timing.
  if (a.profile != "none") require_ncu();
  Catalog catalog = load_catalog(a, true);
  for (auto& f : catalog.compile_failures) std::cerr << "compile error: " << f << "\n";
  Selection sel = select_or_explain(catalog, a.targets);
  if (a.calibrate)
    for (auto& t : sel.targets) {
      t.optimized.clear();
      for (int k = 1; k <= a.replicates; ++k) t.optimized.push_back(Variant{fmt::format("aa_self_{}", k), t.baseline.file});
    }
  if (!a.axes.empty()) {
    std::vector<AxisSpec> specs;
    std::vector<AxisPoint> points;
    try {
      for (auto& s : a.axes) specs.push_back(parse_axis_spec(s));
      points = axis_points(specs);
    } catch (const std::invalid_argument& e) {
      throw CLI::ValidationError("--axis", e.what());
    }
    std::vector<Target> expanded;
    for (auto& t : sel.targets)
      for (auto& p : points) expanded.push_back(at_axis_point(t, p));
    sel.targets = std::move(expanded);
  }

  SuiteOptions o;
  o.artifacts_dir = a.artifacts_dir;
  o.label = a.label.empty() ? (a.calibrate ? "calibrate-" : "targets-") + fmt::format("{}", fmt::join(a.targets, "_"))
                            : a.label;
  if (a.format == "all") o.formats = {"json", "md", "csv"};
  else o.formats = {"json", a.format};
  // Before any GPU work: the artifacts directory must be writable.
  fs::path run_dir = prepare_run_dir(o.artifacts_dir, o.label.substr(0, 80));
  // The GPU facts come from a child process, so the supervisor itself never creates a CUDA context.
  int code = 0;
  std::string info_text = capture_stdout(fmt::format("'{}' info gpu --json 2>/dev/null", self_exe().string()), &code);
  json info = json::parse(info_text, nullptr, false);
  if (info.is_discarded() || info.value("gpus", json::array()).empty()) {
    std::error_code ec;
    fs::remove_all(run_dir, ec);
    std::string why = info.is_discarded() ? "could not query the GPU" : info.value("error", "no CUDA device");
    throw CLI::Error("NoGPU", "aisp bench run needs an NVIDIA GPU: " + why, 2);
  }
  // The environment gate, before any benchmark starts (so a refused strict run costs nothing).
  EnvironmentReport env = environment_gate(info, parse_validity_profile(a.validity_profile));
  std::cerr << env.summary_line() << "\n";
  if (env.refuses()) {
    std::error_code ec;
    fs::remove_all(run_dir, ec);
    std::string msg = "strict validity profile: the environment gate failed, not starting:";
    for (auto* c : env.with_status(CheckStatus::fail)) msg += fmt::format("\n  {}: {}", c->name, c->detail);
    msg += "\n(see `aisp info env`; --validity-profile portable runs anyway and records these as warnings)";
    throw CLI::Error("EnvironmentRefused", msg, 3);
  }
  // The gate's checks extend the info's environment facts, and its warning lines replace the info's
  // warnings: the gate evaluates the same facts (virtualization, other GPU processes) and more.
  json environment = info["environment"];
  environment.update(env.to_json());
  o.manifest = {{"kind", "bench"},
                {"command", "aisp bench run"},
                {"hardware", info["hardware"]},
                {"gpus", info["gpus"]},
                {"software", info["software"]},
                {"environment", environment},
                {"warnings", env.warning_lines()},
                {"git", git_info()},
                {"build", {{"cuda_architectures", AISP_BUILD_CUDA_ARCHS}, {"build_type", AISP_BUILD_TYPE}}},
                {"reproducible", a.reproducible},
                {"validity", a.validity},
                {"seeds", a.reproducible ? json{{"policy", "fixed"}, {"base", 42}} : json{{"policy", "random per target, drawn after plugin load"}}},
                {"iterations_override", a.iterations},
                {"warmup", a.warmup},
                {"compile_failures", catalog.compile_failures}};
  o.run.aisp_exe = self_exe().string();
  o.run.plugin_root = catalog.plugin_root;
  o.run.mode = a.mode;
  o.run.iterations = a.iterations;
  o.run.warmup = a.warmup;
  o.run.timeout_multiplier = a.timeout_multiplier;
  o.run.reproducible = a.reproducible;
  o.run.validity = a.validity == "on";
  o.run.stop_on_decision = !a.calibrate;  // the floor is measured with the full stopping rule
  o.run.seed = 42;
  o.run.policy.time_limit_s = a.time_limit;
  o.run.policy.max_noise = a.max_noise / 100.0;
  o.run.policy.min_gpu_time_s = a.min_time;
  o.live_progress = !a.as_json;
  std::string hwkey = info["hardware"].value("hardware_key", "unknown");
  fs::path floor_file = noise_floor_path(a.artifacts_dir, hwkey);
  if (!a.calibrate) o.noise_floor = load_calibration(a, hwkey, floor_file, o.manifest);
  // Expectations live next to the sources: --bench-root, else the project checkout (never for A/A runs).
  o.expectations.enabled = !a.calibrate;
  o.expectations.source_root = a.bench_root.empty() ? project_source_root() : fs::path(a.bench_root);
  o.expectations.update = a.update_expectations;
  o.expectations.accept_regressions = a.accept_regressions;
  SuiteOutcome r = run_suite(sel.targets, run_dir, o);
  if (!a.no_db) store_finished_run(run_dir, store_path(a.db, a.artifacts_dir));  // warns, never fails the run
  // Profiling after timing, never inside it: ncu replays each kernel many times with its counters on.
  if (a.profile != "none" && !a.calibrate)
    profile_after_bench(sel.targets, catalog.plugin_root, run_dir, a.profile, store_path(a.db, a.artifacts_dir));
  if (a.calibrate) return finish_calibration(r, info, floor_file, a.replicates, a.as_json);
  if (a.as_json) {
    std::cout << read_file(run_dir / "results" / "benchmark_test_results.json") << "\n";
  } else {
    // The Markdown table is printed when it was written (--format md|all); otherwise only where things are.
    fs::path md = run_dir / "reports" / "benchmark_test_results.md";
    if (fs::exists(md)) std::cout << read_file(md);
    std::cout << "\nartifacts: " << run_dir.string() << "\n";
  }
  return r.exit_code;
}

fs::path latest_results(const std::string& artifacts_dir) {
  fs::path best;
  fs::path runs = fs::path(artifacts_dir) / "runs";
  if (!fs::is_directory(runs)) return best;
  for (auto& e : fs::directory_iterator(runs)) {
    fs::path f = e.path() / "results" / "benchmark_test_results.json";
    if (fs::exists(f) && (best.empty() || e.path().filename() > best.parent_path().parent_path().filename())) best = f;
  }
  return best;
}

int compare_command(const BenchArgs& a) {
  fs::path file = a.data_file.empty() ? latest_results(a.artifacts_dir) : fs::path(a.data_file);
  if (file.empty() || !fs::exists(file))
    throw CLI::Error("NoData", "no results to compare: run `aisp bench run` first or pass --data-file", 2);
  auto targets = targets_from_document(json::parse(read_file(file)));
  auto find = [&](const std::string& spec) -> std::pair<const TargetResult*, const VariantResult*> {
    // <target id>:<variant>, where the target id itself contains one ':' ("ch07:copy_scalar:baseline").
    auto pos = spec.rfind(':');
    if (pos == std::string::npos || spec.find(':') == pos)
      throw CLI::Error("BadVariant", fmt::format("'{}': expected <chapter>:<example>:<variant>, e.g. ch07:copy_scalar:baseline", spec), 2);
    std::string id = spec.substr(0, pos), name = spec.substr(pos + 1);
    for (auto& t : targets) {
      if (t.id != id) continue;
      if (name == "baseline") return {&t, &t.baseline};
      for (auto& o : t.optimizations)
        if (o.name == name) return {&t, &o};
    }
    throw CLI::Error("BadVariant", fmt::format("'{}' is not in {}", spec, file.string()), 2);
  };
  auto [ta, va] = find(a.variant_a);
  auto [tb, vb] = find(a.variant_b);
  double bytes_a = ta->workload.value("bytes", 0.0), bytes_b = tb->workload.value("bytes", 0.0);
  double flops_a = ta->workload.value("flops", 0.0), flops_b = tb->workload.value("flops", 0.0);
  struct Row { std::string metric; double x, y; bool lower_better; std::string unit; };
  auto per_s = [](double amount, double ms) { return ms > 0 ? amount / (ms / 1000.0) : 0.0; };
  std::vector<Row> rows = {
      {"median time", va->timing.median, vb->timing.median, true, "ms"},
      {"mean time", va->timing.mean, vb->timing.mean, true, "ms"},
      {"p90 time", va->timing.p90, vb->timing.p90, true, "ms"},
      {"noise (stdev/mean)", 100 * va->timing.rel_noise, 100 * vb->timing.rel_noise, true, "%"},
      {"DRAM throughput (min bytes)", per_s(bytes_a, va->timing.median) / 1e9, per_s(bytes_b, vb->timing.median) / 1e9, false, "GB/s"},
      {"arithmetic rate", per_s(flops_a, va->timing.median) / 1e12, per_s(flops_b, vb->timing.median) / 1e12, false, "TFLOP/s"},
      {"peak device memory", va->memory.peak_mb, vb->memory.peak_mb, true, "MiB"},
      {"harness-allocated memory", va->memory.allocated_mb, vb->memory.allocated_mb, true, "MiB"},
  };
  json out = json::array();
  std::cout << fmt::format("{:<30} {:>14} {:>14} {:>9}  better\n", "metric", a.variant_a.substr(0, 14), a.variant_b.substr(0, 14), "B/A");
  for (auto& r : rows) {
    double ratio = r.x > 0 ? r.y / r.x : 0;
    std::string better = r.x == r.y ? "=" : ((r.y < r.x) == r.lower_better ? "B" : "A");
    std::cout << fmt::format("{:<30} {:>14.5g} {:>14.5g} {:>9.3f}  {} ({} {})\n", r.metric, r.x, r.y, ratio, better, r.unit,
                             r.lower_better ? "lower is better" : "higher is better");
    out.push_back({{"metric", r.metric}, {"a", r.x}, {"b", r.y}, {"unit", r.unit}, {"lower_is_better", r.lower_better}});
  }
  if (a.as_json) std::cout << out.dump(2) << "\n";
  return 0;
}

}  // namespace

void add_bench_commands(CLI::App& root) {
  static BenchArgs a;
  auto* bench = root.add_subcommand("bench", "Run and inspect baseline/optimized benchmark pairs");
  bench->require_subcommand(1);

  auto* list = bench->add_subcommand("list-targets", "List discoverable targets (chNN:example, labs/<lab>:example)");
  list->add_option("--chapter", a.chapter, "Only this chapter (ch07, labs/<lab>)");
  list->add_option("--bench-root", a.bench_root, "List .cu pairs under this directory instead of the built plugins");
  list->add_flag("--json", a.as_json, "Print JSON");
  list->callback([] {
    Catalog c = load_catalog(a, false);
    json out = json::array();
    for (auto& t : c.targets) {
      if (!a.chapter.empty() && t.chapter != a.chapter) continue;
      json variants = json::array();
      for (auto& o : t.optimized) variants.push_back(o.name);
      out.push_back({{"target", t.id}, {"chapter", t.chapter}, {"example", t.example}, {"optimized", variants}});
      if (!a.as_json) std::cout << fmt::format("{:<40} {}\n", t.id, fmt::join(variants.get<std::vector<std::string>>(), ", "));
    }
    if (a.as_json) std::cout << out.dump(2) << "\n";
    if (!a.chapter.empty() && out.empty()) throw CLI::Error("UnknownChapter", "no targets in chapter '" + a.chapter + "'", 2);
  });

  auto* run = bench->add_subcommand("run", "Verify and time targets; write artifacts; exit 0 ok, 1 failed, 2 usage, 3 invalid");
  run->add_option("-t,--targets", a.targets, "chNN, chNN:example, labs/<lab>[:example] or all")->required();
  run->add_option("--mode", a.mode, "cold (L2 flushed per sample), hot (back-to-back batch) or graph (CUDA graph replay)")
      ->capture_default_str();
  run->add_option("--axis", a.axes,
                  "Run each target at these values of a parameter axis its pair reads with aisp::axis: n=1048576, "
                  "n=1K,4M,1G, n=2^20..2^28[:step]; repeat for more axes (every combination runs)");
  run->add_option("--iterations", a.iterations, "Exactly N timed samples per variant (disables adaptive stopping; recorded)");
  run->add_option("--warmup", a.warmup, "Warm-up runs per variant (at least 0.2 s of them)")->capture_default_str();
  run->add_option("--timeout-multiplier", a.timeout_multiplier, "Scale every per-request timeout")->capture_default_str();
  run->add_option("--time-limit", a.time_limit, "Seconds of sampling per variant before stopping anyway")->capture_default_str();
  run->add_option("--max-noise", a.max_noise, "Stop once the relative noise (%) falls to this")->capture_default_str();
  run->add_option("--min-time", a.min_time, "Minimum accumulated GPU seconds per variant")->capture_default_str();
  run->add_option("--artifacts-dir", a.artifacts_dir, "Where runs/ is written")->capture_default_str();
  run->add_option("--format", a.format, "Reports to write besides JSON: json, md, csv or all")
      ->check(CLI::IsMember({"json", "md", "csv", "all"}))->capture_default_str();
  run->add_option("--bench-root", a.bench_root, "Compile (cached) and run .cu pairs under this directory");
  run->add_option("--label", a.label, "Run directory label");
  run->add_option("--validity-profile", a.validity_profile,
                  "portable: environment failures are recorded as warnings; strict: a failed environment check "
                  "(e.g. another process on the GPU) refuses to start, exit 3")
      ->check(CLI::IsMember({"strict", "portable"}))
      ->capture_default_str();
  run->add_flag("--reproducible", a.reproducible, "Fixed seeds (recorded in the manifest)");
  run->add_option("--validity", a.validity,
                  "on: CUPTI audits, fresh inputs per sample, drain/fingerprint/replay checks (default). off: only to "
                  "measure their overhead; results are marked unvalidated")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  run->add_option("--noise-floor", a.noise_floor_file,
                  "A/A calibration to apply (default: <artifacts-dir>/calibration/noise_floor_<hwkey>.json, else the "
                  "one committed under results/reference/<hwkey>/; 'none': no calibration)");
  run->add_option("--db", a.db, "Results store the finished run is added to (default: $AISP_DB, else <artifacts-dir>/aisp.db)");
  run->add_flag("--no-db", a.no_db, "Do not add the run to the results store");
  run->add_flag("--update-expectations", a.update_expectations,
                "Record new, unchanged and improved results in chNN/expectations_<hwkey>.json (regressions only "
                "with --accept-regressions)");
  run->add_flag("--accept-regressions", a.accept_regressions,
                "A CI-supported slowdown versus the expectation is reported but does not fail the run");
  run->add_option("--profile", a.profile,
                  "After timing, profile every variant with ncu using this preset (none, minimal, roofline, "
                  "deep_dive); profiles go to <run>/profiles/ and the store")
      ->check(CLI::IsMember({"none", "minimal", "roofline", "deep_dive"}))
      ->capture_default_str();
  run->add_flag("--json", a.as_json, "Print the results JSON instead of the Markdown table");
  run->callback([] {
    int code = run_command(a);
    if (code != 0) throw CLI::RuntimeError(code);
  });

  auto* cal = bench->add_subcommand(
      "calibrate", "A/A: time each selected baseline against copies of itself in their own processes; store "
                   "this GPU's between-process spread and noise floor (later runs widen their intervals by it)");
  cal->add_option("-t,--targets", a.targets, "chNN, chNN:example, labs/<lab>[:example] or all");
  cal->add_option("--from-run", a.from_run,
                  "No GPU work: compute the floor from an earlier A/A run directory (also one that was interrupted: "
                  "every target it finished counts) and merge it into the calibration file");
  cal->add_option("--validity", a.validity,
                  "on: the copies run under every validity check like a real run (default); off: timing only, "
                  "much faster for large outputs (the copies run the same code, there is nothing to catch)")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  cal->add_option("--mode", a.mode, "cold, hot or graph")->capture_default_str();
  cal->add_option("--iterations", a.iterations, "Exactly N timed samples per variant");
  cal->add_option("--time-limit", a.time_limit, "Seconds of sampling per variant before stopping anyway")->capture_default_str();
  cal->add_option("--artifacts-dir", a.artifacts_dir, "Where runs/ and calibration/ are written")->capture_default_str();
  cal->add_option("--bench-root", a.bench_root, "Compile (cached) and run .cu pairs under this directory");
  cal->add_option("--db", a.db, "Results store the A/A run is added to (default: $AISP_DB, else <artifacts-dir>/aisp.db)");
  cal->add_flag("--no-db", a.no_db, "Do not add the run to the results store");
  cal->add_option("--replicates", a.replicates,
                  "Copies of each baseline, each in its own worker process, timed against it; the spread of their "
                  "medians is the between-process noise later runs add to their intervals (2 or more to measure it)")
      ->check(CLI::Range(1, 8))
      ->capture_default_str();
  cal->add_flag("--json", a.as_json, "Print the noise-floor JSON");
  cal->callback([] {
    a.calibrate = true;
    if (!a.from_run.empty()) {
      if (!a.targets.empty()) throw CLI::ValidationError("--from-run", "takes no --targets (the run's targets are used)");
      calibration_from_run(a);
      return;
    }
    if (a.targets.empty()) throw CLI::RequiredError("--targets");
    int code = run_command(a);
    if (code != 0) throw CLI::RuntimeError(code);
  });

  auto* cmp = bench->add_subcommand("compare", "Two variants' metrics side by side, with the direction of better");
  cmp->add_option("variant_a", a.variant_a, "<chapter>:<example>:<variant>, e.g. ch07:copy_scalar:baseline")->required();
  cmp->add_option("variant_b", a.variant_b, "<chapter>:<example>:<variant>, e.g. ch07:copy_scalar:copy_scalar")->required();
  cmp->add_option("--data-file", a.data_file, "A benchmark_test_results.json (default: the latest run)");
  cmp->add_option("--artifacts-dir", a.artifacts_dir, "Where to look for the latest run")->capture_default_str();
  cmp->add_flag("--json", a.as_json, "Also print JSON");
  cmp->callback([] { compare_command(a); });

  add_store_commands(*bench);  // runs, ingest, history, compare-runs
}

}  // namespace aisp
