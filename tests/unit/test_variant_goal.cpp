// The verdict clauses of a timing note (runner/variant_goal.hpp): what apply_goal and note_power_capped
// write is what without_verdict_clauses removes, and nothing else.
#include <gtest/gtest.h>

#include "runner/variant_goal.hpp"

namespace aisp {
namespace {

TEST(VariantGoal, VerdictClausesAreRemovedOthersKept) {
  VariantResult v;
  v.timing_note = "decision band widened to 1.060x by the A/A noise floor";
  v.power_capped = 3;
  v.samples_ms = {1, 2, 3, 4};
  note_power_capped(v);
  v.informational = "host-bound";
  v.verdict = "SAME";
  apply_goal(v, Verdict::same, {1.0, 0.98, 1.02}, 1.05, false);
  EXPECT_EQ(v.status, "");  // informational: the status is left alone
  EXPECT_NE(v.timing_note.find("3 of 4 kept samples at the software power cap"), std::string::npos) << v.timing_note;
  EXPECT_NE(v.timing_note.find("informational (host-bound): SAME at 1.000x"), std::string::npos) << v.timing_note;
  EXPECT_EQ(without_verdict_clauses(v.timing_note), "decision band widened to 1.060x by the A/A noise floor");
  EXPECT_EQ(without_verdict_clauses(""), "");
}

TEST(VariantGoal, AVariantThatDoesNotWinFailsWithItsInterval) {
  VariantResult v;
  v.verdict = "INCONCLUSIVE";
  apply_goal(v, Verdict::inconclusive, {1.03, 0.99, 1.07}, 1.05, false);
  EXPECT_EQ(v.status, "failed_no_speedup");
  EXPECT_EQ(v.error, "speedup 1.030x, 95% CI [0.990, 1.070]: INCONCLUSIVE (needs CI above 1.05x)");
}

}  // namespace
}  // namespace aisp
