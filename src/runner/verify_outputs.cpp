#include "runner/verify_outputs.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace aisp {

void compare_check_outputs(const std::vector<OutputView>& baseline, const std::vector<OutputView>& candidate,
                           const ToleranceChoice& tol, const OutputReader& reader, Verification& v) {
  if (!tol.justification.empty()) v.tolerance_justification = tol.justification;
  for (const OutputView& bo : baseline) {
    const OutputView* co = nullptr;
    for (auto& c : candidate)
      if (c.name == bo.name) co = &c;
    if (!co) throw std::runtime_error(fmt::format("output '{}' is missing in the variant", bo.name));
    if (co->dtype != bo.dtype || co->shape != bo.shape)
      throw std::runtime_error(fmt::format("output '{}' differs in dtype/shape: {} {} vs {} {}", bo.name,
                                           dtype_name(bo.dtype), bo.shape.dump(), dtype_name(co->dtype),
                                           co->shape.dump()));
    ToleranceValues t = default_tolerance(bo.dtype);
    if (tol.rtol >= 0) t.rtol = tol.rtol;
    if (tol.atol >= 0) t.atol = tol.atol;
    v.rtol = t.rtol;
    v.atol = t.atol;
    CompareResult r = reader.compare(bo, *co, t);
    v.compared += r.count;
    v.unwritten += reader.unwritten(*co);
    if (r.mismatches && !v.mismatches) {
      v.first_mismatch = r.first_mismatch;
      v.output = bo.name;
      v.first_baseline = reader.element(bo, r.first_mismatch);
      v.first_variant = reader.element(*co, r.first_mismatch);
    }
    v.mismatches += r.mismatches;
    v.max_abs_error = std::max(v.max_abs_error, r.max_abs_error);
    v.max_rel_error = std::max(v.max_rel_error, r.max_rel_error);
  }
  v.passed = v.mismatches == 0 && v.unwritten == 0;
}

}  // namespace aisp
