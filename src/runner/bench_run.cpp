#include "runner/bench_run.hpp"

#include <fmt/format.h>

#include <iostream>

#include "runner/calibration_choice.hpp"
#include "runner/rank_plan.hpp"

namespace aisp {
namespace fs = std::filesystem;
namespace {

// A refusal after the run directory exists removes it: a run that never started leaves nothing to ingest.
[[noreturn]] void refuse(const fs::path& run_dir, BenchError error) {
  std::error_code ec;
  fs::remove_all(run_dir, ec);
  throw error;
}

json gpu_facts_or_refuse(BenchHost& host, const fs::path& run_dir) {
  json info = host.system_info();
  if (info.is_discarded() || !info.is_object() || info.value("gpus", json::array()).empty()) {
    std::string why = !info.is_object() ? "could not query the GPU" : info.value("error", "no CUDA device");
    refuse(run_dir, BenchError("NoGPU", "aisp bench run needs an NVIDIA GPU: " + why, 2));
  }
  return info;
}

// The environment gate, before any benchmark starts, so a refused strict run costs nothing.
EnvironmentReport gate_or_refuse(BenchHost& host, const json& info, const BenchRequest& r, const fs::path& run_dir) {
  EnvironmentReport env = host.environment_gate(info, parse_validity_profile(r.validity_profile));
  std::cerr << env.summary_line() << "\n";
  if (env.refuses()) {
    std::string msg = "strict validity profile: the environment gate failed, not starting:";
    for (auto* c : env.with_status(CheckStatus::fail)) msg += fmt::format("\n  {}: {}", c->name, c->detail);
    msg += "\n(see `aisp info env`; --validity-profile portable runs anyway and records these as warnings)";
    refuse(run_dir, BenchError("EnvironmentRefused", msg, 3));
  }
  return env;
}

// The calibration this run applies, recorded in the manifest and announced on stderr (never for A/A runs,
// which measure the floor instead of applying it).
void apply_calibration(const BenchRequest& r, const std::string& hwkey, const fs::path& source_root,
                       SuiteOptions& o) {
  CalibrationChoice c = choose_calibration(r.noise_floor_file, noise_floor_path(r.artifacts_dir, hwkey), source_root, hwkey);
  if (!c.warning.empty()) std::cerr << "warning: " << c.warning << "\n";
  if (!c.floor) return;
  o.manifest["noise_floor"] = {{"file", c.file.string()}, {"device_floor", c.floor->device_floor}, {"date", c.floor->date}};
  std::cerr << fmt::format("A/A calibration: {} ({}): CIs include the between-process spread measured there\n",
                           c.file.string(), c.floor->date);
  o.noise_floor = std::move(c.floor);
}

// --nproc-per-node N > 1 (issue 26): the launch plan for the GPUs the child `aisp info gpu` saw, recorded in the
// manifest and handed to every target; too few GPUs (or no mpirun) refuses the run before any target starts.
void plan_ranks(const BenchRequest& r, const json& info, const fs::path& run_dir, SuiteOptions& o) {
  if (r.nproc_per_node <= 1) return;
  int gpus = static_cast<int>(info.value("gpus", json::array()).size());
  try {
    auto plan = std::make_shared<RankPlan>(
        make_rank_plan(rank_launch_options(r), visible_device_ids(std::getenv("CUDA_VISIBLE_DEVICES"), gpus)));
    if (r.launch_via == "mpirun") o.run.mpirun = require_mpirun(std::getenv("PATH"));
    o.manifest["multi_rank"] = plan->to_json();
    o.run.rank_plan = std::move(plan);
  } catch (const std::invalid_argument& e) {
    refuse(run_dir, BenchError("ValidationError", e.what(), 2, "--nproc-per-node"));
  } catch (const std::runtime_error& e) {
    refuse(run_dir, BenchError("NoMpirun", e.what(), 2));
  }
}

std::string commit_of(const json& git) {
  return git.is_object() && git.value("commit", json()).is_string() ? git["commit"].get<std::string>() : "";
}

}  // namespace

SuiteOptions suite_options(const BenchRequest& r, const fs::path& aisp_exe, const fs::path& plugin_root,
                           const fs::path& source_root) {
  SuiteOptions o;
  o.artifacts_dir = r.artifacts_dir;
  o.label = run_label(r);
  o.formats = report_formats(r);
  o.live_progress = r.live_progress;
  o.run.aisp_exe = aisp_exe.string();
  o.run.plugin_root = plugin_root;
  o.run.mode = r.mode;
  o.run.iterations = r.iterations;
  o.run.warmup = r.warmup;
  o.run.timeout_multiplier = r.timeout_multiplier;
  o.run.reproducible = r.reproducible;
  o.run.validity = r.validity == "on";
  o.run.keep_outputs = r.keep_outputs;
  o.run.stop_on_decision = !r.calibrate;  // the floor is measured with the full stopping rule
  // A/A copies measure the between-process spread on one trace; a verdict pools several.
  o.run.trace_replicates = r.calibrate ? 1 : r.trace_replicates;
  o.run.seed = 42;
  o.run.policy.time_limit_s = r.time_limit;
  o.run.policy.max_noise = r.max_noise / 100.0;
  o.run.policy.min_gpu_time_s = r.min_time;
  // Expectations live next to the sources: --bench-root, else the project checkout (never for A/A runs).
  o.expectations.enabled = !r.calibrate;
  o.expectations.source_root = r.bench_root.empty() ? source_root : fs::path(r.bench_root);
  o.expectations.update = r.update_expectations;
  o.expectations.accept_regressions = r.accept_regressions;
  o.target_extras = target_extra_args(r);
  o.suite_timeout_s = r.suite_timeout_s;
  o.cold_start = r.cold_start;
  return o;
}

json bench_manifest(const BenchRequest& r, const json& info, const EnvironmentReport& env, const json& git,
                    const json& build, const std::vector<std::string>& compile_failures) {
  // The gate's checks extend the info's environment facts, and its warning lines replace the info's
  // warnings: the gate evaluates the same facts (virtualization, other GPU processes) and more.
  json environment = info.value("environment", json());
  environment.update(env.to_json());
  json seeds = r.reproducible ? json{{"policy", "fixed"}, {"base", 42}}
                              : json{{"policy", "random per target, drawn after plugin load"}};
  return {{"kind", "bench"},
          {"command", "aisp bench run"},
          {"hardware", info.value("hardware", json())},
          {"gpus", info.value("gpus", json())},
          {"software", info.value("software", json())},
          {"environment", environment},
          {"warnings", env.warning_lines()},
          {"git", git},
          {"build", build},
          {"reproducible", r.reproducible},
          {"validity", r.validity},
          {"seeds", seeds},
          {"iterations_override", r.iterations},
          {"warmup", r.warmup},
          {"compile_failures", compile_failures},
          {"cold_start", r.cold_start},
          {"suite_timeout_s", r.suite_timeout_s},
          {"target_extra_args", r.target_extra_args},
          {"profile_preset", profile_preset(r)}};
}

BenchOutcome run_bench(const BenchRequest& r, BenchHost& host) {
  check_request(r);
  // A missing profiler is a usage error found before any GPU time is spent, not after the timing.
  const std::string preset = profile_preset(r);
  if (preset != "none") host.require_profiler();
  BenchCatalog catalog = load_catalog(r.bench_root, host.built_plugin_root(), host.aisp_exe(), true);
  for (auto& f : catalog.compile_failures) std::cerr << "compile error: " << f << "\n";
  BenchOutcome out;
  out.targets = targets_to_run(resolve_targets(catalog, r.targets), r);

  fs::path source_root = host.source_root();
  SuiteOptions o = suite_options(r, host.aisp_exe(), catalog.plugin_root, source_root);
  o.run.output_device = host.output_device();
  if (r.cold_start) o.fresh_output_device = [&host] { return host.output_device(); };
  // Before any GPU work: the artifacts directory must be writable.
  out.run_dir = prepare_run_dir(o.artifacts_dir, o.label.substr(0, 80));
  json info = gpu_facts_or_refuse(host, out.run_dir);
  EnvironmentReport env = gate_or_refuse(host, info, r, out.run_dir);
  json git = host.git_info();
  o.manifest = bench_manifest(r, info, env, git, host.build_info(), catalog.compile_failures);
  plan_ranks(r, info, out.run_dir, o);
  std::string hwkey = info["hardware"].value("hardware_key", "unknown");
  if (!r.calibrate) apply_calibration(r, hwkey, source_root, o);

  SuiteOutcome s = host.run_suite(out.targets, out.run_dir, o);
  out.results = std::move(s.results);
  out.exit_code = s.exit_code;
  if (!r.no_db) host.store_run(out.run_dir, r.db, r.artifacts_dir);  // warns, never fails the run
  // Profiling after timing, never inside it: ncu replays each kernel many times with its counters on.
  if (preset != "none" && !r.calibrate)
    host.profile_run(out.targets, catalog.plugin_root, out.run_dir, preset, r.db, r.artifacts_dir);
  if (r.calibrate) {
    CalibrationProvenance where{info["hardware"], now_stamp("%Y-%m-%dT%H:%M:%S%z"), commit_of(git)};
    out.calibration = write_calibration(out.results, where, noise_floor_path(r.artifacts_dir, hwkey));
    out.calibration->run_dir = out.run_dir;
    out.calibration->replicates = r.replicates;
    out.exit_code = 0;
  }
  return out;
}

CalibrationUpdate calibrate_from_run(const fs::path& run_dir, const fs::path& artifacts_dir, BenchHost& host) {
  RecordedAaRun run = read_aa_run(run_dir);
  if (run.where.commit.empty()) run.where.commit = commit_of(host.git_info());
  std::string hwkey = run.where.hardware.is_object() ? run.where.hardware.value("hardware_key", "unknown") : "unknown";
  CalibrationUpdate u = write_calibration(run.results, run.where, noise_floor_path(artifacts_dir, hwkey));
  u.run_dir = run_dir;
  u.replicates = run.replicates;
  return u;
}

}  // namespace aisp
