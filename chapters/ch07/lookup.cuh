// lookup: out[i] = table[idx[i]], a data-dependent gather from a 64 KiB table (a codebook, a quantization
// LUT, a scalar embedding). Shared by baseline_lookup.cu and optimized_lookup.cu, which run the same
// streaming loop and differ only in where the table is read from: global memory (L1 / read-only path) or
// a copy staged in shared memory.
#pragma once
#include <cstdint>
#include <stdexcept>

#include "aisp/aisp.hpp"

// 2^24 indices (64 MiB of int32) gathered into 2^24 floats (64 MiB): 128 MiB streamed per run, 2.7x
// H100's 50 MB L2, so the index/output stream runs at HBM speed (~45 us at ~2.9 TB/s) and the question is
// whether the gather keeps up with it.
inline constexpr int64_t kLookupN = int64_t{1} << 24;
// 16384 floats = 64 KiB: fits in L1 for the baseline and in shared memory (two blocks per SM, 128 KiB of
// the 228 KiB) for the optimized variant, so neither variant ever misses to DRAM on the table.
inline constexpr int64_t kLookupTableSize = 16384;
// Both variants: one wave of 1024-thread blocks, 2 per SM (full 2048-thread occupancy), each thread
// handling 4 consecutive indices per iteration (one 16 B index load, one 16 B output store).
inline constexpr int kLookupThreads = 1024;
inline constexpr int kLookupBlocksPerSm = 2;

inline aisp::Workload lookup_workload() {
  aisp::Workload w;
  w.params = {{"n", kLookupN}, {"table_size", kLookupTableSize}};
  w.precision = aisp::DType::f32;
  // idx read once, out written once, table read once (it is reused from on-chip memory after that).
  w.bytes = static_cast<double>(kLookupN) * (sizeof(int32_t) + sizeof(float)) +
            static_cast<double>(kLookupTableSize) * sizeof(float);
  w.items = static_cast<double>(kLookupN);
  w.item_unit = "lookups";
  return w;
}

inline void declare_lookup_buffers(aisp::Context& ctx) {
  const int64_t n = ctx.param("n"), t = ctx.param("table_size");
  // The table is a weight (static); the indices are activations (dynamic): uniform over the whole table,
  // the worst realistic case for locality (every warp gather touches ~30 of the table's 512 lines).
  ctx.input("table", aisp::DType::f32, {t}, aisp::Fill::uniform(-1, 1), aisp::Role::static_);
  ctx.input("idx", aisp::DType::i32, {n}, aisp::Fill::int_range(0, t - 1));
  ctx.output("out", aisp::DType::f32, {n});
}

inline unsigned lookup_grid(const aisp::Context& ctx) {
  const int sms = ctx.device().sm_count > 0 ? ctx.device().sm_count : 132;
  return static_cast<unsigned>(sms * kLookupBlocksPerSm);
}

// The streaming loop both variants share: `Table` is a raw global pointer (baseline) or a shared-memory
// array (optimized); the index loads and output stores are identical 16 B accesses.
template <class Table>
__device__ __forceinline__ void lookup_stream(const Table& table, const int32_t* __restrict__ idx,
                                              float* __restrict__ out, int64_t n) {
  const int4* idx4 = reinterpret_cast<const int4*>(idx);
  float4* out4 = reinterpret_cast<float4*>(out);
  const int64_t n4 = n / 4;  // run() checks n % 4 == 0
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t v = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < n4; v += stride) {
    const int4 q = idx4[v];
    out4[v] = make_float4(table[q.x], table[q.y], table[q.z], table[q.w]);
  }
}

inline void check_lookup_shape(int64_t n, const void* idx, const void* out) {
  if (n % 4 != 0 || reinterpret_cast<uintptr_t>(idx) % 16 != 0 || reinterpret_cast<uintptr_t>(out) % 16 != 0)
    throw std::runtime_error("lookup: the 16-byte loop needs n % 4 == 0 and 16-byte aligned buffers");
}
