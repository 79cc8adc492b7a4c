// Compares a candidate's checked-run outputs with the baseline's (files written by the workers for the
// same seed), element by element, and turns the outcome into checks.
#pragma once
#include "core/protocol.hpp"
#include "core/result.hpp"

namespace aisp {

struct ToleranceChoice {
  double rtol = -1, atol = -1;  // < 0: dtype default
  std::string justification;
};

// `baseline_reply` / `candidate_reply`: the workers' answers to the same `check` request.
// Accumulates into `v` (several rounds with different seeds add up).
void compare_check_outputs(const json& baseline_reply, const json& candidate_reply, const ToleranceChoice& tol,
                           Verification& v);

}  // namespace aisp
