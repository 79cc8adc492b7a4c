// Compares a candidate's checked-run outputs with the baseline's for the same seed, element by element (on
// the device when the supervisor maps both, else from the dumped files), and accumulates the outcome.
#pragma once
#include <vector>

#include "core/protocol.hpp"
#include "core/result.hpp"
#include "runner/output_access.hpp"

namespace aisp {

struct ToleranceChoice {
  double rtol = -1, atol = -1;  // < 0: dtype default
  std::string justification;
};

// Accumulates into `v` (several rounds with different seeds add up); throws when the outputs do not
// correspond (a missing output, another dtype or shape).
void compare_check_outputs(const std::vector<OutputView>& baseline, const std::vector<OutputView>& candidate,
                           const ToleranceChoice& tol, const OutputReader& reader, Verification& v);

}  // namespace aisp
