// `aisp bench …`: list-targets, run, calibrate, compare. For run and calibrate this file only parses the
// flags into a BenchRequest, binds the runner to the binary (BenchHost) and prints the outcome: the use
// case itself is runner/bench_run.hpp.
#include "cli/bench_commands.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "cli/info_commands.hpp"
#include "cli/paths.hpp"
#include "cli/profile_commands.hpp"
#include "cli/store_commands.hpp"
#include "cli/tui_commands.hpp"
#include "core/json_io.hpp"
#include "runner/bench_run.hpp"
#include "runner/rank_plan.hpp"
#include "runtime/ipc_output_device.hpp"

namespace aisp {
namespace fs = std::filesystem;
namespace {

struct BenchArgs {
  BenchRequest request;  // run and calibrate: what the user asked, handed to the runner as parsed
  std::string chapter;   // list-targets
  std::string from_run;  // calibrate: the floor from an existing (possibly interrupted) A/A run
  std::string data_file, variant_a, variant_b;  // compare
  bool as_json = false;
};

// The runner's refusals as the CLI reports them: a flag's usage error, or a named error with its code.
template <class F>
auto cli_errors(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const BenchError& e) {
    if (!e.option.empty()) throw CLI::ValidationError(e.option, e.what());
    throw CLI::Error(e.kind, e.what(), e.exit_code);
  }
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

// The runner bound to this binary: its paths, its child `aisp info gpu`, the store and ncu.
class CliBenchHost final : public BenchHost {
 public:
  fs::path aisp_exe() override { return self_exe(); }
  fs::path built_plugin_root() override { return default_plugin_root(); }
  fs::path source_root() override { return project_source_root(); }
  json system_info() override {
    int code = 0;
    std::string text = capture_stdout(fmt::format("'{}' info gpu --json 2>/dev/null", self_exe().string()), &code);
    return json::parse(text, nullptr, false);
  }
  EnvironmentReport environment_gate(const json& info, ValidityProfile profile) override {
    return aisp::environment_gate(info, profile);
  }
  json git_info() override { return aisp::git_info(); }
  std::shared_ptr<OutputDevice> output_device() override { return std::make_shared<IpcOutputDevice>(); }
  json build_info() override {
    return {{"cuda_architectures", AISP_BUILD_CUDA_ARCHS}, {"build_type", AISP_BUILD_TYPE}};
  }
  void require_profiler() override { require_ncu(); }
  void store_run(const fs::path& run_dir, const std::string& db, const fs::path& artifacts_dir) override {
    store_finished_run(run_dir, store_path(db, artifacts_dir));
  }
  void profile_run(const std::vector<Target>& targets, const fs::path& plugin_root, const fs::path& run_dir,
                   const std::string& preset, const std::string& db, const fs::path& artifacts_dir) override {
    profile_after_bench(targets, plugin_root, run_dir, preset, store_path(db, artifacts_dir));
  }
};

// This GPU's noise floor as written; A/A intervals that exclude 1.0 are shown, not hidden: they are
// exactly the systematic difference the floor exists to absorb.
void print_calibration(const CalibrationUpdate& u, bool as_json) {
  const NoiseFloor& f = u.floor;
  if (as_json) {
    std::cout << to_json(f).dump(2) << "\n";
    return;
  }
  std::cout << fmt::format("A/A noise floor, {} ({}): each baseline against {} copies of itself in their own "
                           "processes\n", f.gpu, f.hardware_key, u.replicates);
  std::cout << fmt::format("{:<40} {:>9} {:>20} {:>20} {:>9} {:>7} {:>7}\n", "target", "speedup", "95% CI, one pair",
                           "with process spread", "spread", "floor", "n");
  int excluding = 0, pairs = 0, within_excluding = 0;
  for (auto& id : u.measured_now) {
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
  if (u.kept > 0) std::cout << fmt::format("{} targets calibrated earlier kept from the file\n", u.kept);
  std::cout << fmt::format("device floor {:.2f}% -> {}\nrun: {}\n", 100 * f.device_floor, u.file.string(),
                           u.run_dir.string());
}

// `bench run --print-launch-plan` (issue 26): the multi-rank plan for the GPUs this process sees, as JSON;
// nothing is started. The GPU count comes from the same child `aisp info gpu` a run asks.
int print_launch_plan(const BenchRequest& r, CliBenchHost& host) {
  cli_errors([&] { check_request(r); });
  json info = host.system_info();
  int gpus = info.is_object() ? static_cast<int>(info.value("gpus", json::array()).size()) : 0;
  try {
    RankPlan plan = make_rank_plan(rank_launch_options(r), visible_device_ids(std::getenv("CUDA_VISIBLE_DEVICES"), gpus));
    std::string mpirun = r.launch_via == "mpirun" ? require_mpirun(std::getenv("PATH")) : "";
    WorkerSpawn base{host.aisp_exe().string(), "<variant plugin>", "<run>/logs/<chapter>__<example>__<variant>.log"};
    std::cout << launch_plan_report(plan, base, mpirun).dump(2) << "\n";
  } catch (const std::invalid_argument& e) {
    throw CLI::ValidationError("--nproc-per-node", e.what());
  } catch (const std::runtime_error& e) { throw CLI::Error("NoMpirun", e.what(), 2); }
  return 0;
}

// `bench run` and `bench calibrate` (without --from-run): the runner does the work, this prints it.
int run_command(BenchArgs& a) {
  a.request.live_progress = !a.as_json;
  CliBenchHost host;
  if (a.request.print_launch_plan) return print_launch_plan(a.request, host);
  BenchOutcome out = cli_errors([&] { return run_bench(a.request, host); });
  if (out.calibration) {
    print_calibration(*out.calibration, a.as_json);
    return out.exit_code;
  }
  if (a.as_json) {
    std::cout << read_file(out.run_dir / "results" / "benchmark_test_results.json") << "\n";
  } else {
    // The Markdown table is printed when it was written (--format md|all); otherwise only where things are.
    fs::path md = out.run_dir / "reports" / "benchmark_test_results.md";
    if (fs::exists(md)) std::cout << read_file(md);
    std::cout << "\nartifacts: " << out.run_dir.string() << "\n";
  }
  return out.exit_code;
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
  fs::path file = a.data_file.empty() ? latest_results(a.request.artifacts_dir) : fs::path(a.data_file);
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

// `bench list-targets`: the discoverable targets, from the built plugins or a --bench-root.
void add_list_command(CLI::App& bench, BenchArgs& a) {
  BenchRequest& r = a.request;  // run and calibrate parse straight into the request
  auto* list = bench.add_subcommand("list-targets", "List discoverable targets (chNN:example, labs/<lab>:example)");
  list->add_option("--chapter", a.chapter, "Only this chapter (ch07, labs/<lab>)");
  list->add_option("--bench-root", r.bench_root, "List .cu pairs under this directory instead of the built plugins");
  list->add_flag("--json", a.as_json, "Print JSON");
  list->callback([&a] {
    CliBenchHost host;
    BenchCatalog c = cli_errors([&] {
      return load_catalog(a.request.bench_root, host.built_plugin_root(), host.aisp_exe(), false);
    });
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
}

// `bench run`: every flag parses into the BenchRequest; run_command() does the rest.
void add_run_command(CLI::App& bench, BenchArgs& a) {
  BenchRequest& r = a.request;  // run and calibrate parse straight into the request
  auto* run = bench.add_subcommand("run", "Verify and time targets; write artifacts; exit 0 ok, 1 failed, 2 usage, 3 invalid");
  run->add_option("-t,--targets", r.targets, "chNN, chNN:example, labs/<lab>[:example] or all")->required();
  run->add_option("--mode", r.mode, "cold (L2 flushed per sample), hot (back-to-back batch) or graph (CUDA graph replay)")
      ->capture_default_str();
  run->add_option("--axis", r.axes,
                  "Run each target at these values of a parameter axis its pair reads with aisp::axis: n=1048576, "
                  "n=1K,4M,1G, n=2^20..2^28[:step]; repeat for more axes (every combination runs)");
  run->add_option("--iterations", r.iterations, "Exactly N timed samples per variant (disables adaptive stopping; recorded)");
  run->add_option("--warmup", r.warmup, "Minimum warm-up runs per variant; warm-up then ends once three run times agree within 1% with the SM clock near its maximum (at most 0.2 s)")->capture_default_str();
  run->add_option("--timeout-multiplier", r.timeout_multiplier, "Scale every per-request timeout")->capture_default_str();
  run->add_option("--time-limit", r.time_limit, "Seconds of sampling per variant before stopping anyway")->capture_default_str();
  run->add_flag("--keep-outputs", r.keep_outputs,
                "Also dump every compared output to files and keep them under <run>/work (they are compared on the "
                "GPU through CUDA IPC either way)");
  run->add_option("--max-noise", r.max_noise, "Stop once the relative noise (%) falls to this")->capture_default_str();
  run->add_option("--min-time", r.min_time, "Minimum accumulated GPU seconds per variant")->capture_default_str();
  run->add_option("--trace-replicates", r.trace_replicates,
                  "Latency goals: run each target on this many request traces (each drawn from its own seed, 1/N of "
                  "the sampling budget each) and pool them, so the interval covers the choice of trace; 1: one trace")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  run->add_option("--artifacts-dir", r.artifacts_dir, "Where runs/ is written")->capture_default_str();
  run->add_option("--format", r.format, "Reports to write besides JSON: json, md, csv or all")
      ->check(CLI::IsMember({"json", "md", "csv", "all"}))->capture_default_str();
  run->add_option("--bench-root", r.bench_root, "Compile (cached) and run .cu pairs under this directory");
  run->add_option("--label", r.label, "Run directory label");
  run->add_option("--validity-profile", r.validity_profile,
                  "portable: environment failures are recorded as warnings; strict: a failed environment check "
                  "(e.g. another process on the GPU) refuses to start, exit 3")
      ->check(CLI::IsMember({"strict", "portable"}))
      ->capture_default_str();
  run->add_flag("--reproducible", r.reproducible, "Fixed seeds (recorded in the manifest)");
  run->add_option("--validity", r.validity,
                  "on: CUPTI audits, fresh inputs per sample, drain/fingerprint/replay checks (default). off: only to "
                  "measure their overhead; results are marked unvalidated")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  run->add_option("--noise-floor", r.noise_floor_file,
                  "A/A calibration to apply (default: <artifacts-dir>/calibration/noise_floor_<hwkey>.json, else the "
                  "one committed under results/reference/<hwkey>/; 'none': no calibration)");
  run->add_option("--db", r.db, "Results store the finished run is added to (default: $AISP_DB, else <artifacts-dir>/aisp.db)");
  run->add_flag("--no-db", r.no_db, "Do not add the run to the results store");
  run->add_flag("--update-expectations", r.update_expectations,
                "Record new, unchanged and improved results in chNN/expectations_<hwkey>.json (regressions only "
                "with --accept-regressions)");
  run->add_flag("--accept-regressions", r.accept_regressions,
                "A CI-supported slowdown versus the expectation is reported but does not fail the run");
  run->add_option("--profile", r.profile,
                  "After timing, profile every variant with ncu using this preset (none, minimal, roofline, "
                  "deep_dive); profiles go to <run>/profiles/ and the store")
      ->check(CLI::IsMember({"none", "minimal", "roofline", "deep_dive"}))
      ->capture_default_str();
  run->add_option("--ncu-metric-set", r.ncu_metric_set,
                  "The ncu preset of the profile step (minimal, roofline, deep_dive); auto: the --profile preset. "
                  "Given without --profile it turns the profile step on")
      ->check(CLI::IsMember({"auto", "minimal", "roofline", "deep_dive"}))
      ->capture_default_str();
  run->add_option("--suite-timeout", r.suite_timeout_s,
                  "Seconds: no target starts after the suite has run this long (a running one finishes); the rest "
                  "are recorded as skipped (suite_timeout) and the run exits 1 (0: no limit)")
      ->check(CLI::NonNegativeNumber);
  run->add_flag("--cold-start", r.cold_start,
                "Reuse nothing across targets: a fresh output-comparison device per target and CUDA's JIT cache off "
                "for the workers (each variant already runs in its own new process); recorded in the manifest");
  run->add_option("--target-extra-arg", r.target_extra_args,
                  std::string("TARGET=ARGS: options for one target (id without axis point, or a chapter), e.g. "
                              "'ch07:copy_scalar=--axis n=1M'; repeatable. ARGS: ") + kTargetExtraArgOptions);
  run->add_option("--nproc-per-node", r.nproc_per_node,
                  "Run each target as N ranks, one worker per GPU, with RANK/WORLD_SIZE/LOCAL_RANK/MASTER_ADDR/"
                  "MASTER_PORT, AISP_RENDEZVOUS_DIR and NCCL_NVLS_ENABLE=0 set; every rank verified against the "
                  "baseline's same rank, a step timed at its slowest rank (docs/multi-gpu.md)")
      ->capture_default_str();
  run->add_option("--launch-via", r.launch_via,
                  "local: the supervisor starts each rank's worker; mpirun: one Open MPI job (Debian openmpi-bin)")
      ->check(CLI::IsMember({"local", "mpirun"}))
      ->capture_default_str();
  run->add_flag("--ranks-on-one-gpu", r.ranks_on_one_gpu,
                "Dry run: every rank on the first visible GPU (CPU or one-GPU testing; recorded in the plan)");
  run->add_flag("--print-launch-plan", r.print_launch_plan,
                "Print the multi-rank launch plan (each rank's worker command and environment, or the mpirun line) "
                "as JSON and exit without running anything");
  run->add_flag("--json", a.as_json, "Print the results JSON instead of the Markdown table");
  run->callback([&a] {
    int code = run_command(a);
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

// `bench calibrate`: an A/A run (or --from-run) that writes this GPU's noise floor.
void add_calibrate_command(CLI::App& bench, BenchArgs& a) {
  BenchRequest& r = a.request;  // run and calibrate parse straight into the request
  auto* cal = bench.add_subcommand(
      "calibrate", "A/A: time each selected baseline against copies of itself in their own processes; store "
                   "this GPU's between-process spread and noise floor (later runs widen their intervals by it)");
  cal->add_option("-t,--targets", r.targets, "chNN, chNN:example, labs/<lab>[:example] or all");
  cal->add_option("--from-run", a.from_run,
                  "No GPU work: compute the floor from an earlier A/A run directory (also one that was interrupted: "
                  "every target it finished counts) and merge it into the calibration file");
  cal->add_option("--validity", r.validity,
                  "on: the copies run under every validity check like a real run (default); off: timing only, "
                  "much faster for large outputs (the copies run the same code, there is nothing to catch)")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  cal->add_option("--mode", r.mode, "cold, hot or graph")->capture_default_str();
  cal->add_option("--iterations", r.iterations, "Exactly N timed samples per variant");
  cal->add_option("--time-limit", r.time_limit, "Seconds of sampling per variant before stopping anyway")->capture_default_str();
  cal->add_option("--artifacts-dir", r.artifacts_dir, "Where runs/ and calibration/ are written")->capture_default_str();
  cal->add_option("--bench-root", r.bench_root, "Compile (cached) and run .cu pairs under this directory");
  cal->add_option("--db", r.db, "Results store the A/A run is added to (default: $AISP_DB, else <artifacts-dir>/aisp.db)");
  cal->add_flag("--no-db", r.no_db, "Do not add the run to the results store");
  cal->add_option("--replicates", r.replicates,
                  "Copies of each baseline, each in its own worker process, timed against it; the spread of their "
                  "medians is the between-process noise later runs add to their intervals (2 or more to measure it)")
      ->check(CLI::Range(1, 8))
      ->capture_default_str();
  cal->add_flag("--json", a.as_json, "Print the noise-floor JSON");
  cal->callback([&a] {
    a.request.calibrate = true;
    if (!a.from_run.empty()) {
      if (!a.request.targets.empty())
        throw CLI::ValidationError("--from-run", "takes no --targets (the run's targets are used)");
      CliBenchHost host;
      print_calibration(cli_errors([&] { return calibrate_from_run(a.from_run, a.request.artifacts_dir, host); }),
                        a.as_json);
      return;
    }
    if (a.request.targets.empty()) throw CLI::RequiredError("--targets");
    int code = run_command(a);
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

// `bench compare`: two variants of a stored run side by side.
void add_compare_command(CLI::App& bench, BenchArgs& a) {
  BenchRequest& r = a.request;  // run and calibrate parse straight into the request
  auto* cmp = bench.add_subcommand("compare", "Two variants' metrics side by side, with the direction of better");
  cmp->add_option("variant_a", a.variant_a, "<chapter>:<example>:<variant>, e.g. ch07:copy_scalar:baseline")->required();
  cmp->add_option("variant_b", a.variant_b, "<chapter>:<example>:<variant>, e.g. ch07:copy_scalar:copy_scalar")->required();
  cmp->add_option("--data-file", a.data_file, "A benchmark_test_results.json (default: the latest run)");
  cmp->add_option("--artifacts-dir", r.artifacts_dir, "Where to look for the latest run")->capture_default_str();
  cmp->add_flag("--json", a.as_json, "Also print JSON");
  cmp->callback([&a] { compare_command(a); });
}

}  // namespace

void add_bench_commands(CLI::App& root) {
  static BenchArgs a;  // the parsed flags outlive this call: the callbacks read them after parsing
  auto* bench = root.add_subcommand("bench", "Run and inspect baseline/optimized benchmark pairs");
  bench->require_subcommand(1);
  add_list_command(*bench, a);
  add_run_command(*bench, a);
  add_calibrate_command(*bench, a);
  add_compare_command(*bench, a);
  add_store_commands(*bench);  // runs, ingest, history, compare-runs
  add_tui_command(*bench);
}

}  // namespace aisp
