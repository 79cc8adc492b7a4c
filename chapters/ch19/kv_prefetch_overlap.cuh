// kv_prefetch_overlap: decode attention of one long sequence, 8 heads x 65536 cached tokens x head dim 128
// in bf16 (K + V = 256 MiB), one query token per head: o = softmax(q K^T / sqrt(128)) V. The KV cache is
// walked in tiles of 32 tokens (8 KiB of K + 8 KiB of V) staged through shared memory by a CTA of 4 warps;
// 16 splits per head give 128 CTAs, one per SM: the long-context / small-batch regime where occupancy
// alone cannot hide memory latency (one 128-thread CTA per SM).
//   baseline_kv_prefetch_overlap.cu   load tile j (global -> registers -> shared), barrier, compute tile j
//   optimized_kv_prefetch_overlap.cu  a 4-stage cp.async ring: tiles j+1..j+3 are in flight while tile j is
//                                     computed (prefetch overlapped with compute)
// Both compute the same tiles in the same order with the same arithmetic (decode_attention.cuh), so the
// outputs agree bit for bit and the bf16 default tolerance holds.
#pragma once
#include <stdexcept>

#include "aisp/aisp.hpp"
#include "aisp/axes.hpp"
#include "decode_attention.cuh"

namespace kv_prefetch {

constexpr int kTile = 32;                                    // tokens per tile
constexpr int kTileBytes = kTile * decode::kD * 2;           // 8 KiB of K (and as much of V)
constexpr int kChunksPerThread = kTileBytes / 16 / decode::kThreads;  // 16-byte chunks of K (and of V) per thread
constexpr int kSplits = 16;

inline int64_t context() { return aisp::axis("context", 65536); }

// Scores tile rows w*8 .. w*8+7 (warp w) of a staged K/V tile and folds them into the warp's state.
__device__ __forceinline__ void compute_tile(const __nv_bfloat16* sk, const __nv_bfloat16* sv, float4 q,
                                             decode::WarpState& st) {
  constexpr int U = kTile / decode::kWarps;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  float s[U];
  float4 v[U];
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const int r = warp * U + u;
    const float4 k = decode::bf16x4_to_float4(*reinterpret_cast<const uint2*>(sk + r * decode::kD + 4 * lane));
    s[u] = decode::warp_sum(decode::dot4(q, k));
    v[u] = decode::bf16x4_to_float4(*reinterpret_cast<const uint2*>(sv + r * decode::kD + 4 * lane));
  }
  st.update<U>(s, v);
}

class KvPrefetchOverlapBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    const int64_t heads = 8, ctx_len = context();
    aisp::Workload w;
    w.params = {{"heads", heads}, {"context", ctx_len}, {"head_dim", decode::kD}};
    w.precision = aisp::DType::bf16;
    w.bytes = 2.0 * heads * ctx_len * decode::kD * 2 + 2.0 * heads * decode::kD * 2;  // K, V; q in, o out
    w.flops = 4.0 * heads * ctx_len * decode::kD;
    w.items = double(heads) * ctx_len;
    w.item_unit = "cached tokens";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    const int64_t heads = ctx.param("heads"), len = ctx.param("context");
    if (len % (kSplits * kTile)) throw std::runtime_error("kv_prefetch_overlap: context must be a multiple of 512");
    ctx.input("q", aisp::DType::bf16, {heads, decode::kD}, aisp::Fill::normal(0, 1));
    ctx.input("k", aisp::DType::bf16, {heads, len, decode::kD}, aisp::Fill::normal(0, 1));
    ctx.input("v", aisp::DType::bf16, {heads, len, decode::kD}, aisp::Fill::normal(0, 1));
    ctx.output("o", aisp::DType::bf16, {heads, decode::kD});
    ws_.carve(ctx.scratch("partials", decode::SplitWorkspace::bytes(heads, kSplits)), heads, kSplits);
    prepare(ctx);
  }

 protected:
  virtual void prepare(aisp::Context&) {}
  // The split-KV kernel (grid kSplits x heads, 128 threads) is the variant's; the merge is shared.
  void combine(aisp::Context& ctx) {
    decode::combine_splits<<<static_cast<unsigned>(ctx.param("heads")), decode::kD, 0, ctx.stream()>>>(
        ws_.part_o, ws_.part_ml, kSplits, ctx.buffer("o").as<__nv_bfloat16>());
    AISP_LAUNCH_CHECK();
  }
  decode::SplitWorkspace ws_;
};

}  // namespace kv_prefetch
