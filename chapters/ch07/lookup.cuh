// lookup: a hash-embedding lookup. Each token id is hashed by 8 multiplicative hashes into a shared
// 16384-entry table and its output is the sum of the 8 entries: out[i] = sum_h table[hash_h(id[i])]
// (the "hashing trick" / hash embeddings of fastText-style n-gram and recommender features, with scalar
// entries). Eight data-dependent 4-byte gathers per 8 streamed bytes make the gather, not DRAM, the
// question. Shared by baseline_lookup.cu (table read through the generic global-memory path) and
// optimized_lookup.cu (table staged in shared memory). Both run the same streaming loop, hash and
// summation order, so their outputs are identical bit for bit.
#pragma once
#include <cstdint>
#include <stdexcept>

#include "aisp/aisp.hpp"

// 2^24 ids (64 MiB of int32) -> 2^24 floats (64 MiB): 128 MiB streamed per run (2.7x H100's 50 MB L2,
// ~45 us at HBM speed) and 2^27 table gathers.
inline constexpr int64_t kLookupN = int64_t{1} << 24;
// 2^14 floats = 64 KiB: fits in L1 (baseline) and in shared memory (two blocks per SM use 128 of 228 KiB),
// so no variant ever misses to DRAM on the table; the difference is only how a scattered gather is served.
inline constexpr int kLookupTableBits = 14;
inline constexpr int64_t kLookupTableSize = int64_t{1} << kLookupTableBits;
inline constexpr int kLookupHashes = 8;
// One wave of 1024-thread blocks, 2 per SM (full 2048-thread occupancy); each thread handles 4
// consecutive ids per iteration (one 16 B id load, 32 gathers, one 16 B output store).
inline constexpr int kLookupThreads = 1024;
inline constexpr int kLookupBlocksPerSm = 2;

inline aisp::Workload lookup_workload() {
  aisp::Workload w;
  w.params = {{"n", kLookupN}, {"table_size", kLookupTableSize}, {"hashes", kLookupHashes}};
  w.precision = aisp::DType::f32;
  // ids read once, out written once, table read once (reused from on-chip memory after that).
  w.bytes = static_cast<double>(kLookupN) * (sizeof(int32_t) + sizeof(float)) +
            static_cast<double>(kLookupTableSize) * sizeof(float);
  w.flops = static_cast<double>(kLookupN) * (kLookupHashes - 1);  // the adds
  w.items = static_cast<double>(kLookupN) * kLookupHashes;
  w.item_unit = "gathers";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class LookupBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return lookup_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n"), t = ctx.param("table_size");
    // The table is a weight (static); the ids are activations (dynamic), drawn from a 16 M-id vocabulary.
    ctx.input("table", aisp::DType::f32, {t}, aisp::Fill::uniform(-1, 1), aisp::Role::static_);
    ctx.input("ids", aisp::DType::i32, {n}, aisp::Fill::int_range(0, (int64_t{1} << 24) - 1));
    ctx.output("out", aisp::DType::f32, {n});
  }
};

inline unsigned lookup_grid(const aisp::Context& ctx) {
  const int sms = ctx.device().sm_count > 0 ? ctx.device().sm_count : 132;
  return static_cast<unsigned>(sms * kLookupBlocksPerSm);
}

inline void check_lookup_shape(const aisp::Context& ctx, const void* ids, const void* out) {
  if (ctx.param("n") % 4 != 0 || ctx.param("table_size") != kLookupTableSize ||
      reinterpret_cast<uintptr_t>(ids) % 16 != 0 || reinterpret_cast<uintptr_t>(out) % 16 != 0)
    throw std::runtime_error("lookup: needs n % 4 == 0, the declared table size and 16-byte aligned buffers");
}

// Multiplicative (Knuth) hashing: the top 14 bits of id x an odd 32-bit constant, one constant per hash.
__device__ __forceinline__ uint32_t lookup_hash(int32_t id, int h) {
  constexpr uint32_t kMul[kLookupHashes] = {0x9E3779B1u, 0x85EBCA77u, 0xC2B2AE3Du, 0x27D4EB2Fu,
                                            0x165667B1u, 0xD3A2646Du, 0xFD7046C5u, 0xB55A4F09u};
  return (static_cast<uint32_t>(id) * kMul[h]) >> (32 - kLookupTableBits);
}

// Sum of the 8 hashed entries, in hash order (IEEE adds, so every variant rounds identically).
template <class Gather>
__device__ __forceinline__ float lookup_one(const Gather& gather, int32_t id) {
  float acc = gather(lookup_hash(id, 0));
#pragma unroll
  for (int h = 1; h < kLookupHashes; ++h) acc = __fadd_rn(acc, gather(lookup_hash(id, h)));
  return acc;
}

// The streaming loop every variant shares; only `gather` (how table[i] is read) differs.
template <class Gather>
__device__ __forceinline__ void lookup_stream(const Gather& gather, const int32_t* ids, float* out, int64_t n) {
  const int4* ids4 = reinterpret_cast<const int4*>(ids);
  float4* out4 = reinterpret_cast<float4*>(out);
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t v = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < n / 4; v += stride) {
    const int4 q = ids4[v];
    out4[v] = make_float4(lookup_one(gather, q.x), lookup_one(gather, q.y), lookup_one(gather, q.z),
                          lookup_one(gather, q.w));
  }
}
