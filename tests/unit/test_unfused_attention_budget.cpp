// The unfused attention's limits (chapters/ch10/unfused_attention_budget.hpp): a sequence length whose rows
// the softmax cannot hold, or whose seq^2 score and probability matrices do not fit in free memory, must be
// refused in setup() with its numbers - never run on part of a row, as the register-only softmax once did
// past 8192 keys. The pairs call these with the device's numbers (ch10 flash_attention baselines, ch20
// transformer_block baseline); here they are proved without a GPU.
#include <gtest/gtest.h>

#include <string>

#include "../../chapters/ch10/unfused_attention_budget.hpp"

namespace {

constexpr int64_t kRegisterRowMax = 8192;
constexpr int64_t kHopperSmem = 232448;  // 227 KiB opt-in per block on sm_90
constexpr double kGiB = 1073741824.0;

TEST(UnfusedAttentionBudget, RowsUpToTheRegisterPathOrSharedMemoryAreHeld) {
  EXPECT_EQ(unfused_budget::row_problem(4096, kRegisterRowMax, kHopperSmem), "");
  EXPECT_EQ(unfused_budget::row_problem(8192, kRegisterRowMax, kHopperSmem), "");
  EXPECT_EQ(unfused_budget::row_problem(12288, kRegisterRowMax, kHopperSmem), "");
  EXPECT_EQ(unfused_budget::row_problem(kHopperSmem / 4, kRegisterRowMax, kHopperSmem), "");  // 58112 keys
}

TEST(UnfusedAttentionBudget, ARowPastSharedMemoryIsRefusedWithItsNumbers) {
  const std::string why = unfused_budget::row_problem(65536, kRegisterRowMax, kHopperSmem);
  ASSERT_NE(why, "");
  EXPECT_NE(why.find("65536 keys"), std::string::npos) << why;
  EXPECT_NE(why.find("232448 B"), std::string::npos) << why;
  EXPECT_NE(why.find("58112 keys"), std::string::npos) << why;
  EXPECT_NE(why.find("--axis seq"), std::string::npos) << why;
  EXPECT_EQ(why.find("out of memory"), std::string::npos) << why;  // not filed as a failed allocation
  // A device with less shared memory refuses a length Hopper holds.
  EXPECT_NE(unfused_budget::row_problem(16384, kRegisterRowMax, 48 * 1024), "");
  EXPECT_EQ(unfused_budget::row_problem(8192, kRegisterRowMax, 48 * 1024), "");  // registers, not smem
}

TEST(UnfusedAttentionBudget, RowsMustBeWholeFloat4s) {
  EXPECT_NE(unfused_budget::row_problem(4098, kRegisterRowMax, kHopperSmem).find("multiple of 4"), std::string::npos);
  EXPECT_NE(unfused_budget::row_problem(0, kRegisterRowMax, kHopperSmem), "");
}

TEST(UnfusedAttentionBudget, ScoresAndProbabilitiesAreSixBytesPerEntry) {
  EXPECT_DOUBLE_EQ(unfused_budget::score_and_prob_bytes(16, 16384), 16.0 * 16384 * 16384 * 6);  // 24 GiB
  EXPECT_DOUBLE_EQ(unfused_budget::score_and_prob_bytes(16, 16384) / kGiB, 24.0);
}

TEST(UnfusedAttentionBudget, MemoryShortfallNamesEveryNumber) {
  // 16 heads x 16384: 24 GiB of S and P; with 1 GiB of other buffers it fits in 30 GiB free, not in 20.
  EXPECT_EQ(unfused_budget::memory_shortfall(16, 16384, 1 * kGiB, 30 * kGiB, 80 * kGiB), "");
  const std::string why = unfused_budget::memory_shortfall(16, 16384, 1 * kGiB, 20 * kGiB, 80 * kGiB);
  ASSERT_NE(why, "");
  for (const char* part :
       {"24.0 GiB", "16 heads x 16384^2", "1.0 GiB of other", "25.0 GiB", "20.0 GiB free", "80.0 GiB", "--axis seq"})
    EXPECT_NE(why.find(part), std::string::npos) << part << " missing in: " << why;
  EXPECT_EQ(why.find("out of memory"), std::string::npos) << why;
  // Exactly at the free memory still fits (the comparison is <=).
  const double exact = unfused_budget::score_and_prob_bytes(4, 1024) + 123;
  EXPECT_EQ(unfused_budget::memory_shortfall(4, 1024, 123, exact, exact), "");
  EXPECT_NE(unfused_budget::memory_shortfall(4, 1024, 124, exact, exact), "");
}

}  // namespace
