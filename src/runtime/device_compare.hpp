// K2's element-wise comparison and K1's poison count on the device, for the supervisor's mapped views of
// the workers' outputs (runtime/ipc_output_device.*). Same rule as the host (core/element_rule.hpp).
#pragma once
#include <cuda_runtime.h>

#include "core/output_comparison.hpp"

namespace aisp {

// Synchronizes `stream`; reads back only the summary (counts, maxima, the first mismatch's two values).
CompareResult compare_on_device(const void* baseline, const void* candidate, int64_t count, DType dtype,
                                ToleranceValues tol, cudaStream_t stream);

}  // namespace aisp
