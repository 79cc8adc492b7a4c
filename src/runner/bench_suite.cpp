#include "runner/bench_suite.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "core/file_names.hpp"
#include "core/json_io.hpp"
#include "core/verdict.hpp"
#include "report/text_reports.hpp"
#include "runner/expectations_step.hpp"
#include "runner/progress_line.hpp"

namespace aisp {
namespace fs = std::filesystem;

std::string now_stamp(const char* format) {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

namespace {

bool wants(const SuiteOptions& o, const std::string& f) {
  for (auto& x : o.formats)
    if (x == f || x == "all") return true;
  return false;
}

}  // namespace

fs::path prepare_run_dir(const fs::path& artifacts_dir, const std::string& label) {
  std::string base = fmt::format("{}__bench__{}", now_stamp("%Y%m%d_%H%M%S"), file_slug(label));
  fs::path runs = artifacts_dir / "runs";
  std::error_code ec;
  fs::create_directories(runs, ec);
  if (ec) throw std::runtime_error(fmt::format("artifacts directory {} is not writable: {}", runs.string(), ec.message()));
  fs::path dir = runs / base;
  for (int n = 2; fs::exists(dir); ++n) dir = runs / fmt::format("{}__{}", base, n);
  for (auto sub : {"results", "reports", "samples", "logs", "progress"}) {
    fs::create_directories(dir / sub, ec);
    if (ec) throw std::runtime_error(fmt::format("cannot create {}: {}", (dir / sub).string(), ec.message()));
  }
  write_file_atomic(dir / "progress" / "run_progress.json", R"({"state":"starting"})");
  return dir;
}

TargetResult not_run_result(const Target& target, double limit_s, double elapsed_s) {
  TargetResult r;
  r.id = target.id;
  r.chapter = target.chapter;
  r.example = target.example;
  r.status = status::skipped;
  r.error = fmt::format("suite_timeout: not started, the suite had run {:.0f} s of its --suite-timeout {:.0f} s",
                        elapsed_s, limit_s);
  r.baseline.name = "baseline";
  r.baseline.status = status::skipped;
  return r;
}

void cold_start_target(SuiteOptions& o, RunOptions& run, const fs::path& caches) {
  if (o.fresh_output_device) {
    run.output_device.reset();
    o.run.output_device.reset();
    run.output_device = o.fresh_output_device();
  }
  std::error_code ec;
  fs::remove_all(caches, ec);
  fs::create_directories(caches / "triton", ec);
  fs::create_directories(caches / "inductor", ec);
  setenv("TRITON_CACHE_DIR", (caches / "triton").c_str(), 1);
  setenv("TORCHINDUCTOR_CACHE_DIR", (caches / "inductor").c_str(), 1);
}


namespace {

// One target with the suite's options: its own run options (--target-extra-arg, this GPU's calibration,
// --cold-start). A harness exception becomes a failed_error result: one target must not cost the others.
TargetResult run_suite_target(const Target& target, SuiteOptions& o, const fs::path& run_dir) {
  TargetResult r;
  const fs::path cold_caches = run_dir / "work" / "cold_start" / file_slug(target.id);
  try {
    RunOptions run = run_options_for(target, o.run, o.target_extras);
    if (o.cold_start) cold_start_target(o, run, cold_caches);
    // This GPU's calibration for the target (its spread, else its floor); with none, the documented
    // default spread (core/noise_floor.hpp), so that a pair of processes running the same code is never
    // called FASTER or SLOWER for want of a calibration.
    NoiseModel noise = noise_model_for(o.noise_floor ? &*o.noise_floor : nullptr, target.id);
    run.process_spread = noise.spread;
    run.noise_floor = noise.floor;
    r = run_target(target, run);
  } catch (const std::exception& e) {
    r.id = target.id;
    r.chapter = target.chapter;
    r.example = target.example;
    r.status = status::failed_error;
    r.error = std::string("internal error in the supervisor: ") + e.what();
    std::fprintf(stderr, "\n%s: %s\n", target.id.c_str(), r.error.c_str());
  }
  if (o.cold_start) {
    std::error_code ec;
    fs::remove_all(cold_caches, ec);  // compiler caches of this target only: nothing to keep
  }
  return r;
}

// Every raw sample of the target's variants, GPU and wall clock, in samples/<target>.json.
void write_target_samples(const fs::path& run_dir, const TargetResult& r) {
  json samples = {{"target", r.id}, {"mode", r.mode}, {"seeds", r.seeds}, {"variants", json::array()}};
  std::vector<const VariantResult*> all{&r.baseline};
  for (auto& x : r.optimizations) all.push_back(&x);
  for (const VariantResult* v : all)
    samples["variants"].push_back({{"name", v->name}, {"gpu_ms", v->samples_ms}, {"wall_ms", v->wall_ms},
                                   {"discarded", v->discarded}});
  write_json_atomic(run_dir / "samples" / (file_slug(r.id) + ".json"), samples, -1);
}

}  // namespace

SuiteOutcome run_suite(const std::vector<Target>& targets, const fs::path& run_dir, SuiteOptions o) {
  SuiteOutcome out;
  out.run_dir = run_dir;
  o.run.run_dir = run_dir;
  ProgressLine printer(o.live_progress, targets.size());
  o.run.on_progress = [&](const Progress& p) { printer.update(p); };
  std::string started = now_stamp("%Y-%m-%dT%H:%M:%S%z");
  auto t0 = std::chrono::steady_clock::now();
  json manifest = o.manifest;
  manifest["start_time"] = started;
  manifest["mode"] = o.run.mode;
  manifest["targets"] = json::array();
  for (auto& t : targets) manifest["targets"].push_back(t.id);
  // Which targets ran with the default between-process spread instead of a calibration of their own
  // ("noise_floor", when present, names the calibration file that covered the rest).
  json defaulted = json::array();
  for (auto& t : targets)
    if (noise_model_for(o.noise_floor ? &*o.noise_floor : nullptr, t.id).source == "default") defaulted.push_back(t.id);
  if (!defaulted.empty())
    manifest["default_process_spread"] = {{"sd_log", kDefaultProcessSpread.sd_log}, {"df", kDefaultProcessSpread.df},
                                          {"targets", defaulted}};
  write_json_atomic(run_dir / "manifest.json", manifest);

  auto write_results = [&] {
    write_json_atomic(run_dir / "results" / "benchmark_test_results.json", results_document(out.results, started));
  };
  if (o.cold_start) {
    // Workers inherit the environment: with the on-disk JIT cache off, a PTX-only plugin is compiled
    // afresh in every worker instead of being read back from an earlier target's compilation.
    setenv("CUDA_CACHE_DISABLE", "1", 1);
    manifest["cold_start"] = true;
  }
  json not_run = json::array();
  for (auto& target : targets) {
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (o.suite_timeout_s > 0 && elapsed >= o.suite_timeout_s) {
      // A target in flight is never cut short; the ones after the limit are recorded as not run.
      not_run.push_back(target.id);
      out.results.push_back(not_run_result(target, o.suite_timeout_s, elapsed));
      write_results();
      continue;
    }
    printer.next_target();
    write_json_atomic(run_dir / "progress" / "run_progress.json",
                      json{{"state", "running"}, {"target", target.id}, {"completed", out.results.size()},
                           {"total", targets.size()}, {"elapsed_s", printer.elapsed_s()},
                           {"estimate", elapsed_and_remaining(printer.elapsed_s(), out.results.size(), targets.size())}},
                      -1);
    TargetResult r = run_suite_target(target, o, run_dir);
    write_target_samples(run_dir, r);
    out.results.push_back(std::move(r));
    write_results();  // after every target: a killed run keeps everything finished so far
  }
  if (out.results.empty()) write_results();
  // After every target: a regression changes statuses, so the results are written once more.
  if (o.expectations.enabled) {
    manifest["expectations"] = run_expectations_step(out.results, run_dir, manifest, o.expectations);
    write_results();
  }

  if (o.suite_timeout_s > 0)
    manifest["suite_timeout"] = {{"limit_s", o.suite_timeout_s}, {"reached", !not_run.empty()}, {"not_run", not_run}};
  manifest["end_time"] = now_stamp("%Y-%m-%dT%H:%M:%S%z");
  manifest["duration_seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  write_json_atomic(run_dir / "manifest.json", manifest);
  if (wants(o, "md")) write_file_atomic(run_dir / "reports" / "benchmark_test_results.md", markdown_report(out.results, manifest));
  if (wants(o, "csv")) write_file_atomic(run_dir / "reports" / "benchmark_test_results.csv", csv_report(out.results));
  std::vector<std::string> statuses;
  for (auto& r : out.results) statuses.push_back(r.status);
  out.exit_code = exit_code_for(statuses);
  // Targets left out by --suite-timeout were not measured: the suite did not do what it was asked (1),
  // unless an INVALID variant already makes it 3.
  if (!not_run.empty() && out.exit_code == 0) out.exit_code = 1;
  write_json_atomic(run_dir / "progress" / "run_progress.json",
                    json{{"state", "finished"}, {"completed", out.results.size()}, {"total", targets.size()},
                         {"exit_code", out.exit_code}, {"not_run", not_run}}, -1);
  return out;
}

}  // namespace aisp
