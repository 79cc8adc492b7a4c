// ch18 paged_attn_backend, baseline: a naive paged-attention kernel.
//
// Technique: vLLM's paged_attention_v1 schedule: one CTA of 4 warps per (sequence, head), 256 CTAs. Each
// warp takes one token at a time (tokens warp, warp+4, ...): it reads the token's physical block from the
// block table, then the token's K row (8 bytes per lane, lane i holds dims 4i..4i+3), reduces the score over
// the warp, folds it into its online softmax and reads the V row. The 4 warps merge at the end; o in bf16.
// Why it is slow: per warp, one token's K row (256 B) is in flight at a time and the table read sits in
// front of it on the same dependency chain (table -> K address -> score -> next token): the SMs wait on
// latency, not on bandwidth. 256 CTAs leave no room for a split over the context either.
// Expected on Hopper: latency bound, well under half the HBM bandwidth: ~0.5-1 ms for 537 MB.
// Measured (H100 SXM, harness cold mode, 2026-11-28, 14 checks passed): 729.8 us, 0.74 TB/s.
#include "paged_attn_backend.cuh"

namespace {

using namespace paged_attn;

constexpr int kWarps = 4;

__device__ __forceinline__ float warp_sum(float x) {
#pragma unroll
  for (int o = 16; o > 0; o /= 2) x += __shfl_xor_sync(0xffffffffu, x, o);
  return x;
}

__device__ __forceinline__ float4 bf16x4(uint2 u) {
  const float2 a = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&u.x));
  const float2 b = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&u.y));
  return make_float4(a.x, a.y, b.x, b.y);
}

__global__ void __launch_bounds__(kWarps * 32)
    paged_decode_v1(const __nv_bfloat16* __restrict__ q, const __nv_bfloat16* __restrict__ k_pool,
                    const __nv_bfloat16* __restrict__ v_pool, const int32_t* __restrict__ table, int heads, int64_t len,
                    float q_scale, __nv_bfloat16* __restrict__ o) {
  const int64_t row = blockIdx.x, seq = row / heads;
  const int head = static_cast<int>(row % heads), warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int64_t blocks_per_seq = len / kBlock;
  float4 qv = bf16x4(*reinterpret_cast<const uint2*>(q + row * ch18::kD + 4 * lane));
  qv = make_float4(qv.x * q_scale, qv.y * q_scale, qv.z * q_scale, qv.w * q_scale);
  float m = -INFINITY, l = 0.0f;
  float4 acc = make_float4(0, 0, 0, 0);
  for (int64_t t = warp; t < len; t += kWarps) {
    const int64_t blk = __ldg(table + seq * blocks_per_seq + t / kBlock);
    const int64_t off = ((blk * heads + head) * kBlock + t % kBlock) * ch18::kD + 4 * lane;
    const float4 k = bf16x4(__ldg(reinterpret_cast<const uint2*>(k_pool + off)));
    const float s = warp_sum(qv.x * k.x + qv.y * k.y + qv.z * k.z + qv.w * k.w);
    const float4 v = bf16x4(__ldg(reinterpret_cast<const uint2*>(v_pool + off)));
    const float mx = fmaxf(m, s), alpha = exp2f(m - mx), p = exp2f(s - mx);  // s is finite: mx > -inf
    l = l * alpha + p;
    acc = make_float4(fmaf(p, v.x, acc.x * alpha), fmaf(p, v.y, acc.y * alpha), fmaf(p, v.z, acc.z * alpha),
                      fmaf(p, v.w, acc.w * alpha));
    m = mx;
  }
  __shared__ float sm_m[kWarps], sm_l[kWarps];
  __shared__ float4 sm_acc[kWarps][32];
  if (lane == 0) sm_m[warp] = m, sm_l[warp] = l;
  sm_acc[warp][lane] = acc;
  __syncthreads();
  const int t = threadIdx.x;  // dim t (128 threads == 128 dims)
  float mx = -INFINITY;
  for (int w = 0; w < kWarps; ++w) mx = fmaxf(mx, sm_m[w]);
  float lsum = 0.0f, out = 0.0f;
  for (int w = 0; w < kWarps; ++w) {
    const float f = exp2f(sm_m[w] - mx);
    lsum += f * sm_l[w];
    out += f * reinterpret_cast<const float*>(&sm_acc[w][0])[t];
  }
  o[row * ch18::kD + t] = __float2bfloat16_rn(out / lsum);
}

class BaselinePagedAttn : public PagedAttnBase {
 public:
  std::string technique() const override { return "naive paged attention: one CTA per (sequence, head), one token per warp"; }
  void run(aisp::Context& ctx) override {
    const int64_t rows = ctx.param("batch") * ctx.param("heads");
    paged_decode_v1<<<static_cast<unsigned>(rows), kWarps * 32, 0, ctx.stream()>>>(
        ctx.buffer("q").as<const __nv_bfloat16>(), ctx.buffer("k_pool").as<const __nv_bfloat16>(),
        ctx.buffer("v_pool").as<const __nv_bfloat16>(), ctx.buffer("block_table").as<const int32_t>(),
        static_cast<int>(ctx.param("heads")), ctx.param("context"), ch18::q_scale_log2(), ctx.buffer("o").as<__nv_bfloat16>());
    AISP_LAUNCH_CHECK();
  }
};

}  // namespace

AISP_BENCHMARK(BaselinePagedAttn)
