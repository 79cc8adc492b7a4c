// The pair's contract, checked by the supervisor between verification and timing: one tolerance for the
// whole pair, strict enough for the precision the workload declares (K23), and outputs that follow every
// input the baseline's outputs follow (K5).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "aisp/dtype.hpp"

#include "runner/live_variant.hpp"
#include "runner/verify_outputs.hpp"

namespace aisp {

// The pair's tolerance is the baseline's declaration (the shared .cuh); a variant that declares another
// one is INVALID (K23) and never gets to use it.
ToleranceChoice pair_tolerance(const LiveVariant& baseline);
void check_tolerance_declarations(std::vector<LiveVariant>& live);

// Why the pair's tolerance is refused for a workload of `precision` (K23), judged on the baseline's own
// outputs of one checked run; nullopt when it is strict enough. `note` gets a softer remark (a tolerance
// that would pass fp16 rounding of an fp32 workload) for the report.
std::optional<std::string> loose_tolerance_reason(const std::vector<OutputView>& baseline_outputs,
                                                  const OutputReader& reader, const ToleranceChoice& tol,
                                                  DType precision, std::string* note);

// Every variant INVALID (K23) when loose_tolerance_reason refuses the pair's tolerance; the softer note
// goes to every variant's timing note.
void refuse_loose_tolerance(std::vector<LiveVariant>& live, const std::vector<OutputView>& baseline_outputs,
                            const OutputReader& reader, const ToleranceChoice& tol, DType precision);

// K5: each worker reruns run() with one dynamic input at a time refilled; a variant whose outputs ignore
// an input the baseline's outputs follow is INVALID.
void check_input_sensitivity(std::vector<LiveVariant>& live, uint64_t seed, uint64_t alt_seed, double timeout_s);

}  // namespace aisp
