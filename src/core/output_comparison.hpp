// Full-output comparison between a baseline's and a candidate's output buffers (host bytes), NaN-aware,
// with per-dtype default tolerances. |a - b| <= atol + rtol * |b| passes (b = baseline), NaN matches NaN
// only where both are NaN; +/-Inf must match exactly.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "aisp/dtype.hpp"

namespace aisp {

struct ToleranceValues {
  double rtol = 0, atol = 0;
};
// The seed's defaults: fp32 1e-5/1e-8, fp16/bf16 1e-3/1e-5, fp8 1e-2/1e-3, tf32 as fp16, f64 1e-12/1e-15,
// integers exact.
ToleranceValues default_tolerance(DType t);

struct CompareResult {
  int64_t count = 0;
  int64_t mismatches = 0;
  int64_t first_mismatch = -1;  // element index
  double max_abs_error = 0, max_rel_error = 0;
  double baseline_value_at_first = 0, candidate_value_at_first = 0;
  bool passed() const { return mismatches == 0; }
};

CompareResult compare_buffers(const void* baseline, const void* candidate, int64_t count, DType dtype,
                              ToleranceValues tol);

// Element i of a buffer as double (decodes f16, bf16, fp8 e4m3/e5m2 on the host).
double element_as_double(const void* data, int64_t i, DType dtype);

}  // namespace aisp
