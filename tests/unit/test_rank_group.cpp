// The ranks of one variant (runner/rank_group.hpp, issue 26) with scripted ranks whose `time` request is a
// collective: it returns only once every rank has entered it (else it times out, as a real all-reduce hangs).
// Requests to the group reach every rank at once and finish; the same requests sent one rank after another
// time out on rank 0, which is why the group exists. Then rank 1 of cheat_skip_rank1 as the group's replies
// would carry it, through rank_result into the judging.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>

#include "runner/rank_group.hpp"

namespace aisp {
namespace {

// A barrier every rank's collective waits at, with a timeout.
struct Collective {
  explicit Collective(int n) : expected(n) {}
  bool arrive_and_wait(double timeout_s) {
    std::unique_lock<std::mutex> lock(m);
    const int my_round = round;
    if (++arrived == expected) {
      arrived = 0;
      ++round;
      cv.notify_all();
      return true;
    }
    return cv.wait_for(lock, std::chrono::duration<double>(timeout_s), [&] { return round != my_round; });
  }
  std::mutex m;
  std::condition_variable cv;
  int expected, arrived = 0, round = 0;
};

class CollectiveRank final : public VariantWorker {
 public:
  CollectiveRank(Collective& c, int rank, double ms, bool skip) : c_(c), rank_(rank), ms_(ms), skip_(skip) {}
  Reply wait_ready(double) override { return {Reply::Status::ok, {{"event", "ready"}}, "", "", 0}; }
  Reply request(json req, double timeout_s) override {
    last_dir = req.value("dir", "");
    // The cheating rank skips its share, collective included; the honest ranks wait for everyone.
    if (!skip_ && !c_.arrive_and_wait(timeout_s))
      return {
          Reply::Status::timeout, {}, "request 'time' did not answer: the collective never completed", "timeout", timeout_s};
    json s = json::array();
    for (int i = 0; i < 3; ++i)
      s.push_back({{"gpu_ms", skip_ ? 0.004 : ms_ + 0.1 * rank_},
                   {"wall_ms", 1.0},
                   {"enqueue_ms", 0.01},
                   {"batch", 1},
                   {"drain_us", 2.0},
                   {"sm_mhz", 0.0},
                   {"throttle", 0}});
    return {Reply::Status::ok,
            {{"ok", true},
             {"samples", s},
             {"projections", nullptr},
             {"audited", false},
             {"findings", json::array()},
             {"blocking", true},
             {"audit", nullptr},
             {"verified", nullptr},
             {"host_ms", json::object()},
             {"telemetry", nullptr}},
            "",
            "",
            0.01};
  }
  void shutdown(double) override {}
  std::string last_dir;

 private:
  Collective& c_;
  int rank_;
  double ms_;
  bool skip_;
};

json time_request() { return {{"op", "time"}, {"samples", 3}, {"dir", "/run/work/ch04__x"}}; }

std::vector<std::unique_ptr<VariantWorker>> ranks(Collective& c, int n, int skipping = -1) {
  std::vector<std::unique_ptr<VariantWorker>> out;
  for (int r = 0; r < n; ++r) out.push_back(std::make_unique<CollectiveRank>(c, r, 1.0, r == skipping));
  return out;
}

TEST(RankGroup, ACollectiveCompletesWhenEveryRankGetsTheRequestAtOnce) {
  Collective c(4);
  RankGroup g(ranks(c, 4));
  for (auto& r : g.wait_ready(1)) EXPECT_TRUE(r.ok());
  std::vector<Reply> replies = g.request(time_request(), 5);
  ASSERT_EQ(replies.size(), 4u);
  EXPECT_FALSE(first_rank_failure(replies)) << *first_rank_failure(replies);
  EXPECT_DOUBLE_EQ(parse_time_reply(replies[3].body).samples[0].gpu_ms, 1.3);
}

TEST(RankGroup, OneRankAfterAnotherDeadlocksInTheCollective) {
  Collective c(2);
  auto workers = ranks(c, 2);
  Reply first = workers[0]->request(time_request(), 0.2);  // rank 1 has not been asked yet
  EXPECT_EQ(first.status, Reply::Status::timeout);
  EXPECT_EQ(first_rank_failure({first}).value().rfind("rank 0: ", 0), 0u);
}

TEST(RankGroup, EachRankDumpsIntoItsOwnDirectory) {
  EXPECT_EQ(request_for_rank(time_request(), 1)["dir"], "/run/work/ch04__x/rank1");
  EXPECT_FALSE(request_for_rank({{"op", "memory"}}, 1).contains("dir"));
  Collective c(2);
  std::vector<std::unique_ptr<VariantWorker>> w = ranks(c, 2);
  auto* rank1 = static_cast<CollectiveRank*>(w[1].get());
  RankGroup g(std::move(w));
  g.request(time_request(), 5);
  EXPECT_EQ(rank1->last_dir, "/run/work/ch04__x/rank1");
}

TEST(RankGroup, StartsOneWorkerPerRankOfThePlanWithItsSpawn) {
  RankPlan plan = make_rank_plan(
      [] {
        RankLaunchOptions o;
        o.nproc_per_node = 2;
        return o;
      }(),
      {"0", "1"});
  std::vector<WorkerSpawn> seen;
  Collective c(2);
  WorkerSpawn base;
  base.log_file = "v.log";
  RankGroup g = start_rank_group(plan, base, [&](const WorkerSpawn& s) -> std::unique_ptr<VariantWorker> {
    seen.push_back(s);
    return std::make_unique<CollectiveRank>(c, static_cast<int>(seen.size()) - 1, 1.0, false);
  });
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(seen[1].visible_device, "1");
  EXPECT_EQ(seen[1].log_file, "v.rank1.log");
}

// cheat_skip_rank1 through the group: rank 1 answers at once with empty-run times and never writes its
// outputs (its comparison with the baseline's rank 1 fails); the judging names rank 1.
TEST(RankGroup, CheatSkipRank1FromTheGroupsRepliesIsInvalid) {
  Collective c(1);  // only rank 0 takes part in the collective: rank 1 skipped it
  RankGroup g(ranks(c, 2, /*skipping=*/1));
  std::vector<Reply> replies = g.request(time_request(), 5);
  ASSERT_FALSE(first_rank_failure(replies));
  Verification same, poisoned;
  same.passed = true;
  poisoned.unwritten = 1 << 20;
  std::vector<RankResult> results = {rank_result(0, 2, {parse_time_reply(replies[0].body)}, same),
                                     rank_result(1, 2, {parse_time_reply(replies[1].body)}, poisoned)};
  EXPECT_EQ(results[1].samples_ms, (std::vector<double>{0.004, 0.004, 0.004}));
  RankJudgement j = judge_variant_ranks(results, 2, "cheat_skip_rank1");
  EXPECT_FALSE(j.valid);
  ASSERT_EQ(j.findings.size(), 1u);
  EXPECT_EQ(j.findings[0].rank, 1);
  EXPECT_NE(j.reason().find("rank 1's outputs differ from the baseline's rank 1"), std::string::npos) << j.reason();
  // Without a comparison for rank 1 (a skipped rank that also skipped its dump) it is named too.
  results[1] = rank_result(1, 2, {parse_time_reply(replies[1].body)}, std::nullopt);
  EXPECT_NE(judge_variant_ranks(results, 2, "v").reason().find("rank 1's outputs were never compared"), std::string::npos);
}

}  // namespace
}  // namespace aisp
