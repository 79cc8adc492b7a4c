// Per-rank judging (runner/rank_judging.hpp, issue 26) with scripted ranks: the target's time is the slowest
// rank's per step, and a rank that skips its share makes the variant INVALID with that rank named. The
// scripted `cheat_skip_rank1` ranks are what tests/validity/multi_rank/optimized_cheat_skip_rank1.cu produces
// on two GPUs: rank 0 does its share, rank 1 returns at once (its outputs keep the harness's poison, and its
// timed samples are near zero).
#include <gtest/gtest.h>

#include "runner/rank_judging.hpp"

namespace aisp {
namespace {

Verification matching() {
  Verification v;
  v.passed = true;
  v.compared = 1 << 20;
  return v;
}

// Rank r's result: every sample `ms`, outputs equal to the baseline's same rank.
RankResult honest_rank(int r, int world, std::vector<double> ms) {
  RankResult x;
  x.rank = r;
  x.world_size = world;
  x.samples_ms = std::move(ms);
  x.outputs_compared = true;
  x.verification = matching();
  return x;
}

// cheat_skip_rank1 as the supervisor collects it: rank 1 never writes its shard, so the poison survives in
// every element of it, and its samples time an empty run().
std::vector<RankResult> cheat_skip_rank1() {
  RankResult skipped = honest_rank(1, 2, {0.004, 0.004, 0.004});
  skipped.verification.passed = false;
  skipped.verification.unwritten = 1 << 19;
  skipped.verification.mismatches = 1 << 19;
  skipped.verification.output = "out";
  return {honest_rank(0, 2, {1.0, 1.0, 1.0}), skipped};
}

TEST(RankJudging, TheTargetTimeIsTheSlowestRankPerStepNotTheAverage) {
  std::vector<RankResult> ranks = {honest_rank(0, 2, {1.0, 3.0, 1.0}), honest_rank(1, 2, {2.0, 1.0, 2.0, 9.0})};
  RankJudgement j = judge_variant_ranks(ranks, 2, "optimized");
  ASSERT_TRUE(j.valid) << j.reason();
  EXPECT_EQ(j.samples_ms, (std::vector<double>{2.0, 3.0, 2.0}));  // step 3: rank 0 never timed it
  EXPECT_EQ(j.slowest_rank, 1);                                   // median 2.0 vs 1.0
}

TEST(RankJudging, CheatSkipRank1IsInvalidAndNamesRank1) {
  RankJudgement j = judge_variant_ranks(cheat_skip_rank1(), 2, "cheat_skip_rank1");
  EXPECT_FALSE(j.valid);
  ASSERT_EQ(j.findings.size(), 1u) << j.reason();
  EXPECT_EQ(j.findings[0].check, "K2");
  EXPECT_EQ(j.findings[0].rank, 1);
  EXPECT_NE(j.reason().find("rank 1's outputs differ from the baseline's rank 1"), std::string::npos) << j.reason();
  EXPECT_NE(j.reason().find("never written"), std::string::npos) << j.reason();
  EXPECT_TRUE(j.samples_ms.empty());  // an invalid variant gets no time
}

TEST(RankJudging, TheSameRanksWithRank1DoingItsShareAreValid) {
  std::vector<RankResult> ranks = cheat_skip_rank1();
  ranks[1] = honest_rank(1, 2, {1.1, 1.0, 1.2});
  RankJudgement j = judge_variant_ranks(ranks, 2, "honest");
  ASSERT_TRUE(j.valid) << j.reason();
  EXPECT_EQ(j.samples_ms, (std::vector<double>{1.1, 1.0, 1.2}));
}

TEST(RankJudging, ARankWithNoSamplesOrNeverComparedIsNamed) {
  std::vector<RankResult> ranks = {honest_rank(0, 2, {1.0}), honest_rank(1, 2, {})};
  ranks[1].outputs_compared = false;
  RankJudgement j = judge_variant_ranks(ranks, 2, "v");
  EXPECT_FALSE(j.valid);
  EXPECT_NE(j.reason().find("rank 1 reported no timed samples"), std::string::npos) << j.reason();
  EXPECT_NE(j.reason().find("rank 1's outputs were never compared"), std::string::npos) << j.reason();
  for (auto& f : j.findings) EXPECT_EQ(f.rank, 1);
}

TEST(RankJudging, WrongTopologyClaimsAreFindings) {
  // Rank 1 missing; rank 2 outside a world of 2; rank 0 claims a world of 1 (ran as if alone).
  std::vector<RankResult> ranks = {honest_rank(0, 1, {1.0}), honest_rank(2, 2, {1.0})};
  RankJudgement j = judge_variant_ranks(ranks, 2, "v");
  EXPECT_FALSE(j.valid);
  EXPECT_NE(j.reason().find("rank 1 of 2 reported nothing"), std::string::npos) << j.reason();
  EXPECT_NE(j.reason().find("rank 2 is outside the plan's world of 2"), std::string::npos) << j.reason();
  EXPECT_NE(j.reason().find("rank 0 claims a world of 1, the plan launched 2"), std::string::npos) << j.reason();
  std::vector<RankResult> twice = {honest_rank(0, 2, {1.0}), honest_rank(0, 2, {1.0})};
  EXPECT_NE(judge_variant_ranks(twice, 2, "v").reason().find("rank 0 reported 2 times"), std::string::npos);
}

TEST(RankJudging, ABaselineMissingARankInvalidatesTheTarget) {
  RankJudgement j = judge_baseline_ranks({honest_rank(0, 2, {1.0})}, 2);
  EXPECT_FALSE(j.valid);
  EXPECT_NE(j.reason().find("baseline: rank 1 of 2 reported nothing"), std::string::npos) << j.reason();
  EXPECT_TRUE(judge_baseline_ranks({honest_rank(0, 2, {1.0}), honest_rank(1, 2, {2.0})}, 2).valid);
}

}  // namespace
}  // namespace aisp
