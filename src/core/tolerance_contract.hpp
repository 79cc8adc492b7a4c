// The pair's tolerance as a contract (K23). A tolerance is declared by the pair (the shared .cuh), so the
// baseline and every variant must declare the same one; and a loosened tolerance must still be able to
// tell fp32 work from lower-precision work when the pair says it computes in fp32. The test for that is
// data-driven: round the baseline's own fp32 output to bf16 (or fp16) and compare it with itself under
// the tolerance. If the rounded copy passes, a variant that computed in bf16 would pass too, so the
// tolerance is refused unless the workload declares that precision.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "aisp/workload.hpp"
#include "core/output_comparison.hpp"

namespace aisp {

// "" when equal, else what differs ("rtol 0.1 vs 1e-05; justification ...").
std::string tolerance_difference(const Tolerance& pair, const Tolerance& variant);

// x rounded to nearest-even with `mantissa_bits` bits of precision (incl. the implicit one), the
// exponent range of `to` (bf16: 8 bits as fp32; f16: 11 bits, max 65504, subnormals from 2^-24).
double round_to(double x, DType to);

struct RoundingProbe {
  int64_t elements = 0, changed = 0, failing = 0;  // changed: rounding moved it; failing: outside tolerance
  bool admits() const { return changed > 0 && failing == 0; }
};
// Compares `data` (f32 or f64 elements) with itself rounded to `to` under `tol`.
RoundingProbe probe_rounding(const void* data, int64_t count, DType dtype, ToleranceValues tol, DType to);

// The lowest-precision rounding a tolerance must reject for a workload of `precision`: bf16 for
// f32/f64/tf32 workloads, none (nullopt) for workloads that declare bf16, f16 or fp8 themselves.
std::optional<DType> rounding_to_refuse(DType precision);

}  // namespace aisp
