// Device-side operations the harness applies to benchmark buffers: fill from a seed, poison, count
// poison left behind, and fingerprint. All run on a given stream and never read values back to the host
// except the small results (counts, hashes).
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "aisp/buffer.hpp"

namespace aisp {

// Fills `buf` as a pure function of (seed, element index): identical on every device and process.
void fill_buffer(const Buffer& buf, const Fill& fill, uint64_t seed, cudaStream_t stream);
// Writes the dtype's poison pattern (a NaN payload for floats, 0xA5 bytes for integers) everywhere.
void poison_buffer(const Buffer& buf, cudaStream_t stream);
// Elements still bit-equal to the poison pattern (synchronizes `stream`).
int64_t count_poison(const Buffer& buf, cudaStream_t stream);
// Order-independent, position-dependent 64-bit fingerprint of the bytes (synchronizes `stream`).
uint64_t fingerprint(const void* data, size_t bytes, cudaStream_t stream);
// The same fingerprint accumulated into a device slot, without synchronizing (the caller reads it later).
void fingerprint_async(const void* data, size_t bytes, unsigned long long* d_slot, cudaStream_t stream);

}  // namespace aisp
