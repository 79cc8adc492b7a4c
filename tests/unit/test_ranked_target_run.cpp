// The target phases with every variant as N ranks (issue 26, runner/ranked_worker.hpp), against scripted ranks:
// no GPU, no process. Each fake rank answers the protocol like a worker whose outputs depend on its rank (the
// worker fills rank r's inputs from streams of its own), so the supervisor must compare rank r with the
// baseline's rank r. Shown: an honest 2-rank pair is timed at its slowest rank; a variant whose rank 1 skips its
// share (cheat_skip_rank1) or claims another world size is INVALID; a 2-GPU pair run as one rank is skipped with
// the flag to use; the warm-up reaches every rank as a fixed count.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/sample_projection.hpp"
#include "core/schema.hpp"
#include "core/worker_requests.hpp"
#include "runner/rank_plan.hpp"
#include "runner/ranked_worker.hpp"
#include "runner/target_runner.hpp"

namespace aisp {
namespace {

namespace fs = std::filesystem;

struct RankBehaviour {
  double ms = 1.0, rank1_extra_ms = 0;  // rank r's GPU time per sample: ms + r * rank1_extra_ms
  bool skip_rank1 = false;              // rank 1 leaves its outputs unwritten (poison)
  int claim_world = 0;                  // > 0: the world size every rank claims (else its WORLD_SIZE)
  int gpus = 1;                         // Requirements::gpus
};

std::string env_of(const WorkerSpawn& s, const std::string& key) {
  for (auto& [k, v] : s.env)
    if (k == key) return v;
  return "";
}

std::vector<float> rank_answer(uint64_t seed, int rank) {
  std::vector<float> v(4);
  for (int i = 0; i < 4; ++i) v[i] = static_cast<float>(((seed >> (8 * i)) + 37 * rank) & 0xff) / 16.0f + 1.0f;
  return v;
}

std::atomic<int> warmup_counts_seen{0};

class FakeRank final : public VariantWorker {
 public:
  FakeRank(RankBehaviour b, const WorkerSpawn& s)
      : b_(b), rank_(std::atoi(env_of(s, "RANK").c_str())), world_(std::atoi(env_of(s, "WORLD_SIZE").c_str())) {}
  Reply wait_ready(double) override {
    DeviceInfo d;
    d.name = "fake";
    d.cc_major = 9;
    d.global_memory_bytes = int64_t{80} << 30;
    Workload w;
    w.params = {{"n", 16}};
    Requirements req;
    req.gpus = b_.gpus;
    json ready = {{"event", "ready"},       {"device", to_json(d)},
                  {"workload", to_json(w)}, {"tolerance", to_json(Tolerance::by_dtype())},
                  {"goal", "speed"},        {"requirements", to_json(req)},
                  {"min_speedup", 0.0},     {"latency_percentile", 99.0}};
    if (world_ > 0) {
      ready["rank"] = rank_;
      ready["world_size"] = b_.claim_world > 0 ? b_.claim_world : world_;
    }
    return ok(ready);
  }
  Reply request(json req, double) override {
    parse_request(req);
    std::string op = req.at("op");
    if (op == "setup")
      return ok(
          {{"buffers", json::array({{{"name", "in"}, {"kind", "input"}, {"dtype", "f32"}, {"shape", {4}}, {"role", "dynamic"}},
                                    {{"name", "out"}, {"kind", "output"}, {"dtype", "f32"}, {"shape", {4}}}})},
           {"memory", {{"peak_mb", 1.0}}},
           {"findings", json::array()}});
    if (op == "check")
      return ok({{"outputs", dump(req, req.at("seed"))},
                 {"inputs_changed", json::array()},
                 {"findings", json::array()},
                 {"wall_ms", b_.ms},
                 {"memory", {{"peak_mb", 1.0}}}});
    if (op == "sensitivity") return ok({{"changed", {{"in", true}}}});
    if (op == "replay") return ok({{"captured", false}, {"reason", "scripted rank"}});
    if (op == "warmup") {
      // The supervisor's adaptive end (max_time_s) must not reach a rank: each rank would stop on its own.
      if (req.value("max_time_s", 1.0) == 0.0) ++warmup_counts_seen;
      return ok({{"runs", req.value("count", 1)}, {"estimate_ms", ms()}, {"stable", true}, {"elapsed_ms", 3 * ms()}});
    }
    if (op == "time") return time(req);
    if (op == "reference") {
      json p = json::array();
      for (auto& k : req.at("samples")) p.push_back(to_json(projection(sample_seed(req.at("sample_seed"), k))));
      return ok({{"projections", p}});
    }
    if (op == "memory") return ok({{"memory", {{"peak_mb", 1.0}}}});
    return {Reply::Status::error, {}, "unknown op " + op, "exception", 0};
  }
  void shutdown(double) override {}

 private:
  double ms() const { return b_.ms + rank_ * b_.rank1_extra_ms; }
  bool skips() const { return b_.skip_rank1 && rank_ == 1; }
  static Reply ok(json body) {
    body["ok"] = true;
    return {Reply::Status::ok, body, "", "", 0.001};
  }
  SampleProjection projection(uint64_t seed) const {
    OutputProjection o;
    if (skips()) {
      o.nonfinite = 4;  // poison left
      return {o};
    }
    auto v = rank_answer(seed, rank_);
    for (int k = 0; k < kProjections; ++k)
      for (size_t j = 0; j < v.size(); ++j) o.proj[k] += ((j + k) % 2 ? 1.0 : -1.0) * v[j];
    for (float x : v) o.abs_sum += std::abs(x), o.sq_sum += double(x) * x;
    return {o};
  }
  json dump(const json& req, uint64_t seed) const {
    fs::path dir = req.at("dir").get<std::string>();
    fs::create_directories(dir);
    fs::path file = dir / (req.value("tag", "check") + "__out.bin");
    std::vector<float> v = skips() ? std::vector<float>(4, std::nanf("")) : rank_answer(seed, rank_);
    std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(v.data()), 16);
    return json::array(
        {{{"name", "out"}, {"dtype", "f32"}, {"shape", {4}}, {"file", file.string()}, {"unwritten", skips() ? 4 : 0}}});
  }
  Reply time(const json& req) const {
    int samples = req.at("samples");
    int64_t first = req.at("first_sample");
    json s = json::array(), p = json::array();
    for (int i = 0; i < samples; ++i) {
      s.push_back({{"gpu_ms", ms()},
                   {"wall_ms", ms() + 0.05},
                   {"enqueue_ms", 0.01},
                   {"batch", 1},
                   {"drain_us", 2.0},
                   {"sm_mhz", 0.0},
                   {"throttle", 0}});
      p.push_back(to_json(projection(sample_seed(req.at("sample_seed"), first + i))));
    }
    Reply r = ok({{"samples", s},
                  {"projections", p},
                  {"audited", req.value("audit", false)},
                  {"findings", json::array()},
                  {"blocking", true},
                  {"audit", nullptr},
                  {"verified", nullptr},
                  {"host_ms", json::object()},
                  {"telemetry", nullptr}});
    r.wall_s = samples * (ms() + 0.05) / 1000.0;
    return r;
  }
  RankBehaviour b_;
  int rank_, world_;
};

TargetResult run_ranked(RankBehaviour baseline, RankBehaviour variant, int nproc) {
  static int counter = 0;
  Target t;
  t.id = "fake:ranked";
  t.chapter = "fake";
  t.example = "ranked";
  t.baseline.file = "baseline.so";
  t.optimized.push_back({"variant", "optimized.so"});
  RunOptions o;
  o.run_dir =
      fs::temp_directory_path() / ("aisp_ranked_run_test_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
  o.reproducible = true;
  o.seed = 7;
  o.iterations = 40;
  if (nproc > 1) {
    RankLaunchOptions lo;
    lo.nproc_per_node = nproc;
    std::vector<std::string> devices;
    for (int i = 0; i < nproc; ++i) devices.push_back(std::to_string(i));
    o.rank_plan = std::make_shared<RankPlan>(make_rank_plan(lo, devices));
  }
  o.worker_factory = [&](const WorkerSpawn& s) -> std::unique_ptr<VariantWorker> {
    return std::make_unique<FakeRank>(s.plugin.find("baseline") != std::string::npos ? baseline : variant, s);
  };
  TargetResult r = run_target(t, o);
  fs::remove_all(o.run_dir);
  return r;
}

std::string failed_detail(const VariantResult& v, const std::string& id) {
  for (auto& c : v.checks)
    if (c.id == id && !c.passed) return c.detail;
  return "";
}

TEST(RankedTargetRun, HonestTwoRankPairIsTimedAtItsSlowestRank) {
  warmup_counts_seen = 0;
  // Baseline ranks take 4 and 5 ms, the variant's 1 and 2 ms: the step times are 5 and 2 ms.
  TargetResult r = run_ranked({.ms = 4.0, .rank1_extra_ms = 1.0}, {.ms = 1.0, .rank1_extra_ms = 1.0}, 2);
  const VariantResult& v = r.optimizations[0];
  EXPECT_EQ(r.status, "succeeded") << r.error << " / " << v.error;
  EXPECT_EQ(v.verdict, "FASTER");
  EXPECT_NEAR(r.baseline.timing.median, 5.0, 1e-9);
  EXPECT_NEAR(v.timing.median, 2.0, 1e-9);
  EXPECT_NEAR(v.speedup, 2.5, 1e-9);
  for (auto& c : v.checks) EXPECT_TRUE(c.passed) << c.id << ": " << c.detail;
  EXPECT_EQ(warmup_counts_seen.load(), 4) << "each rank of both variants gets a fixed warm-up count";
  // Every timed sample of both ranks verified (rank 1's outputs as out@rank1).
  EXPECT_EQ(v.timed_verified, static_cast<int64_t>(v.samples_ms.size() + v.audit_samples_ms.size()));
}

TEST(RankedTargetRun, CheatSkipRank1IsInvalidAndNamesRank1) {
  TargetResult r = run_ranked({.ms = 2.0}, {.ms = 1.0, .skip_rank1 = true}, 2);
  const VariantResult& v = r.optimizations[0];
  EXPECT_EQ(v.verdict, "INVALID");
  std::string k1 = failed_detail(v, "K1");
  EXPECT_NE(k1, "") << "rank 1's poison survived";
  EXPECT_NE(v.error.find("never written"), std::string::npos) << v.error;
  std::string k2 = failed_detail(v, "K2");
  EXPECT_NE(k2.find("rank 1: 4 elements never written"), std::string::npos) << k2;
  EXPECT_EQ(k2.find("rank 0"), std::string::npos) << "rank 0 did its share: " << k2;
}

TEST(RankedTargetRun, TheSameCheatAsOneRankIsHonestWork) {
  TargetResult r = run_ranked({.ms = 2.0}, {.ms = 1.0, .skip_rank1 = true}, 1);
  EXPECT_EQ(r.optimizations[0].verdict, "FASTER") << r.optimizations[0].error;
}

TEST(RankedTargetRun, ARankClaimingAnotherWorldSizeIsInvalid) {
  TargetResult r = run_ranked({.ms = 2.0}, {.ms = 1.0, .claim_world = 3}, 2);
  const VariantResult& v = r.optimizations[0];
  EXPECT_EQ(v.verdict, "INVALID");
  EXPECT_NE(failed_detail(v, "K14").find("claims a world of 3"), std::string::npos) << failed_detail(v, "K14");
}

TEST(RankedTargetRun, ATwoGpuPairAsOneRankIsSkippedNamingTheFlag) {
  TargetResult r = run_ranked({.ms = 2.0, .gpus = 2}, {.ms = 1.0, .gpus = 2}, 1);
  EXPECT_EQ(r.status, "skipped");
  EXPECT_NE(r.error.find("--nproc-per-node 2"), std::string::npos) << r.error;
}

TEST(RankedWorker, MergedRepliesRenameOtherRanksOutputsAndTakeTheSlowestSample) {
  auto reply = [](json body) { return Reply{Reply::Status::ok, std::move(body), "", "", 0}; };
  std::vector<Reply> checks = {reply({{"ok", true}, {"outputs", json::array({{{"name", "y"}}})}, {"findings", json::array()}}),
                               reply({{"ok", true},
                                      {"outputs", json::array({{{"name", "y"}}})},
                                      {"findings", json::array({{{"check", "K22"}, {"detail", "guard"}}})}})};
  json c = merge_rank_replies("check", checks);
  EXPECT_EQ(c["outputs"][1]["name"], "y@rank1");
  EXPECT_EQ(c["findings"][0]["detail"], "rank 1: guard");
  std::vector<Reply> times = {reply({{"ok", true}, {"samples", json::array({{{"gpu_ms", 1.0}}, {{"gpu_ms", 3.0}}})}}),
                              reply({{"ok", true}, {"samples", json::array({{{"gpu_ms", 2.0}}, {{"gpu_ms", 1.0}}})}})};
  json t = merge_rank_replies("time", times);
  EXPECT_EQ(t["samples"][0]["gpu_ms"], 2.0);
  EXPECT_EQ(t["samples"][1]["gpu_ms"], 3.0);
  json w = rank_request({{"op", "warmup"}, {"count", 2}, {"max_time_s", 0.2}});
  EXPECT_EQ(w["max_time_s"], 0.0);
  EXPECT_EQ(w["count"], 5);
}

}  // namespace
}  // namespace aisp
