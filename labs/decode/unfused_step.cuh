// labs/decode: the unfused parts of the decode step, shared by the baseline and step 1: one kernel per op,
// the four projections as cuBLAS GEMMs (M = 8, bf16 in, fp32 compute and fp32 out, as a framework's linear
// layer followed by separate elementwise kernels runs them), and the naive paged attention of the baseline.
#pragma once
#include "decode_step.cuh"

namespace decode_lab {

constexpr int kElemThreads = 256;

// One warp per token row: out = bf16(RMSNorm(in) * gamma).
template <class T>
__global__ void __launch_bounds__(kBatch * 32)
    norm_rows(const T* __restrict__ in, const __nv_bfloat16* __restrict__ gamma, __nv_bfloat16* __restrict__ out) {
  const int row = threadIdx.x / 32;
  rms_norm_row(in + int64_t(row) * kHidden, gamma, kHidden, out + int64_t(row) * kHidden);
}

// qkv fp32 [8][3H] -> q (bf16 [8][H]) and kv_new (bf16 [8][2][H]).
__global__ void split_qkv(const float* __restrict__ qkv, __nv_bfloat16* __restrict__ q, __nv_bfloat16* __restrict__ kv_new) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kBatch * 3 * kHidden) return;
  const int m = i / (3 * kHidden), n = i % (3 * kHidden);
  const __nv_bfloat16 v = __float2bfloat16_rn(qkv[i]);
  if (n < kHidden) q[m * kHidden + n] = v;
  else kv_new[m * 2 * kHidden + (n - kHidden)] = v;
}

// h1 = x + attn (fp32 residual stream).
__global__ void residual_attention(const __nv_bfloat16* __restrict__ x, const float* __restrict__ attn,
                                   float* __restrict__ h1) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kBatch * kHidden) h1[i] = __bfloat162float(x[i]) + attn[i];
}

// a = bf16(silu(gate) * up), gu fp32 [8][2I] (gate columns 0..I-1, up columns I..2I-1).
__global__ void silu_and_mul(const float* __restrict__ gu, __nv_bfloat16* __restrict__ a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kBatch * kInter) return;
  const int m = i / kInter, c = i % kInter;
  a[i] = __float2bfloat16_rn(silu_mul(gu[m * 2 * kInter + c], gu[m * 2 * kInter + kInter + c]));
}

// y = bf16(h1 + d).
__global__ void residual_out(const float* __restrict__ h1, const float* __restrict__ d, __nv_bfloat16* __restrict__ y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kBatch * kHidden) y[i] = __float2bfloat16_rn(h1[i] + d[i]);
}

// Naive paged attention (vLLM paged_attention_v1's schedule): one CTA of 4 warps per (sequence, head), 128
// CTAs for the whole batch. Warp w takes tokens w, w+4, ...: the block table entry, then the token's K row
// (8 bytes per lane: lane l holds dims 4l..4l+3), the score reduced over the warp, the online softmax, the V
// row. One 256-byte row per warp in flight, behind a dependent table read: latency bound, and 128 CTAs
// cannot fill 132 SMs' worth of memory parallelism. The new token is folded in during the final merge.
constexpr int kNaiveWarps = 4;

__device__ __forceinline__ float4 bf16x4(uint2 u) {
  const float2 a = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&u.x));
  const float2 b = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&u.y));
  return make_float4(a.x, a.y, b.x, b.y);
}

__global__ void __launch_bounds__(kNaiveWarps * 32)
    naive_paged_attention(const __nv_bfloat16* __restrict__ q, const __nv_bfloat16* __restrict__ kv_new,
                          const __nv_bfloat16* __restrict__ k_pool, const __nv_bfloat16* __restrict__ v_pool,
                          const int32_t* __restrict__ table, int64_t len, float q_scale, __nv_bfloat16* __restrict__ o) {
  const int64_t row = blockIdx.x, seq = row / kHeads;
  const int head = static_cast<int>(row % kHeads), warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int64_t blocks_per_seq = len / kBlock;
  float4 qv = bf16x4(*reinterpret_cast<const uint2*>(q + row * ch18::kD + 4 * lane));
  qv = make_float4(qv.x * q_scale, qv.y * q_scale, qv.z * q_scale, qv.w * q_scale);
  float m = -INFINITY, l = 0.0f;
  float4 acc = make_float4(0, 0, 0, 0);
  for (int64_t t = warp; t < len; t += kNaiveWarps) {
    const int64_t blk = __ldg(table + seq * blocks_per_seq + t / kBlock);
    const int64_t off = ((blk * kHeads + head) * kBlock + t % kBlock) * ch18::kD + 4 * lane;
    const float4 k = bf16x4(__ldg(reinterpret_cast<const uint2*>(k_pool + off)));
    const float s = warp_sum(qv.x * k.x + qv.y * k.y + qv.z * k.z + qv.w * k.w);
    const float4 v = bf16x4(__ldg(reinterpret_cast<const uint2*>(v_pool + off)));
    const float mx = fmaxf(m, s), alpha = exp2f(m - mx), p = exp2f(s - mx);  // s finite: mx > -inf
    l = l * alpha + p;
    acc = make_float4(fmaf(p, v.x, acc.x * alpha), fmaf(p, v.y, acc.y * alpha), fmaf(p, v.z, acc.z * alpha),
                      fmaf(p, v.w, acc.w * alpha));
    m = mx;
  }
  __shared__ float sm_m[kNaiveWarps], sm_l[kNaiveWarps], s_new;
  __shared__ float4 sm_acc[kNaiveWarps][32];
  const __nv_bfloat16* k_new = kv_new + seq * 2 * kHidden + head * ch18::kD;
  if (warp == 0) {
    const float4 k = bf16x4(*reinterpret_cast<const uint2*>(k_new + 4 * lane));
    const float s = warp_sum(qv.x * k.x + qv.y * k.y + qv.z * k.z + qv.w * k.w);
    if (lane == 0) s_new = s;
  }
  if (lane == 0) sm_m[warp] = m, sm_l[warp] = l;
  sm_acc[warp][lane] = acc;
  __syncthreads();
  const int t = threadIdx.x;  // dim t (128 threads == 128 dims)
  float mx = s_new;
  for (int w = 0; w < kNaiveWarps; ++w) mx = fmaxf(mx, sm_m[w]);
  float lsum = exp2f(s_new - mx);
  float out = lsum * __bfloat162float(k_new[kHidden + t]);  // the new token's V
  for (int w = 0; w < kNaiveWarps; ++w) {
    const float f = exp2f(sm_m[w] - mx);
    lsum += f * sm_l[w];
    out += f * reinterpret_cast<const float*>(&sm_acc[w][0])[t];
  }
  o[row * ch18::kD + t] = __float2bfloat16_rn(out / lsum);
}

// The unfused decode step around an attention kernel of the variant's choice.
class UnfusedStepBase : public DecodeStepBase {
 protected:
  void prepare(aisp::Context& ctx) override {
    xn_ = static_cast<__nv_bfloat16*>(ctx.scratch("xn", size_t{kBatch} * kHidden * 2));
    hn_ = static_cast<__nv_bfloat16*>(ctx.scratch("hn", size_t{kBatch} * kHidden * 2));
    qkv_ = static_cast<float*>(ctx.scratch("qkv_f32", size_t{kBatch} * 3 * kHidden * 4));
    attn_ = static_cast<float*>(ctx.scratch("attn_f32", size_t{kBatch} * kHidden * 4));
    gu_ = static_cast<float*>(ctx.scratch("gate_up_f32", size_t{kBatch} * 2 * kInter * 4));
    d_ = static_cast<float*>(ctx.scratch("down_f32", size_t{kBatch} * kHidden * 4));
    prepare_attention(ctx);
  }
  virtual void prepare_attention(aisp::Context&) {}

  // out[8][n] (fp32) = in[8][k] . w[n][k]^T. Row-major out = in w^T is column-major out^T (n x 8) = w (op T) in^T.
  static void linear(aisp::Context& ctx, const char* weight, const __nv_bfloat16* in, int n, int k, float* out) {
    const float one = 1.0f, zero = 0.0f;
    AISP_CUBLAS_CHECK(cublasGemmEx(ctx.cublas(), CUBLAS_OP_T, CUBLAS_OP_N, n, kBatch, k, &one, ctx.buffer(weight).data,
                                   CUDA_R_16BF, k, in, CUDA_R_16BF, k, &zero, out, CUDA_R_32F, n, CUBLAS_COMPUTE_32F,
                                   CUBLAS_GEMM_DEFAULT));
  }
  static unsigned blocks_for(int n) { return static_cast<unsigned>((n + kElemThreads - 1) / kElemThreads); }

  // RMSNorm, QKV projection, split into q and the new K/V: 3 launches.
  void before_attention(aisp::Context& ctx) {
    norm_rows<__nv_bfloat16><<<1, kBatch * 32, 0, ctx.stream()>>>(ctx.buffer("x").as<const __nv_bfloat16>(),
                                                                  ctx.buffer("gamma1").as<const __nv_bfloat16>(), xn_);
    AISP_LAUNCH_CHECK();
    linear(ctx, "w_qkv", xn_, 3 * kHidden, kHidden, qkv_);
    split_qkv<<<blocks_for(kBatch * 3 * kHidden), kElemThreads, 0, ctx.stream()>>>(qkv_, act_.q,
                                                                                   ctx.buffer("kv_new").as<__nv_bfloat16>());
    AISP_LAUNCH_CHECK();
  }
  // Output projection, residual, RMSNorm, gate/up, SiLU*up, down, residual: 7 launches.
  void after_attention(aisp::Context& ctx) {
    linear(ctx, "w_o", act_.o, kHidden, kHidden, attn_);
    residual_attention<<<blocks_for(kBatch * kHidden), kElemThreads, 0, ctx.stream()>>>(
        ctx.buffer("x").as<const __nv_bfloat16>(), attn_, act_.h1);
    AISP_LAUNCH_CHECK();
    norm_rows<float><<<1, kBatch * 32, 0, ctx.stream()>>>(act_.h1, ctx.buffer("gamma2").as<const __nv_bfloat16>(), hn_);
    AISP_LAUNCH_CHECK();
    linear(ctx, "w_gate_up", hn_, 2 * kInter, kHidden, gu_);
    silu_and_mul<<<blocks_for(kBatch * kInter), kElemThreads, 0, ctx.stream()>>>(gu_, act_.a);
    AISP_LAUNCH_CHECK();
    linear(ctx, "w_down", act_.a, kHidden, kInter, d_);
    residual_out<<<blocks_for(kBatch * kHidden), kElemThreads, 0, ctx.stream()>>>(act_.h1, d_,
                                                                                  ctx.buffer("y").as<__nv_bfloat16>());
    AISP_LAUNCH_CHECK();
  }

  __nv_bfloat16* xn_ = nullptr;
  __nv_bfloat16* hn_ = nullptr;
  float* qkv_ = nullptr;
  float* attn_ = nullptr;
  float* gu_ = nullptr;
  float* d_ = nullptr;
};

}  // namespace decode_lab
