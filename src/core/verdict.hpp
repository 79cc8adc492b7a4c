// Verdicts (DESIGN §8) and the seed-compatible status words, decided from a speedup interval and checks.
#pragma once
#include <string>
#include <vector>

#include "core/stats.hpp"

namespace aisp {

inline constexpr double kDefaultMinSpeedup = 1.05;

enum class Verdict { faster, slower, same, inconclusive, invalid };
const char* verdict_name(Verdict v);

// One equivalence band, symmetric on the log scale: band = max(min_speedup, 1 + noise_floor).
// FASTER: CI low > band. SLOWER: CI high < 1 / band. SAME: CI inside [1/band, band] (any true effect is
// smaller than the band). INCONCLUSIVE: otherwise (the CI straddles a band edge, so more samples could
// still decide it). `noise_floor` is the A/A floor of `aisp bench calibrate` (0.002 = 0.2%), used only
// for calibrations without a measured between-process spread; with one, the CI itself is widened by the
// spread (widen_for_process_spread) and the floor is 0. A slowdown thus needs the same evidence as a win:
// two processes running the same code differ by a fixed ~0.1% (docs/harness.md), which must never read as
// SLOWER while the same shift upwards reads as SAME (issue 18, hole 6).
Verdict decide_verdict(const Interval& speedup, double min_speedup, bool any_check_failed, double noise_floor = 0);

// Status words the seed uses, ordered from best to worst; a target's status is its worst variant's
// unless a variant succeeded and nothing is worse than failed_no_speedup.
namespace status {
inline constexpr const char* succeeded = "succeeded";
inline constexpr const char* skipped = "skipped";
inline constexpr const char* failed_no_speedup = "failed_no_speedup";
inline constexpr const char* failed_regression = "failed_regression";
inline constexpr const char* failed_error = "failed_error";
inline constexpr const char* failed_verification = "failed_verification";
inline constexpr const char* invalid = "invalid";
int severity(const std::string& s);  // higher = worse
}  // namespace status

std::string target_status(const std::vector<std::string>& variant_statuses);
// 0 all good, 1 failed (error/verification/regression/no speedup), 3 invalid (2 is reserved for usage errors).
int exit_code_for(const std::vector<std::string>& target_statuses);

}  // namespace aisp
