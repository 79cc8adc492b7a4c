#include "core/output_comparison.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/element_rule.hpp"

namespace aisp {

ToleranceValues default_tolerance(DType t) {
  switch (t) {
    case DType::f64: return {1e-12, 1e-15};
    case DType::f32: return {1e-5, 1e-8};
    // tf32 keeps 10 mantissa bits, the same precision as fp16.
    case DType::tf32: case DType::f16: case DType::bf16: return {1e-3, 1e-5};
    case DType::fp8_e4m3: case DType::fp8_e5m2: return {1e-2, 1e-3};
    default: return {0, 0};
  }
}

double element_as_double(const void* data, int64_t i, DType dtype) {
  return element_rule::decode(data, i, dtype);
}

CompareResult compare_buffers(const void* baseline, const void* candidate, int64_t count, DType dtype,
                              ToleranceValues tol) {
  CompareResult r;
  if (count <= 0) return r;
  if (!baseline || !candidate) throw std::invalid_argument("compare_buffers: null buffer");
  r.count = count;
  for (int64_t i = 0; i < count; ++i) {
    element_rule::ElementVerdict e = element_rule::judge_element(baseline, candidate, i, dtype, tol.rtol, tol.atol);
    if (e.has_error) {
      r.max_abs_error = std::max(r.max_abs_error, e.abs_err);
      r.max_rel_error = std::max(r.max_rel_error, e.rel_err);
    }
    if (!e.ok) {
      if (r.mismatches == 0) {
        r.first_mismatch = i;
        r.baseline_value_at_first = element_as_double(baseline, i, dtype);
        r.candidate_value_at_first = element_as_double(candidate, i, dtype);
      }
      ++r.mismatches;
    }
  }
  return r;
}

}  // namespace aisp
