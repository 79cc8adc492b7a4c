// Per-rank output comparison (runner/rank_verify.hpp, issue 26) on dumped files, as the ranks of a group write
// them (one directory per rank), then the judging: cheat_skip_rank1's rank 1 never writes its outputs, so the
// real comparison code finds them differing from the baseline's rank 1 and the variant is INVALID, rank 1
// named. A missing output, a failed reply and a baseline without that rank are told apart.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <limits>

#include "runner/rank_judging.hpp"
#include "runner/rank_verify.hpp"

namespace aisp {
namespace {

namespace fs = std::filesystem;

class RankVerify : public ::testing::Test {
 protected:
  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }
  // A check reply of one rank whose output "out" (4 floats) was dumped to <dir>/<variant>/rank<r>/out.bin.
  Reply check_reply(const std::string& variant, int rank, std::vector<float> values, int64_t unwritten = 0) {
    fs::path d = dir / variant / ("rank" + std::to_string(rank));
    fs::create_directories(d);
    std::ofstream(d / "out.bin", std::ios::binary).write(reinterpret_cast<const char*>(values.data()), 16);
    json outputs = json::array(
        {{{"name", "out"}, {"dtype", "f32"}, {"shape", {4}}, {"file", (d / "out.bin").string()}, {"unwritten", unwritten}}});
    return {Reply::Status::ok,
            {{"ok", true},
             {"outputs", outputs},
             {"inputs_changed", json::array()},
             {"findings", json::array()},
             {"wall_ms", 1.0},
             {"memory", {{"peak_mb", 1.0}}}},
            "",
            "",
            0.001};
  }
  RankResult ranked(int r, const std::optional<Verification>& v) {
    RankResult x;
    x.rank = r;
    x.world_size = 2;
    x.samples_ms = {1.0, 1.0};
    x.outputs_compared = v.has_value();
    if (v) x.verification = *v;
    return x;
  }
  fs::path dir = fs::temp_directory_path() / ("aisp_rank_verify_" + std::to_string(getpid()));
  OutputReader reader{nullptr};
};

TEST_F(RankVerify, CheatSkipRank1FailsOnRank1AndOnlyThere) {
  std::vector<Reply> base = {check_reply("baseline", 0, {1, 2, 3, 4}), check_reply("baseline", 1, {5, 6, 7, 8})};
  // Rank 1 skipped its share: the poison is still there, and the worker counted every element unwritten.
  float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<Reply> cheat = {check_reply("cheat", 0, {1, 2, 3, 4}), check_reply("cheat", 1, {nan, nan, nan, nan}, 4)};
  auto v = compare_rank_outputs(base, cheat, {}, reader);
  ASSERT_EQ(v.size(), 2u);
  ASSERT_TRUE(v[0] && v[1]);
  EXPECT_TRUE(v[0]->passed);
  EXPECT_FALSE(v[1]->passed);
  RankJudgement j = judge_variant_ranks({ranked(0, v[0]), ranked(1, v[1])}, 2, "cheat_skip_rank1");
  EXPECT_FALSE(j.valid);
  ASSERT_EQ(j.findings.size(), 1u) << j.reason();
  EXPECT_EQ(j.findings[0].rank, 1);
  EXPECT_NE(j.reason().find("rank 1's outputs differ from the baseline's rank 1"), std::string::npos) << j.reason();
}

// A failed comparison names its first mismatch with both values (the message a failed verification or
// fresh-input audit prints), read from the outputs themselves.
TEST_F(RankVerify, AMismatchCarriesTheTwoValuesAtItsFirstElement) {
  std::vector<Reply> base = {check_reply("baseline", 0, {1, 2, 3, 4}), check_reply("baseline", 1, {5, 6, 7, 8})};
  std::vector<Reply> off = {check_reply("off", 0, {1, 2, 9, 4.5f}), check_reply("off", 1, {5, 6, 7, 8})};
  auto v = compare_rank_outputs(base, off, {}, reader);
  ASSERT_TRUE(v[0] && v[1]);
  EXPECT_FALSE(v[0]->passed);
  EXPECT_EQ(v[0]->mismatches, 2);
  EXPECT_EQ(v[0]->first_mismatch, 2);
  EXPECT_EQ(v[0]->output, "out");
  EXPECT_DOUBLE_EQ(v[0]->first_baseline, 3.0);
  EXPECT_DOUBLE_EQ(v[0]->first_variant, 9.0);
  EXPECT_TRUE(v[1]->passed);
}

TEST_F(RankVerify, HonestRanksPassAndARankComparedWithAnotherRanksOutputWouldNot) {
  std::vector<Reply> base = {check_reply("baseline", 0, {1, 2, 3, 4}), check_reply("baseline", 1, {5, 6, 7, 8})};
  std::vector<Reply> honest = {check_reply("honest", 0, {1, 2, 3, 4}), check_reply("honest", 1, {5, 6, 7, 8})};
  auto v = compare_rank_outputs(base, honest, {}, reader);
  EXPECT_TRUE(v[0]->passed && v[1]->passed);
  EXPECT_TRUE(judge_variant_ranks({ranked(0, v[0]), ranked(1, v[1])}, 2, "honest").valid);
  // Rank 1 returning rank 0's answer (a copy instead of its own share) differs from the baseline's rank 1.
  std::vector<Reply> copied = {check_reply("copied", 0, {1, 2, 3, 4}), check_reply("copied", 1, {1, 2, 3, 4})};
  EXPECT_FALSE(compare_rank_outputs(base, copied, {}, reader)[1]->passed);
}

TEST_F(RankVerify, FailedRepliesMissingRanksAndMissingOutputsAreToldApart) {
  std::vector<Reply> base = {check_reply("baseline", 0, {1, 2, 3, 4})};
  Reply crashed{Reply::Status::crashed, {}, "worker died", "crashed", 0};
  Reply no_output = check_reply("v", 0, {1, 2, 3, 4});
  no_output.body["outputs"][0]["name"] = "other";
  auto v = compare_rank_outputs(base, {no_output, check_reply("v", 1, {5, 6, 7, 8})}, {}, reader);
  ASSERT_TRUE(v[0]);
  EXPECT_FALSE(v[0]->passed);
  EXPECT_NE(v[0]->output.find("'out' is missing"), std::string::npos) << v[0]->output;
  EXPECT_FALSE(v[1]);  // the baseline has no rank 1
  EXPECT_FALSE(compare_rank_outputs(base, {crashed}, {}, reader)[0]);
  RankJudgement j = judge_variant_ranks({ranked(0, v[0]), ranked(1, v[1])}, 2, "v");
  EXPECT_NE(j.reason().find("the comparison failed: output 'out' is missing"), std::string::npos) << j.reason();
  EXPECT_NE(j.reason().find("rank 1's outputs were never compared"), std::string::npos) << j.reason();
}

}  // namespace
}  // namespace aisp
