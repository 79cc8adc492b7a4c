// The per-target runner's phases against a scripted worker (runner/variant_worker.hpp): no GPU, no
// process. Each fake answers the protocol the way a worker does, from a small behaviour description
// (its times, whether its outputs follow the seed, what it declares), so the supervisor's decisions are
// tested end to end: verdicts, the pair's tolerance (K23), inputs that must matter (K5), every timed
// sample verified (K21), and a baseline that cannot load.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>

#include "core/sample_projection.hpp"
#include "core/schema.hpp"
#include "core/worker_requests.hpp"
#include "runner/target_runner.hpp"

namespace aisp {
namespace {

namespace fs = std::filesystem;

struct Behaviour {
  double ms = 1.0;                          // every timed sample's GPU time
  Tolerance tolerance = Tolerance::by_dtype();
  int64_t n = 16;                           // workload param "n"
  bool reads_input = true;                  // the sensitivity round sees its outputs follow "in"
  int64_t wrong_samples_from = -1;          // timed samples from this index on have other outputs
  bool fail_load = false;
  std::string goal = "speed";
  double latency_ms = -1;  // the run's request-latency percentile each timed sample reports (< 0: none)
  // How much that percentile moves with the request trace: latency_ms * (1 + trace_spread * u), u in [0, 1)
  // fixed by the trace's static seed (a p99 over a few dozen requests depends on the draw).
  double trace_spread = 0;
  int bad_trace = -1;      // on this trace (0-based run of the target) the timed outputs are wrong from sample 30
  double items = 0;        // workload items per run (throughput goal)
  uint64_t throttle = 0;   // NVML clocks-event reasons every timed sample reports
  double sm_mhz = 0;       // the SM clock every timed sample reports (0: unknown); the fake GPU's max is 1980
};

// The output for a seed: four floats every variant of an honest pair agrees on.
std::vector<float> answer(uint64_t seed) {
  std::vector<float> v(4);
  for (int i = 0; i < 4; ++i) v[i] = static_cast<float>((seed >> (8 * i)) & 0xff) / 16.0f + 1.0f;
  return v;
}

SampleProjection projection(uint64_t seed, bool wrong) {
  OutputProjection o;
  auto v = answer(seed);
  for (int k = 0; k < kProjections; ++k)
    for (size_t j = 0; j < v.size(); ++j) o.proj[k] += ((j + k) % 2 ? 1.0 : -1.0) * v[j] * (wrong ? 2.0 : 1.0);
  for (float x : v) {
    o.abs_sum += std::abs(x);
    o.sq_sum += double(x) * x;
  }
  return {o};
}

class FakeWorker final : public VariantWorker {
 public:
  explicit FakeWorker(Behaviour b) : b_(b) {}
  Reply wait_ready(double) override {
    if (b_.fail_load) return {Reply::Status::error, {{"ok", false}}, "plugin failed to load", "load", 0};
    DeviceInfo d;
    d.name = "fake";
    d.cc_major = 9;
    d.global_memory_bytes = int64_t{80} << 30;
    d.sm_clock_max_mhz = 1980;
    Workload w;
    w.params = {{"n", b_.n}};
    w.items = b_.items;
    w.item_unit = "tokens";
    return ok({{"event", "ready"}, {"device", to_json(d)}, {"workload", to_json(w)}, {"tolerance", to_json(b_.tolerance)},
               {"goal", b_.goal}, {"requirements", to_json(Requirements{})}, {"min_speedup", 0.0},
               {"latency_percentile", 99.0}});
  }
  Reply request(json req, double) override {
    parse_request(req);  // every request the supervisor sends is a valid typed one (throws otherwise)
    std::string op = req.at("op");
    if (op == "setup") {
      static_seed_ = req.at("static_seed").get<uint64_t>();  // the request trace's seed
      return ok({{"buffers", json::array({{{"name", "in"}, {"kind", "input"}, {"dtype", "f32"}, {"shape", {4}}, {"role", "dynamic"}},
                                          {{"name", "out"}, {"kind", "output"}, {"dtype", "f32"}, {"shape", {4}}}})},
                 {"memory", {{"peak_mb", 1.0}}}, {"findings", json::array()}});
    }
    if (op == "check")
      return ok({{"outputs", dump(req, req.at("seed"))}, {"inputs_changed", json::array()}, {"findings", json::array()},
                 {"wall_ms", b_.ms}, {"memory", {{"peak_mb", 1.0}}}});
    if (op == "sensitivity") return ok({{"changed", {{"in", b_.reads_input}}}});
    if (op == "replay") return ok({{"captured", false}, {"reason", "scripted worker"}});
    if (op == "warmup") return ok({{"runs", 3}, {"estimate_ms", b_.ms}, {"stable", true}, {"elapsed_ms", 3 * b_.ms}});
    if (op == "time") return time(req);
    if (op == "reference") {
      json p = json::array();
      for (auto& k : req.at("samples")) p.push_back(to_json(projection(sample_seed(req.at("sample_seed"), k), false)));
      return ok({{"projections", p}});
    }
    if (op == "memory") return ok({{"memory", {{"peak_mb", 1.0}}}});
    return {Reply::Status::error, {}, "unknown op " + op, "exception", 0};
  }
  void shutdown(double) override {}

 private:
  static Reply ok(json body) {
    body["ok"] = true;
    return {Reply::Status::ok, body, "", "", 0.001};
  }
  json dump(const json& req, uint64_t seed) {
    fs::create_directories(req.at("dir").get<std::string>());
    fs::path file = fs::path(req.at("dir").get<std::string>()) / (req.value("tag", "check") + "__out.bin");
    auto v = answer(seed);
    std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(v.data()), 16);
    return json::array({{{"name", "out"}, {"dtype", "f32"}, {"shape", {4}}, {"file", file.string()}, {"unwritten", 0}}});
  }
  Reply time(const json& req) {
    int samples = req.at("samples");
    int64_t first = req.at("first_sample");
    json s = json::array(), p = json::array();
    for (int i = 0; i < samples; ++i) {
      s.push_back({{"gpu_ms", b_.ms},
                   {"wall_ms", b_.ms + 0.05},
                   {"enqueue_ms", 0.01},
                   {"batch", 1},
                   {"drain_us", 2.0},
                   {"sm_mhz", b_.sm_mhz},
                   {"throttle", b_.throttle}});
      if (b_.latency_ms >= 0) s.back()["latency_ms"] = trace_latency_ms() + 0.001 * (i % 3);  // a little spread
      bool wrong = b_.wrong_samples_from >= 0 && first + i >= b_.wrong_samples_from;
      p.push_back(to_json(projection(sample_seed(req.at("sample_seed"), first + i), wrong)));
    }
    // Audited as asked (a worker without CUPTI would have said so in its setup reply).
    Reply r = ok({{"samples", s}, {"projections", p}, {"audited", req.value("audit", false)}, {"findings", json::array()},
                  {"blocking", true}, {"audit", nullptr}, {"verified", nullptr}, {"host_ms", json::object()},
                  {"telemetry", nullptr}});
    r.wall_s = samples * (b_.ms + 0.05) / 1000.0;  // the supervisor's clock sees at least the claimed GPU time (K7)
    return r;
  }
  double trace_latency_ms() const { return b_.latency_ms * (1 + b_.trace_spread * double(static_seed_ % 1000) / 1000); }
  Behaviour b_;
  uint64_t static_seed_ = 0;
};

TargetResult run_pair(Behaviour baseline, Behaviour variant, double time_limit_s = 0, int trace_replicates = 5) {
  static int counter = 0;
  Target t;
  t.id = "fake:pair";
  t.chapter = "fake";
  t.example = "pair";
  t.baseline.file = "baseline.so";
  t.optimized.push_back({"variant", "optimized.so"});
  RunOptions o;
  o.run_dir = fs::temp_directory_path() / ("aisp_target_run_test_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
  o.reproducible = true;
  o.seed = 7;
  o.iterations = 40;
  if (time_limit_s > 0) o.policy.time_limit_s = time_limit_s;
  o.trace_replicates = trace_replicates;
  int variant_runs = 0;  // the variant's workers started so far: one per run of the target (per trace)
  o.worker_factory = [&](const WorkerSpawn& s) -> std::unique_ptr<VariantWorker> {
    if (s.plugin.find("baseline") != std::string::npos) return std::make_unique<FakeWorker>(baseline);
    Behaviour b = variant;
    if (b.bad_trace == variant_runs++) b.wrong_samples_from = 30;
    return std::make_unique<FakeWorker>(b);
  };
  TargetResult r = run_target(t, o);
  fs::remove_all(o.run_dir);
  return r;
}

bool failed_check(const VariantResult& v, const std::string& id) {
  for (auto& c : v.checks)
    if (c.id == id && !c.passed) return true;
  return false;
}

TEST(TargetRun, HonestPairTwiceAsFastIsFasterWithEveryPhaseTimed) {
  TargetResult r = run_pair({.ms = 2.0}, {.ms = 1.0});
  ASSERT_EQ(r.optimizations.size(), 1u);
  const VariantResult& v = r.optimizations[0];
  EXPECT_EQ(r.status, "succeeded") << r.error << " / " << v.error;
  EXPECT_EQ(v.verdict, "FASTER");
  EXPECT_NEAR(v.speedup, 2.0, 1e-9);
  EXPECT_EQ(v.samples_ms.size(), 40u);
  // Kept and audited samples alike: every timed sample compared with the baseline's for the same seed.
  EXPECT_EQ(v.timed_verified, static_cast<int64_t>(v.samples_ms.size() + v.audit_samples_ms.size()));
  for (const char* phase : {"load", "setup", "verify", "warmup", "timing", "wrap_up"})
    EXPECT_TRUE(r.phase_seconds.contains(phase)) << phase;
  for (auto& c : v.checks) EXPECT_TRUE(c.passed) << c.id << ": " << c.detail;
}

TEST(TargetRun, VariantDeclaringItsOwnToleranceIsInvalid) {
  TargetResult r = run_pair({.ms = 2.0}, {.ms = 1.0, .tolerance = Tolerance::loosened(0.1, 1.0, "accumulation order")});
  const VariantResult& v = r.optimizations[0];
  EXPECT_EQ(v.status, "invalid");
  EXPECT_EQ(v.verdict, "INVALID");
  EXPECT_TRUE(failed_check(v, "K23"));
  EXPECT_FALSE(failed_check(v, "K2")) << "a variant stopped before verification reports no comparison";
}

TEST(TargetRun, OutputsThatIgnoreAnInputAreInvalid) {
  TargetResult r = run_pair({.ms = 2.0}, {.ms = 1.0, .reads_input = false});
  EXPECT_TRUE(failed_check(r.optimizations[0], "K5"));
  EXPECT_EQ(r.optimizations[0].verdict, "INVALID");
}

TEST(TargetRun, TimedSamplesThatDifferFromTheBaselinesAreInvalid) {
  TargetResult r = run_pair({.ms = 2.0}, {.ms = 1.0, .wrong_samples_from = 30});
  const VariantResult& v = r.optimizations[0];
  EXPECT_TRUE(failed_check(v, "K21"));
  EXPECT_EQ(v.verdict, "INVALID");
  EXPECT_EQ(v.status, "invalid");
}

TEST(TargetRun, AWorkloadOtherThanTheBaselinesIsRefused) {
  TargetResult r = run_pair({.ms = 2.0}, {.ms = 1.0, .n = 32});
  EXPECT_EQ(r.optimizations[0].status, "failed_error");
  EXPECT_EQ(r.optimizations[0].error_kind, "workload");
}

// Issue 24: a latency goal is judged on the runs' request-latency percentile, not on time per run.
TEST(TargetRun, LatencyGoalIsJudgedOnRequestLatencyNotRunTime) {
  TargetResult r = run_pair({.ms = 1.0, .goal = "latency", .latency_ms = 10.0},
                            {.ms = 1.0, .goal = "latency", .latency_ms = 5.0});
  const VariantResult& v = r.optimizations[0];
  EXPECT_EQ(v.verdict, "FASTER") << v.error;
  EXPECT_NEAR(v.speedup, 2.0, 0.01);  // baseline p99 / variant p99, although both take 1 ms per run
  ASSERT_TRUE(v.goal_metric.has_value());
  EXPECT_EQ(v.goal_metric->name, "p99 request latency");
  EXPECT_EQ(v.goal_metric->unit, "ms");
  EXPECT_TRUE(v.goal_metric->lower_is_better);
  EXPECT_NEAR(v.goal_metric->value, 5.0, 0.01);
  EXPECT_LE(v.goal_metric->ci_low, v.goal_metric->value);
  EXPECT_GE(v.goal_metric->ci_high, v.goal_metric->value);
  ASSERT_TRUE(r.baseline.goal_metric.has_value());
  EXPECT_NEAR(r.baseline.goal_metric->value, 10.0, 0.01);
}

// A p99 over one trace moves with the trace drawn, so a latency verdict pools several traces (each a full
// run on its own static seed) and its interval comes from their spread (runner/trace_replicates.hpp).
TEST(TargetRun, LatencyGoalIsPooledOverSeveralRequestTraces) {
  TargetResult r = run_pair({.ms = 1.0, .goal = "latency", .latency_ms = 10.0, .trace_spread = 2.0},
                            {.ms = 1.0, .goal = "latency", .latency_ms = 5.0});
  const VariantResult& v = r.optimizations[0];
  ASSERT_EQ(v.trace_replicates.size(), 5u);
  ASSERT_EQ(r.baseline.trace_replicates.size(), 5u);
  EXPECT_EQ(v.samples_ms.size(), 5u * 40);  // --iterations 40 on each trace, every sample kept
  EXPECT_EQ(r.seeds.size(), 5 * run_pair({.ms = 2.0}, {.ms = 1.0}).seeds.size());  // every run's seeds, in order
  double log_sum = 0, lowest = 1e9, highest = 0, widest_own = 0;
  for (size_t j = 0; j < 5; ++j) {
    const TraceReplicate& t = v.trace_replicates[j];
    EXPECT_EQ(t.static_seed, r.baseline.trace_replicates[j].static_seed);  // both variants, the same trace
    for (size_t k = 0; k < j; ++k) EXPECT_NE(t.static_seed, v.trace_replicates[k].static_seed);
    log_sum += std::log(t.speedup);
    lowest = std::min(lowest, t.speedup), highest = std::max(highest, t.speedup);
    widest_own = std::max(widest_own, t.ci_high / t.ci_low);
  }
  ASSERT_GT(highest / lowest, 1.2) << "the fake's traces should move the baseline's p99";
  EXPECT_NEAR(v.speedup, std::exp(log_sum / 5), 1e-9);  // the geometric mean of the traces' speedups
  // One trace's interval is tight (its timing noise only) and misses the other traces; the pooled one
  // is as wide as their spread.
  EXPECT_LT(widest_own, highest / lowest);
  EXPECT_GT(v.ci_high / v.ci_low, highest / lowest);
  EXPECT_NE(v.timing_note.find("pooled over 5 request traces"), std::string::npos) << v.timing_note;
  ASSERT_TRUE(v.goal_metric.has_value());
  EXPECT_NEAR(v.goal_metric->value, 5.0, 0.01);
}

TEST(TargetRun, OneRequestTraceWhenAskedForOne) {
  TargetResult r =
      run_pair({.ms = 1.0, .goal = "latency", .latency_ms = 10.0}, {.ms = 1.0, .goal = "latency", .latency_ms = 5.0}, 0, 1);
  EXPECT_TRUE(r.optimizations[0].trace_replicates.empty());
  EXPECT_EQ(r.optimizations[0].samples_ms.size(), 40u);
  EXPECT_EQ(r.seeds.size(), run_pair({.ms = 2.0}, {.ms = 1.0}).seeds.size());
}

TEST(TargetRun, AVariantWrongOnOneRequestTraceIsInvalidAndNamesIt) {
  TargetResult r = run_pair({.ms = 1.0, .goal = "latency", .latency_ms = 10.0},
                            {.ms = 1.0, .goal = "latency", .latency_ms = 5.0, .bad_trace = 3});
  const VariantResult& v = r.optimizations[0];
  EXPECT_EQ(v.status, "invalid");
  EXPECT_EQ(v.verdict, "INVALID");
  EXPECT_TRUE(failed_check(v, "K21"));
  EXPECT_NE(v.timing_note.find("request trace 4 of 5"), std::string::npos) << v.timing_note;
  EXPECT_EQ(r.status, "invalid");
}

TEST(TargetRun, SpeedGoalsRunOnce) {
  TargetResult r = run_pair({.ms = 2.0}, {.ms = 1.0});
  EXPECT_TRUE(r.optimizations[0].trace_replicates.empty());
  EXPECT_EQ(r.optimizations[0].samples_ms.size(), 40u);
}

TEST(TargetRun, LatencyGoalWithoutRequestLatenciesFailsWithAReason) {
  TargetResult r = run_pair({.ms = 2.0, .goal = "latency"}, {.ms = 1.0, .goal = "latency"});
  const VariantResult& v = r.optimizations[0];
  EXPECT_EQ(v.status, "failed_error");
  EXPECT_NE(v.error.find("request trace"), std::string::npos) << v.error;
}

TEST(TargetRun, ThroughputGoalIsReportedInTheWorkloadsUnit) {
  TargetResult r = run_pair({.ms = 2.0, .goal = "throughput", .items = 1000}, {.ms = 1.0, .goal = "throughput", .items = 1000});
  const VariantResult& v = r.optimizations[0];
  EXPECT_EQ(v.verdict, "FASTER");
  ASSERT_TRUE(v.goal_metric.has_value());
  EXPECT_EQ(v.goal_metric->unit, "tokens/s");
  EXPECT_NEAR(v.goal_metric->value, 1e6, 1);  // 1000 tokens per 1 ms run
  EXPECT_NEAR(r.baseline.goal_metric->value, 5e5, 1);
  EXPECT_FALSE(v.goal_metric->lower_is_better);
}

TEST(TargetRun, BaselineThatCannotLoadSkipsTheVariants) {
  TargetResult r = run_pair({.fail_load = true}, {.ms = 1.0});
  EXPECT_NE(r.error.find("baseline"), std::string::npos) << r.error;
  EXPECT_EQ(r.optimizations[0].status, "skipped");
}

// A sample whose only clocks-event reason is the software power cap, at >= 75% of the max clock, is the
// kernel's steady state on a power-limited GPU: kept, counted and named (runner/sample_clock_rule.hpp).
TEST(TargetRun, PowerCappedSamplesAtAHighClockAreKeptAndNamed) {
  TargetResult r = run_pair({.ms = 2.0, .throttle = 0x4, .sm_mhz = 1700}, {.ms = 1.0, .sm_mhz = 1980});
  const VariantResult& v = r.optimizations[0];
  EXPECT_EQ(v.verdict, "FASTER") << v.error;
  EXPECT_EQ(r.baseline.discarded, 0);
  EXPECT_EQ(r.baseline.power_capped, static_cast<int64_t>(r.baseline.samples_ms.size()));
  EXPECT_GT(r.baseline.power_capped, 0);
  EXPECT_NE(r.baseline.timing_note.find("software power cap"), std::string::npos) << r.baseline.timing_note;
  EXPECT_EQ(v.power_capped, 0);
  EXPECT_EQ(v.timing_note.find("power cap"), std::string::npos) << v.timing_note;
}

// A clock pulled below 75% of max (whatever the reason) or a thermal slowdown is a disturbance: every such
// sample is discarded, and a variant left with none fails with the reason.
TEST(TargetRun, DeepPowerCapOrThermalSamplesAreDiscarded) {
  for (Behaviour bad :
       {Behaviour{.ms = 1.0, .throttle = 0x4, .sm_mhz = 1200}, Behaviour{.ms = 1.0, .throttle = 0x40, .sm_mhz = 1900},
        Behaviour{.ms = 1.0, .throttle = 0x4}}) {  // power cap with the clock unknown
    TargetResult r = run_pair({.ms = 2.0}, bad, 0.2);
    const VariantResult& v = r.optimizations[0];
    EXPECT_TRUE(v.samples_ms.empty());
    EXPECT_GT(v.discarded, 0);
    EXPECT_EQ(v.power_capped, 0);
    EXPECT_EQ(v.status, "failed_error");
    EXPECT_NE(v.error.find("no samples kept"), std::string::npos) << v.error;
  }
}

}  // namespace
}  // namespace aisp
