// The bench-run use case on a CPU (runner/bench_request.hpp, bench_catalog.hpp, calibration_choice.hpp,
// bench_run.hpp): what a request turns into before and around the timing. The GPU side (system info,
// environment gate, the suite itself) is a scripted fake host, so every decision the runner makes about
// a request is checked here without a device.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/json_io.hpp"
#include "core/noise_floor.hpp"
#include "runner/bench_run.hpp"
#include "runner/calibration_choice.hpp"

namespace aisp {
namespace {
namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name)
      : path(fs::temp_directory_path() / ("aisp_bench_request_" + std::to_string(getpid()) + "_" + name)) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

void touch(const fs::path& p) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << "";
}

// A built plugin tree: ch07 with one pair (two optimized variants) and one more pair, plus a test-only
// fixture folder, as the build lays them out (tests/CMakeLists.txt writes the `.test-only` marker).
fs::path plugin_tree(const fs::path& root) {
  for (auto f : {"ch07/baseline_copy.so", "ch07/optimized_copy.so", "ch07/optimized_copy_v2.so",
                 "ch07/baseline_gather.so", "ch07/optimized_gather.so", "fixtures/baseline_crash.so",
                 "fixtures/optimized_crash.so", "fixtures/.test-only"})
    touch(root / f);
  return root;
}

Target pair(const std::string& chapter, const std::string& example) {
  Target t;
  t.id = chapter + ":" + example;
  t.chapter = chapter;
  t.example = example;
  t.baseline = {"baseline", chapter + "/baseline_" + example + ".so"};
  t.optimized = {{example, chapter + "/optimized_" + example + ".so"}};
  return t;
}

std::vector<std::string> ids(const std::vector<Target>& targets) {
  std::vector<std::string> out;
  for (auto& t : targets) out.push_back(t.id);
  return out;
}

TEST(BenchRequest, CalibrationReplacesEveryOptimizedVariantWithCopiesOfTheBaseline) {
  BenchRequest r;
  r.calibrate = true;
  r.replicates = 3;
  std::vector<Target> run = targets_to_run({pair("ch07", "copy")}, r);
  ASSERT_EQ(run.size(), 1u);
  ASSERT_EQ(run[0].optimized.size(), 3u);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(run[0].optimized[k].name, "aa_self_" + std::to_string(k + 1));
    EXPECT_EQ(run[0].optimized[k].file, "ch07/baseline_copy.so");  // the baseline's own plugin
  }
  r.calibrate = false;  // a run keeps its pair as discovered
  EXPECT_EQ(targets_to_run({pair("ch07", "copy")}, r)[0].optimized[0].name, "copy");
}

TEST(BenchRequest, AxesRunEveryTargetAtEveryCombinationTargetMajor) {
  BenchRequest r;
  r.axes = {"n=1K,2K", "k=2"};
  std::vector<Target> run = targets_to_run({pair("ch07", "copy"), pair("ch07", "gather")}, r);
  EXPECT_EQ(ids(run), (std::vector<std::string>{"ch07:copy[k=2,n=1024]", "ch07:copy[k=2,n=2048]",
                                                "ch07:gather[k=2,n=1024]", "ch07:gather[k=2,n=2048]"}));
  EXPECT_EQ(run[1].axes, (std::map<std::string, int64_t>{{"k", 2}, {"n", 2048}}));
  // The A/A copies are made before the expansion: every axis point is calibrated with its copies.
  r.calibrate = true;
  r.replicates = 2;
  for (auto& t : targets_to_run({pair("ch07", "copy")}, r)) EXPECT_EQ(t.optimized.size(), 2u);
}

TEST(BenchRequest, AMalformedAxisIsAUsageErrorOfTheAxisFlag) {
  BenchRequest r;
  r.axes = {"n=lots"};
  try {
    targets_to_run({pair("ch07", "copy")}, r);
    FAIL() << "accepted --axis n=lots";
  } catch (const BenchError& e) {
    EXPECT_EQ(e.option, "--axis");
    EXPECT_EQ(e.exit_code, 2);
  }
  r.axes = {"n=1K", "n=2K"};  // an axis named twice
  EXPECT_THROW(targets_to_run({pair("ch07", "copy")}, r), BenchError);
}

TEST(BenchRequest, ModeLabelAndFormats) {
  BenchRequest r;
  EXPECT_NO_THROW(check_request(r));
  r.mode = "lukewarm";
  try {
    check_request(r);
    FAIL() << "accepted --mode lukewarm";
  } catch (const BenchError& e) {
    EXPECT_EQ(e.option, "--mode");
    EXPECT_STREQ(e.what(), "must be cold, hot or graph");
  }
  r.targets = {"ch07", "ch08:x"};
  EXPECT_EQ(run_label(r), "targets-ch07_ch08:x");
  r.calibrate = true;
  EXPECT_EQ(run_label(r), "calibrate-ch07_ch08:x");
  r.label = "mine";
  EXPECT_EQ(run_label(r), "mine");
  EXPECT_EQ(report_formats(r), (std::vector<std::string>{"json", "md", "csv"}));
  r.format = "csv";
  EXPECT_EQ(report_formats(r), (std::vector<std::string>{"json", "csv"}));
}

TEST(BenchCatalog, AllMeansChaptersAndLabsTestFixturesOnlyWhenNamed) {
  TempDir tmp("catalog");
  BenchCatalog c = load_catalog("", plugin_tree(tmp.path / "plugins"), "/nonexistent/aisp", true);
  EXPECT_EQ(ids(c.targets), (std::vector<std::string>{"ch07:copy", "ch07:gather", "fixtures:crash"}));
  EXPECT_EQ(ids(resolve_targets(c, {"all"})), (std::vector<std::string>{"ch07:copy", "ch07:gather"}));
  EXPECT_EQ(ids(resolve_targets(c, {"all", "fixtures"})),
            (std::vector<std::string>{"ch07:copy", "ch07:gather", "fixtures:crash"}));
  EXPECT_EQ(ids(resolve_targets(c, {"fixtures:crash"})), (std::vector<std::string>{"fixtures:crash"}));
  // A variant's name selects its target with only that variant.
  std::vector<Target> v2 = resolve_targets(c, {"ch07:copy_v2"});
  ASSERT_EQ(v2.size(), 1u);
  ASSERT_EQ(v2[0].optimized.size(), 1u);
  EXPECT_EQ(v2[0].optimized[0].name, "copy_v2");
}

TEST(BenchCatalog, UnknownTargetsAreNamedWithTheirNearestAndExit2) {
  TempDir tmp("unknown");
  BenchCatalog c = load_catalog("", plugin_tree(tmp.path / "plugins"), "/nonexistent/aisp", true);
  try {
    resolve_targets(c, {"ch07:copyy", "ch07"});
    FAIL() << "accepted ch07:copyy";
  } catch (const BenchError& e) {
    EXPECT_EQ(e.kind, "UnknownTarget");
    EXPECT_EQ(e.exit_code, 2);
    EXPECT_TRUE(e.option.empty());
    std::string msg = e.what();
    EXPECT_NE(msg.find("unknown target 'ch07:copyy' (did you mean: ch07:copy"), std::string::npos) << msg;
    EXPECT_NE(msg.find("list them with: aisp bench list-targets"), std::string::npos) << msg;
  }
  try {
    load_catalog("", tmp.path / "no-plugins-here", "/nonexistent/aisp", true);
    FAIL() << "a missing plugin tree was accepted";
  } catch (const BenchError& e) {
    EXPECT_EQ(e.kind, "NoPlugins");
    EXPECT_EQ(e.exit_code, 2);
  }
}

void write_floor(const fs::path& file, const std::string& hwkey, double floor) {
  NoiseFloor f;
  f.hardware_key = hwkey;
  f.date = "2026-11-25";
  NoiseFloorEntry e;
  e.floor = floor;
  f.targets["ch07:copy"] = e;
  f.device_floor = floor;
  fs::create_directories(file.parent_path());
  write_json_atomic(file, to_json(f));
}

TEST(CalibrationChoice, OwnFileThenTheCommittedReferenceThenNone) {
  TempDir tmp("choice");
  fs::path own = noise_floor_path(tmp.path / "artifacts", "h100");
  fs::path source = tmp.path / "src";
  fs::path reference = source / "results" / "reference" / "h100" / own.filename();
  EXPECT_FALSE(choose_calibration("", own, source, "h100").floor);  // nothing anywhere: the default spread

  write_floor(reference, "h100", 0.02);
  CalibrationChoice c = choose_calibration("", own, source, "h100");
  ASSERT_TRUE(c.floor);
  EXPECT_EQ(c.file, reference);
  EXPECT_DOUBLE_EQ(c.floor->device_floor, 0.02);

  write_floor(own, "h100", 0.01);  // this machine's own calibration wins over the committed one
  c = choose_calibration("", own, source, "h100");
  EXPECT_EQ(c.file, own);
  EXPECT_DOUBLE_EQ(c.floor->device_floor, 0.01);
  EXPECT_FALSE(choose_calibration("none", own, source, "h100").floor);
}

TEST(CalibrationChoice, ANamedFileMustExistAndMatchTheGpuADefaultOneOnlyWarns) {
  TempDir tmp("named");
  fs::path own = noise_floor_path(tmp.path / "artifacts", "h100");
  write_floor(own, "a100", 0.01);  // measured on another GPU
  CalibrationChoice c = choose_calibration("", own, "", "h100");
  EXPECT_FALSE(c.floor);
  EXPECT_NE(c.warning.find("'a100'"), std::string::npos) << c.warning;

  auto refusal = [&](const std::string& requested) {
    try {
      choose_calibration(requested, own, "", "h100");
    } catch (const BenchError& e) {
      EXPECT_EQ(e.exit_code, 2);
      return e.kind;
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refusal(own.string()), "BadNoiseFloor");
  EXPECT_EQ(refusal((tmp.path / "missing.json").string()), "NoNoiseFloor");
  std::ofstream(tmp.path / "corrupt.json") << "{ not json";
  EXPECT_EQ(refusal((tmp.path / "corrupt.json").string()), "BadNoiseFloor");
}

TEST(BenchRun, SuiteOptionsCarryTheRequest) {
  BenchRequest r;
  r.max_noise = 0.5;
  r.validity = "off";
  r.bench_root = "/my/pairs";
  SuiteOptions o = suite_options(r, "/bin/aisp", "/plugins", "/checkout");
  EXPECT_DOUBLE_EQ(o.run.policy.max_noise, 0.005);  // percent on the command line, a fraction inside
  EXPECT_FALSE(o.run.validity);
  EXPECT_TRUE(o.run.stop_on_decision);
  EXPECT_TRUE(o.expectations.enabled);
  EXPECT_EQ(o.expectations.source_root, "/my/pairs");  // expectations live next to the sources
  EXPECT_EQ(o.run.trace_replicates, 5);                // a latency verdict pools five request traces
  r.trace_replicates = 0;
  try {
    check_request(r);
    FAIL() << "accepted --trace-replicates 0";
  } catch (const BenchError& e) { EXPECT_EQ(e.option, "--trace-replicates"); }
  r.trace_replicates = 3;
  EXPECT_EQ(suite_options(r, "/bin/aisp", "/plugins", "/checkout").run.trace_replicates, 3);
  r.bench_root.clear();
  r.calibrate = true;
  o = suite_options(r, "/bin/aisp", "/plugins", "/checkout");
  EXPECT_EQ(o.run.trace_replicates, 1);  // A/A copies measure the between-process spread on one trace
  EXPECT_FALSE(o.run.stop_on_decision);  // the floor is measured with the full stopping rule
  EXPECT_FALSE(o.expectations.enabled);
  EXPECT_EQ(o.expectations.source_root, "/checkout");
}

// The host with the GPU scripted: what the suite was asked to run, what was stored and profiled.
class FakeHost : public BenchHost {
 public:
  fs::path plugins;
  json info = {{"gpus", json::array({{{"name", "H100"}}})},
               {"hardware", {{"hardware_key", "h100"}, {"gpu_model", "NVIDIA H100"}}},
               {"environment", {{"virtualization", "none"}}}};
  EnvironmentReport env;
  std::vector<TargetResult> results;  // what the "suite" returns
  int suite_exit = 0;
  std::vector<Target> suite_targets, profiled;
  std::string profiled_preset;
  SuiteOptions suite_options_seen;
  std::vector<fs::path> stored;

  fs::path aisp_exe() override { return "/nonexistent/aisp"; }
  fs::path built_plugin_root() override { return plugins; }
  fs::path source_root() override { return ""; }
  json system_info() override { return info; }
  EnvironmentReport environment_gate(const json&, ValidityProfile p) override {
    env.profile = p;
    return env;
  }
  json git_info() override { return {{"commit", "abc123"}, {"branch", "main"}, {"dirty", false}}; }
  json build_info() override { return {{"cuda_architectures", "90"}, {"build_type", "Release"}}; }
  void require_profiler() override {}
  void store_run(const fs::path& run_dir, const std::string&, const fs::path&) override { stored.push_back(run_dir); }
  void profile_run(const std::vector<Target>& t, const fs::path&, const fs::path&, const std::string& preset,
                   const std::string&, const fs::path&) override {
    profiled = t;
    profiled_preset = preset;
  }
  SuiteOutcome run_suite(const std::vector<Target>& t, const fs::path& run_dir, const SuiteOptions& o) override {
    suite_targets = t;
    suite_options_seen = o;
    return {run_dir, results, suite_exit};
  }
};

TEST(BenchRun, TheSelectorsAreResolvedOnceAndThatListIsTimedStoredAndProfiled) {
  TempDir tmp("run");
  FakeHost host;
  host.plugins = plugin_tree(tmp.path / "plugins");
  host.suite_exit = 1;
  BenchRequest r;
  r.targets = {"ch07:copy"};
  r.axes = {"n=1K,2K"};
  r.artifacts_dir = (tmp.path / "artifacts").string();
  r.profile = "minimal";
  r.noise_floor_file = "none";
  BenchOutcome out = run_bench(r, host);
  EXPECT_EQ(out.exit_code, 1);  // the suite's
  EXPECT_EQ(ids(host.suite_targets), (std::vector<std::string>{"ch07:copy[n=1024]", "ch07:copy[n=2048]"}));
  EXPECT_EQ(ids(host.profiled), ids(host.suite_targets));
  ASSERT_EQ(host.stored.size(), 1u);
  EXPECT_EQ(host.stored[0], out.run_dir);
  EXPECT_TRUE(fs::is_directory(out.run_dir));
  EXPECT_NE(out.run_dir.filename().string().find("__bench__targets-ch07_copy"), std::string::npos);
  const json& m = host.suite_options_seen.manifest;
  EXPECT_EQ(m["git"]["commit"], "abc123");
  EXPECT_EQ(m["hardware"]["hardware_key"], "h100");
  EXPECT_EQ(m["environment"]["virtualization"], "none");  // the info's facts, extended by the gate
  EXPECT_TRUE(m["environment"].contains("checks"));
  EXPECT_FALSE(m.contains("noise_floor"));
  EXPECT_EQ(host.suite_options_seen.run.plugin_root, host.plugins);

  r.no_db = true;  // not stored, and with a calibration on disk the manifest names it
  r.profile = "none";
  r.noise_floor_file.clear();
  write_floor(noise_floor_path(r.artifacts_dir, "h100"), "h100", 0.01);
  host.profiled.clear();
  out = run_bench(r, host);
  EXPECT_EQ(host.stored.size(), 1u);
  EXPECT_TRUE(host.profiled.empty());
  EXPECT_EQ(host.suite_options_seen.manifest["noise_floor"]["file"], noise_floor_path(r.artifacts_dir, "h100").string());
  ASSERT_TRUE(host.suite_options_seen.noise_floor);
}

TEST(BenchRun, NoGpuAndAStrictGateRefuseBeforeAnyTargetAndLeaveNoRunDirectory) {
  TempDir tmp("refuse");
  FakeHost host;
  host.plugins = plugin_tree(tmp.path / "plugins");
  BenchRequest r;
  r.targets = {"ch07"};
  r.artifacts_dir = (tmp.path / "artifacts").string();
  auto refusal = [&] {
    try {
      run_bench(r, host);
    } catch (const BenchError& e) {
      return std::make_pair(e.kind, e.exit_code);
    }
    return std::make_pair(std::string("ran"), 0);
  };
  host.info = json::parse("not json", nullptr, false);  // the child `aisp info gpu` failed
  EXPECT_EQ(refusal(), std::make_pair(std::string("NoGPU"), 2));
  host.info = {{"gpus", json::array()}, {"error", "no CUDA device"}};
  EXPECT_EQ(refusal(), std::make_pair(std::string("NoGPU"), 2));

  host.info = FakeHost().info;
  host.env.checks = {{"gpu_processes", CheckStatus::fail, nullptr, "another compute process on the GPU"}};
  r.validity_profile = "strict";
  EXPECT_EQ(refusal(), std::make_pair(std::string("EnvironmentRefused"), 3));
  EXPECT_TRUE(host.suite_targets.empty());
  EXPECT_TRUE(fs::is_empty(tmp.path / "artifacts" / "runs"));
  r.validity_profile = "portable";  // the same failure is recorded as a warning and the run goes on
  BenchOutcome out = run_bench(r, host);
  EXPECT_EQ(ids(host.suite_targets), (std::vector<std::string>{"ch07:copy", "ch07:gather"}));
  EXPECT_EQ(host.suite_options_seen.manifest["warnings"].size(), 1u);
}

TargetResult aa_result(const std::string& id) {
  TargetResult t;
  t.id = id;
  t.baseline.samples_ms = {1, 1, 1};
  VariantResult v;
  v.name = "aa_self_1";
  v.samples_ms = {1, 1, 1};
  v.speedup = 1.0;
  v.ci_low = 0.99;
  v.ci_high = 1.01;
  t.optimizations.push_back(v);
  return t;
}

TEST(BenchRun, CalibrateWritesThisGpusFloorAndExitsZeroAndCanRedoItFromTheRun) {
  TempDir tmp("calibrate");
  FakeHost host;
  host.plugins = plugin_tree(tmp.path / "plugins");
  host.results = {aa_result("ch07:copy")};
  host.suite_exit = 1;  // an A/A verdict is not what a calibration is judged by
  BenchRequest r;
  r.calibrate = true;
  r.replicates = 1;
  r.targets = {"ch07:copy"};
  r.artifacts_dir = (tmp.path / "artifacts").string();
  r.profile = "minimal";  // never for A/A runs
  BenchOutcome out = run_bench(r, host);
  EXPECT_EQ(out.exit_code, 0);
  EXPECT_TRUE(host.profiled.empty());
  EXPECT_FALSE(host.suite_options_seen.expectations.enabled);
  ASSERT_EQ(host.suite_targets.size(), 1u);
  EXPECT_EQ(host.suite_targets[0].optimized[0].name, "aa_self_1");
  ASSERT_TRUE(out.calibration);
  fs::path file = noise_floor_path(r.artifacts_dir, "h100");
  EXPECT_EQ(out.calibration->file, file);
  EXPECT_EQ(out.calibration->measured_now, (std::vector<std::string>{"ch07:copy"}));
  NoiseFloor written = load_noise_floor(file);
  EXPECT_EQ(written.hardware_key, "h100");
  EXPECT_EQ(written.gpu, "NVIDIA H100");
  EXPECT_EQ(written.commit, "abc123");
  EXPECT_NEAR(written.targets.at("ch07:copy").floor, 1.0 / 0.99 - 1.0, 1e-12);

  // --from-run: the same floor from the run directory (the fake suite wrote none, so write its results),
  // merged with the file's other targets.
  write_json_atomic(out.run_dir / "manifest.json",
                    {{"hardware", host.info["hardware"]}, {"start_time", "2026-11-25T08:00:00+0000"}});
  write_json_atomic(out.run_dir / "results" / "benchmark_test_results.json",
                    results_document({aa_result("ch07:gather")}, "2026-11-25T08:00:00+0000"));
  CalibrationUpdate again = calibrate_from_run(out.run_dir, r.artifacts_dir, host);
  EXPECT_EQ(again.measured_now, (std::vector<std::string>{"ch07:gather"}));
  EXPECT_EQ(again.kept, 1u);
  EXPECT_EQ(again.floor.commit, "abc123");  // none recorded: the checkout's
  EXPECT_EQ(again.floor.date, "2026-11-25T08:00:00+0000");
  EXPECT_EQ(load_noise_floor(file).targets.size(), 2u);
  try {
    calibrate_from_run(tmp.path / "plugins", r.artifacts_dir, host);
    FAIL() << "a directory without a run was accepted";
  } catch (const BenchError& e) {
    EXPECT_EQ(e.kind, "NoRun");
  }
}

TEST(BenchRun, AnAaRunWithoutSamplesWritesNothingAndExits1) {
  TempDir tmp("empty");
  FakeHost host;
  host.plugins = plugin_tree(tmp.path / "plugins");
  BenchRequest r;
  r.calibrate = true;
  r.targets = {"ch07:copy"};
  r.artifacts_dir = (tmp.path / "artifacts").string();
  try {
    run_bench(r, host);
    FAIL() << "an empty A/A run wrote a calibration";
  } catch (const BenchError& e) {
    EXPECT_EQ(e.kind, "CalibrationFailed");
    EXPECT_EQ(e.exit_code, 1);
  }
  EXPECT_FALSE(fs::exists(noise_floor_path(r.artifacts_dir, "h100")));
}

// --- bench-run options of issue 28: --target-extra-arg, --ncu-metric-set, --suite-timeout, --cold-start ---

TEST(TargetExtraArgs, ParsesTargetAndPerTargetOptionsAndRefusesTheRest) {
  TargetExtraArgs e = parse_target_extra_arg("ch07:copy=--axis n=1K,2K --iterations 20 --time-limit=3");
  EXPECT_EQ(e.selector, "ch07:copy");
  EXPECT_EQ(e.axes, (std::vector<std::string>{"n=1K,2K"}));  // split at the first '=' only
  EXPECT_EQ(e.iterations, 20);
  EXPECT_EQ(e.time_limit, 3.0);
  EXPECT_FALSE(e.warmup);
  for (const char* bad : {"ch07:copy", "=--iterations 3", "ch07:copy=", "ch07:copy=--mode hot",
                          "ch07:copy=--iterations", "ch07:copy=--iterations 2.5", "ch07:copy=iterations 3"})
    EXPECT_THROW(parse_target_extra_arg(bad), std::invalid_argument) << bad;
}

TEST(TargetExtraArgs, AxesReplaceTheRunsForThatTargetOnlyAndOptionsApplyToIt) {
  BenchRequest r;
  r.axes = {"n=4K"};
  r.target_extra_args = {"ch07:copy=--axis n=1K,2K --iterations 7"};
  std::vector<Target> run = targets_to_run({pair("ch07", "copy"), pair("ch07", "gather")}, r);
  EXPECT_EQ(ids(run), (std::vector<std::string>{"ch07:copy[n=1024]", "ch07:copy[n=2048]", "ch07:gather[n=4096]"}));
  RunOptions base;
  base.iterations = 0;
  auto extras = target_extra_args(r);
  EXPECT_EQ(run_options_for(run[0], base, extras).iterations, 7);  // matched by the id without axis point
  EXPECT_EQ(run_options_for(run[2], base, extras).iterations, 0);
  r.target_extra_args = {"ch07=--max-noise 2"};  // a chapter selector
  EXPECT_DOUBLE_EQ(run_options_for(run[2], base, target_extra_args(r)).policy.max_noise, 0.02);
  r.target_extra_args = {"ch07:cpoy=--iterations 3"};  // a typo applies to nothing: refused, not ignored
  try {
    targets_to_run({pair("ch07", "copy")}, r);
    FAIL() << "an extra arg for no selected target was accepted";
  } catch (const BenchError& e) {
    EXPECT_EQ(e.option, "--target-extra-arg");
    EXPECT_EQ(e.exit_code, 2);
  }
  r.target_extra_args = {"ch07:copy=--axis n=lots"};
  try {
    targets_to_run({pair("ch07", "copy")}, r);
    FAIL() << "a malformed per-target axis was accepted";
  } catch (const BenchError& e) {
    EXPECT_EQ(e.option, "--target-extra-arg");
  }
}

TEST(BenchRun, NcuMetricSetOverridesTheProfilePresetAndIsChecked) {
  BenchRequest r;
  EXPECT_EQ(profile_preset(r), "none");
  r.ncu_metric_set = "roofline";  // given alone it turns the profile step on
  EXPECT_EQ(profile_preset(r), "roofline");
  r.profile = "minimal";
  EXPECT_EQ(profile_preset(r), "roofline");
  r.ncu_metric_set = "auto";
  EXPECT_EQ(profile_preset(r), "minimal");
  r.ncu_metric_set = "full";
  try {
    check_request(r);
    FAIL() << "an unknown metric set was accepted";
  } catch (const BenchError& e) {
    EXPECT_EQ(e.option, "--ncu-metric-set");
  }
  TempDir tmp("metric_set");
  FakeHost host;
  host.plugins = plugin_tree(tmp.path / "plugins");
  BenchRequest run;
  run.targets = {"ch07:copy"};
  run.artifacts_dir = (tmp.path / "artifacts").string();
  run.noise_floor_file = "none";
  run.ncu_metric_set = "deep_dive";
  run.cold_start = true;
  run.suite_timeout_s = 60;
  run.target_extra_args = {"ch07:copy=--warmup 2"};
  run_bench(run, host);
  EXPECT_EQ(host.profiled_preset, "deep_dive");
  const json& m = host.suite_options_seen.manifest;
  EXPECT_EQ(m["profile_preset"], "deep_dive");
  EXPECT_EQ(m["cold_start"], true);
  EXPECT_EQ(m["suite_timeout_s"], 60.0);
  EXPECT_EQ(m["target_extra_args"], json::array({"ch07:copy=--warmup 2"}));
  const SuiteOptions& o = host.suite_options_seen;
  EXPECT_TRUE(o.cold_start);
  EXPECT_TRUE(o.fresh_output_device);  // one device per target, made by the host
  EXPECT_EQ(o.suite_timeout_s, 60.0);
  ASSERT_EQ(o.target_extras.size(), 1u);
  EXPECT_EQ(o.target_extras[0].warmup, 2);
}

TEST(BenchSuite, ColdStartGivesEachTargetAFreshOutputDeviceAndEmptyCompilerCaches) {
  TempDir tmp("cold_start");
  SuiteOptions o;
  int made = 0;
  o.fresh_output_device = [&] {
    ++made;
    return std::shared_ptr<OutputDevice>();
  };
  RunOptions run;
  fs::path caches = tmp.path / "work" / "cold_start" / "ch07_copy";
  fs::create_directories(caches / "triton");
  touch(caches / "triton" / "kernel_from_an_earlier_target.cubin");
  cold_start_target(o, run, caches);
  EXPECT_EQ(made, 1);
  EXPECT_EQ(std::string(std::getenv("TRITON_CACHE_DIR")), (caches / "triton").string());
  EXPECT_EQ(std::string(std::getenv("TORCHINDUCTOR_CACHE_DIR")), (caches / "inductor").string());
  EXPECT_TRUE(fs::is_empty(caches / "triton"));  // nothing an earlier target compiled is found there
  EXPECT_TRUE(fs::is_directory(caches / "inductor"));
}

// The real suite (no fake): a limit already reached before the first target starts no target at all, so
// this runs on a CPU; every target is recorded as skipped with the reason, listed, and the run exits 1.
TEST(BenchSuite, SuiteTimeoutRecordsTheTargetsItDidNotStartAndExits1) {
  TempDir tmp("suite_timeout");
  fs::path run_dir = prepare_run_dir(tmp.path / "artifacts", "timeout");
  SuiteOptions o;
  o.live_progress = false;
  o.expectations.enabled = false;
  o.suite_timeout_s = 1e-9;
  o.cold_start = true;
  int devices_made = 0;
  o.fresh_output_device = [&] {
    ++devices_made;
    return std::shared_ptr<OutputDevice>();
  };
  SuiteOutcome out = run_suite({pair("ch07", "copy"), pair("ch07", "gather")}, run_dir, o);
  EXPECT_EQ(out.exit_code, 1);
  ASSERT_EQ(out.results.size(), 2u);
  for (auto& r : out.results) {
    EXPECT_EQ(r.status, "skipped");
    EXPECT_EQ(r.error.rfind("suite_timeout:", 0), 0u) << r.error;
  }
  EXPECT_EQ(devices_made, 0);  // no target started
  json m = read_json(run_dir / "manifest.json");
  EXPECT_EQ(m["suite_timeout"]["reached"], true);
  EXPECT_EQ(m["suite_timeout"]["not_run"], json::array({"ch07:copy", "ch07:gather"}));
  EXPECT_EQ(m["cold_start"], true);
  json progress = read_json(run_dir / "progress" / "run_progress.json");
  EXPECT_EQ(progress["state"], "finished");
  EXPECT_EQ(progress["not_run"].size(), 2u);
  auto stored = targets_from_document(read_json(run_dir / "results" / "benchmark_test_results.json"));
  ASSERT_EQ(stored.size(), 2u);
  EXPECT_EQ(stored[1].status, "skipped");
}

}  // namespace
}  // namespace aisp
