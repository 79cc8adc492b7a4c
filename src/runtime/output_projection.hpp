// The device half of K21 (core/sample_projection.hpp says why): reduce an output buffer to kProjections
// random +-1 projections, sum |x|, sum x^2 and the count of non-finite elements, on the stream, into seven
// doubles the caller owns (zeroed here first). One pass over the output, memory-bound, outside the window.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "aisp/buffer.hpp"
#include "core/sample_projection.hpp"

namespace aisp {

inline constexpr int kProjectionSlots = kProjections + 3;

// `key`: the supervisor's projection key; `slots`: kProjectionSlots device doubles.
void project_output_async(const Buffer& out, uint64_t key, double* slots, cudaStream_t s);

// Host side: slots copied back -> one OutputProjection.
OutputProjection projection_from_slots(const double* host_slots);

}  // namespace aisp
