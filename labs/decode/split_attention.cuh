// labs/decode: split-KV (flash-decoding) paged attention for the decode step, built on ch18's decode loop
// (decode_split.cuh: half-warp per token, 16-byte loads, 4 tokens in flight per half-warp, online softmax
// in log2 units) and ch18's paged loader (paged_attn_backend.cuh: the split's slice of the block table in
// shared memory). What is the lab's own: the new token. Its K and V are not in the cache (the cache is
// static state; the engine appends the row after the step), so the merge kernel folds it in as one more
// "split" of one token: s = q . k_new, then the usual rescale-and-sum with the cached splits' partials.
#pragma once
#include "decode_step.cuh"

namespace decode_lab {

constexpr int kAttnWarps = 4, kAttnUnroll = 4;

// Grid (splits, batch x heads), 128 threads: partial softmax state of one split of one (sequence, head).
__global__ void __launch_bounds__(kAttnWarps * 32)
    split_paged_attention(const __nv_bfloat16* __restrict__ q, const __nv_bfloat16* __restrict__ k_pool,
                          const __nv_bfloat16* __restrict__ v_pool, const int32_t* __restrict__ table, int64_t len,
                          float q_scale, int splits, ch18::Partials part) {
  __shared__ int32_t s_table[paged_attn::kMaxBlocksPerSplit];
  const int64_t row = blockIdx.y, seq = row / kHeads;
  int64_t begin, end;
  ch18::split_range(len, blockIdx.x, splits, begin, end);
  const int64_t first_block = begin / kBlock, nblk = (end - begin + kBlock - 1) / kBlock;
  for (int64_t i = threadIdx.x; i < nblk; i += blockDim.x) s_table[i] = table[seq * (len / kBlock) + first_block + i];
  __syncthreads();
  const paged_attn::PagedBf16 load{k_pool, v_pool, s_table, first_block, kHeads, static_cast<int>(row % kHeads)};
  float qv[8];
  ch18::load_q(q + row * ch18::kD, q_scale, qv);
  const ch18::State st = ch18::attend_range<kAttnWarps, kAttnUnroll>(load, begin, end, qv);
  float m, l;
  const float acc = ch18::merge_cta<kAttnWarps>(st, m, l);
  const int64_t slot = row * splits + blockIdx.x;
  part.o[slot * ch18::kD + threadIdx.x] = acc;
  if (threadIdx.x == 0) part.ml[slot] = make_float2(m, l);
}

// One CTA of 128 threads per (sequence, head): the new token's score (a 128-dim dot product reduced over
// the CTA), then the merge of it and the row's split partials; o in bf16.
__global__ void __launch_bounds__(ch18::kD)
    merge_with_new_token(ch18::Partials p, int splits, const __nv_bfloat16* __restrict__ q,
                         const __nv_bfloat16* __restrict__ kv_new, float q_scale, __nv_bfloat16* __restrict__ o) {
  __shared__ float red[ch18::kD / 32];
  const int64_t row = blockIdx.x, seq = row / kHeads;
  const int t = threadIdx.x;
  const __nv_bfloat16* k_new = kv_new + seq * 2 * kHidden + (row % kHeads) * ch18::kD;
  const __nv_bfloat16* v_new = k_new + kHidden;
  const float prod = warp_sum(__bfloat162float(q[row * ch18::kD + t]) * q_scale * __bfloat162float(k_new[t]));
  if (t % 32 == 0) red[t / 32] = prod;
  __syncthreads();
  const float s_new = (red[0] + red[1]) + (red[2] + red[3]);
  float m = s_new;  // finite, so every exp2 below has a finite reference
  for (int s = 0; s < splits; ++s) m = fmaxf(m, p.ml[row * splits + s].x);
  float l = exp2f(s_new - m);
  float acc = l * __bfloat162float(v_new[t]);
  for (int s = 0; s < splits; ++s) {
    const float2 ml = p.ml[row * splits + s];  // an empty split has m = -inf, l = 0, o = 0: adds nothing
    const float f = exp2f(ml.x - m);
    l += f * ml.y;
    acc += f * p.o[(row * splits + s) * ch18::kD + t];
  }
  o[row * ch18::kD + t] = __float2bfloat16_rn(acc / l);
}

// The two launches and their workspace, owned by a variant.
class SplitAttention {
 public:
  void prepare(aisp::Context& ctx) {
    const int64_t rows = int64_t{kBatch} * kHeads, len = ctx.param("context");
    splits_ = ch18::choose_splits(split_paged_attention, kAttnWarps * 32, ctx.device().sm_count, rows, len);
    const int64_t blocks = len / kBlock;  // the block-table slice of a split must fit shared memory
    if ((blocks + splits_ - 1) / splits_ > paged_attn::kMaxBlocksPerSplit)
      splits_ = static_cast<int>((blocks + paged_attn::kMaxBlocksPerSplit - 1) / paged_attn::kMaxBlocksPerSplit);
    part_.carve(ctx.scratch("attention_partials", ch18::Partials::bytes(rows, splits_)), rows, splits_);
  }
  void launch(aisp::Context& ctx, const __nv_bfloat16* q, const __nv_bfloat16* kv_new, __nv_bfloat16* o) {
    const unsigned rows = kBatch * kHeads;
    split_paged_attention<<<dim3(splits_, rows), kAttnWarps * 32, 0, ctx.stream()>>>(
        q, ctx.buffer("k_pool").as<const __nv_bfloat16>(), ctx.buffer("v_pool").as<const __nv_bfloat16>(),
        ctx.buffer("block_table").as<const int32_t>(), ctx.param("context"), ch18::q_scale_log2(), splits_, part_);
    AISP_LAUNCH_CHECK();
    merge_with_new_token<<<rows, ch18::kD, 0, ctx.stream()>>>(part_, splits_, q, kv_new, ch18::q_scale_log2(), o);
    AISP_LAUNCH_CHECK();
  }

 private:
  int splits_ = 1;
  ch18::Partials part_;
};

}  // namespace decode_lab
