// paged_attn_backend: one decode step over a paged KV cache (vLLM's PagedAttention layout): 8 sequences x
// 32 heads x 4096 cached tokens x head dim 128, bf16. The cache lives in a pool of 16-token blocks,
// k_pool / v_pool [2048 blocks][32 heads][16][128] (537 MB for K and V), and each sequence's logical block
// j sits in physical block block_table[seq][j] (a random permutation: blocks of a sequence are scattered
// over the pool, as after a serving engine has allocated and freed blocks for a while).
//   baseline_paged_attn_backend.cu               a naive paged kernel: one CTA per (sequence, head) like
//                                                vLLM's paged_attention_v1, one token per warp per step,
//                                                the block table read for every token on the load path
//   optimized_paged_attn_backend.cu              the split-KV loop of decode_split.cuh over the pages:
//                                                each CTA copies its split's slice of the block table to
//                                                shared memory first, then 16-byte loads, 4 tokens in
//                                                flight per half-warp
//   optimized_paged_attn_backend_contiguous.cu   the same split-KV kernel over a contiguous copy of the
//                                                cache (repacked once in setup(): the cache is static
//                                                state): the reference the paged kernel is held to (the
//                                                goal is paged within 10% of contiguous)
// The cache and the block table are static inputs (state written by earlier steps); q is dynamic.
#pragma once
#include <cstdint>
#include <numeric>
#include <vector>

#include "../common/permutation_fill.hpp"
#include "aisp/aisp.hpp"
#include "decode_split.cuh"

namespace paged_attn {

constexpr int kBlock = 16;               // tokens per cache block (vLLM's default)
constexpr int kMaxBlocksPerSplit = 256;  // shared-memory slice of the block table per CTA

// The block table's fill: a permutation of 0..count-1 (../common/permutation_fill.hpp): every physical block
// is used once.
using fills::permutation_fill;

class PagedAttnBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    const int64_t batch = 8, heads = 32, len = 4096, rows = batch * heads;
    aisp::Workload w;
    w.params = {{"batch", batch}, {"heads", heads}, {"context", len}, {"head_dim", ch18::kD}, {"block", kBlock}};
    w.precision = aisp::DType::bf16;
    w.bytes = 2.0 * rows * len * ch18::kD * 2 + 4.0 * batch * (len / kBlock) + 2.0 * rows * ch18::kD * 2;
    w.flops = 4.0 * rows * len * ch18::kD;
    w.items = double(rows) * len;
    w.item_unit = "cached tokens";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    const int64_t b = ctx.param("batch"), h = ctx.param("heads"), len = ctx.param("context");
    const int64_t blocks = b * (len / kBlock);
    ctx.input("q", aisp::DType::bf16, {b, h, ch18::kD}, aisp::Fill::normal(0, 1));
    for (const char* name : {"k_pool", "v_pool"})
      ctx.input(name, aisp::DType::bf16, {blocks, h, kBlock, ch18::kD}, aisp::Fill::normal(0, 1), aisp::Role::static_);
    ctx.input("block_table", aisp::DType::i32, {b, len / kBlock}, aisp::Fill::custom(permutation_fill), aisp::Role::static_);
    ctx.output("o", aisp::DType::bf16, {b, h, ch18::kD});
    prepare(ctx);
  }
  // Same reasoning as flash_decoding.cuh: the naive single pass and the split merge sum in different
  // orders, and the bf16 output may round one ulp apart (<= 2^-7 relative; <= 6e-5 where |o| < 2^-6;
  // rms |o| ~ 0.026 at 4096 tokens). Leaving out one split (~1/6 of a row's keys) moves o by ~1e-2.
  aisp::Tolerance tolerance() const override { return ch18::split_merge_tolerance(); }

 protected:
  virtual void prepare(aisp::Context&) {}
};

// Stages the CTA's split [begin, end) of sequence seq's block table (len / 16 entries per sequence) in shared
// memory, s_table[i] = table[seq][first_block + i], once per CTA instead of once per token; returns
// first_block. The paged kernels of ch18 and labs/kv_cache.
__device__ __forceinline__ int64_t stage_table(const int32_t* __restrict__ table, int64_t seq, int64_t len, int64_t begin,
                                               int64_t end, int32_t* s_table) {
  const int64_t first_block = begin / kBlock, nblk = (end - begin + kBlock - 1) / kBlock;
  for (int64_t i = threadIdx.x; i < nblk; i += blockDim.x) s_table[i] = table[seq * (len / kBlock) + first_block + i];
  __syncthreads();
  return first_block;
}

// The paged loader of the split-KV loop: token t of the row lives in physical block
// table[t / 16 - first_block] (the CTA's shared-memory slice), at [block][head][t % 16][dims].
struct PagedBf16 {
  const __nv_bfloat16* k;
  const __nv_bfloat16* v;
  const int32_t* table;  // shared memory: this split's slice
  int64_t first_block;
  int heads, head;
  struct Raw {
    uint4 k, v;
  };
  __device__ __forceinline__ Raw fetch(int64_t t) const {
    const int64_t blk = table[(t / kBlock) - first_block];
    const int64_t off = ((blk * heads + head) * kBlock + (t % kBlock)) * ch18::kD + 8 * (threadIdx.x % 16);
    return {__ldg(reinterpret_cast<const uint4*>(k + off)), __ldg(reinterpret_cast<const uint4*>(v + off))};
  }
  __device__ __forceinline__ void convert(const Raw& r, int64_t, float (&kf)[8], float (&vf)[8]) const {
    ch18::bf16x8_to_float(r.k, kf);
    ch18::bf16x8_to_float(r.v, vf);
  }
};

}  // namespace paged_attn
