// Each rank of a variant compared with the baseline's same rank (issue 26): the per-rank half of the verify
// phase, feeding runner/rank_judging.hpp. The ranks' outputs live on other GPUs than the supervisor's own
// mapping, so they come from the files each rank dumped into its own directory (runner/rank_group.hpp's
// request_for_rank), read and compared by the same code as a one-rank variant's (runner/verify_outputs.hpp).
#pragma once
#include <optional>
#include <vector>

#include "core/result.hpp"
#include "runner/output_access.hpp"
#include "runner/variant_worker.hpp"
#include "runner/verify_outputs.hpp"

namespace aisp {

// For every rank of the variant: its check reply's outputs against the baseline rank's, or nullopt when there
// is nothing to compare (either reply failed, or the baseline has no such rank): the judging then names that
// rank as never compared. A rank whose outputs do not correspond (one missing, another dtype or shape) gets a
// failed Verification whose `output` says why.
std::vector<std::optional<Verification>> compare_rank_outputs(const std::vector<Reply>& baseline_checks,
                                                              const std::vector<Reply>& variant_checks,
                                                              const ToleranceChoice& tol, const OutputReader& reader);

}  // namespace aisp
