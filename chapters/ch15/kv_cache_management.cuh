// kv_cache_management: growing the KV cache of 32 sequences through 128 decode steps, each step appending
// one token's K and V (8 KV heads x 128 x 2, bf16: a 4 KiB row) per sequence, after a prefill of 64-1024
// prompt rows each; at the end a readout sums every sequence's rows in token order (what attention would
// read; it proves every row is where the sequence's layout says). Row (b, pos) = bf16(x[b] (1 + pos/1024)),
// x a dynamic input. Both variants allocate from a preallocated pool on the device (no cudaMalloc), in
// 16-token units, with the same two kernels per step (allocate, then write) - the difference is the layout:
//   baseline_kv_cache_management.cu    per-request contiguous: a sequence's rows are one region; when it is
//                                      full, a region 16 rows larger is taken from the pool and the whole
//                                      cache is copied over (reallocation, as a growing tensor does)
//   optimized_kv_cache_management.cu   block allocator (vLLM's PagedAttention layout): 16-row blocks popped
//                                      from a free list, a per-sequence block table; appending never moves
//                                      a row
// The outputs are bit-identical (same rows, same summation order). Costs per run: both ~256 small launches
// and the same readout; the contiguous layout adds 8 reallocation steps that copy every cache (~80 MB read +
// written each: ~1.3 GB in all), and needs a pool of all the regions it ever held (~0.8 GB vs ~0.09 GB).
// Expected on H100: contiguous ~1.1 ms, paged ~0.7 ms: ~1.5x.
#pragma once
#include <cuda_bf16.h>

#include <cstdint>

#include "aisp/aisp.hpp"

inline constexpr int kKvSeqs = 32, kKvSteps = 128, kKvBlock = 16;
inline constexpr int kKvRow = 8 * 128 * 2;            // bf16 elements per token row (K and V of 8 heads)
inline constexpr int kKvMaxTokens = 1024 + kKvSteps;  // the longest sequence
inline constexpr int kKvMaxBlocks = kKvMaxTokens / kKvBlock;
inline constexpr int kKvRowVecs = kKvRow / 8;  // 16-byte vectors per row: 256

// Prompt length of sequence b: a fixed spread over 64..1024 (the host knows its requests' prompts).
constexpr int kv_prompt(int b) { return 64 + (b * 389 + 123) % 961; }

namespace kv_cache {

// Row (b, pos), vector v (8 channels) as written by prefill and decode in both variants.
__device__ __forceinline__ uint4 make_row_vec(const float* __restrict__ x, int b, int pos, int v) {
  const float s = 1.0f + static_cast<float>(pos) * 0.0009765625f;
  const float4 lo = reinterpret_cast<const float4*>(x + int64_t(b) * kKvRow)[2 * v];
  const float4 hi = reinterpret_cast<const float4*>(x + int64_t(b) * kKvRow)[2 * v + 1];
  __nv_bfloat162 o[4] = {__floats2bfloat162_rn(lo.x * s, lo.y * s), __floats2bfloat162_rn(lo.z * s, lo.w * s),
                         __floats2bfloat162_rn(hi.x * s, hi.y * s), __floats2bfloat162_rn(hi.z * s, hi.w * s)};
  return *reinterpret_cast<const uint4*>(o);
}

// Adds one 16-byte vector of a row into 8 fp32 sums.
__device__ __forceinline__ void accumulate(float (&acc)[8], uint4 raw) {
  const __nv_bfloat162* h = reinterpret_cast<const __nv_bfloat162*>(&raw);
#pragma unroll
  for (int e = 0; e < 4; ++e) {
    const float2 f = __bfloat1622float2(h[e]);
    acc[2 * e] += f.x;
    acc[2 * e + 1] += f.y;
  }
}

inline constexpr int kReadChunks = 16;  // position ranges per sequence summed in parallel by the readout

// Positions [begin, end) of chunk c of a sequence of length len.
__device__ __forceinline__ int chunk_begin(int c, int len) { return static_cast<int>(int64_t(c) * len / kReadChunks); }

// sums[b] = sum over chunks c = 0..15 in order of partial[b][c] (each partial is its range summed in order),
// so both variants add in the same order: bit-identical results.
__global__ void readout_final(const float* __restrict__ partial, float* __restrict__ sums) {
  const int b = blockIdx.x;
  for (int ch = threadIdx.x; ch < kKvRow; ch += blockDim.x) {
    float acc = 0;
    for (int c = 0; c < kReadChunks; ++c) acc += partial[(int64_t(b) * kReadChunks + c) * kKvRow + ch];
    sums[int64_t(b) * kKvRow + ch] = acc;
  }
}

// One block's part of the readout: rows of positions [begin, end), given their addresses.
template <class RowAt>
__device__ __forceinline__ void readout_chunk(RowAt row_at, int b, int c, int len, float* __restrict__ partial) {
  float acc[8] = {};
  const int end = chunk_begin(c + 1, len);
#pragma unroll 4
  for (int pos = chunk_begin(c, len); pos < end; ++pos)
    accumulate(acc, reinterpret_cast<const uint4*>(row_at(pos))[threadIdx.x]);
  float4* out = reinterpret_cast<float4*>(partial + (int64_t(b) * kReadChunks + c) * kKvRow) + 2 * threadIdx.x;
  out[0] = make_float4(acc[0], acc[1], acc[2], acc[3]);
  out[1] = make_float4(acc[4], acc[5], acc[6], acc[7]);
}

}  // namespace kv_cache

class KvCacheManagementBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"seqs", kKvSeqs}, {"steps", kKvSteps}, {"block", kKvBlock}, {"row_bytes", kKvRow * 2}};
    w.precision = aisp::DType::bf16;
    double rows = 0;
    for (int b = 0; b < kKvSeqs; ++b) rows += kv_prompt(b) + kKvSteps;
    // Every row written once and read once by the readout; x read, the sums written.
    w.bytes = 2.0 * rows * kKvRow * 2 + 2.0 * kKvSeqs * kKvRow * 4;
    w.items = double(kKvSeqs) * kKvSteps;
    w.item_unit = "tokens";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    ctx.input("x", aisp::DType::f32, {kKvSeqs, kKvRow});
    ctx.output("sums", aisp::DType::f32, {kKvSeqs, kKvRow});
    len_ = static_cast<int*>(ctx.scratch("len", kKvSeqs * sizeof(int)));
    partial_ = static_cast<float*>(ctx.scratch("partial", size_t(kKvSeqs) * kv_cache::kReadChunks * kKvRow * sizeof(float)));
    prepare(ctx);
  }

 protected:
  virtual void prepare(aisp::Context&) = 0;  // the variant's pool and bookkeeping
  void finish_readout(aisp::Context& ctx) {
    kv_cache::readout_final<<<kKvSeqs, 256, 0, ctx.stream()>>>(partial_, ctx.buffer("sums").as<float>());
    AISP_LAUNCH_CHECK();
  }
  int* len_ = nullptr;
  float* partial_ = nullptr;
};
