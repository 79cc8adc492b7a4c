// ch20 transformer_block, baseline: the block as an eager framework runs it, op by op through HBM.
//
// Technique: RMSNorm kernel -> cuBLAS QKV GEMM -> head-split copy -> attention as cuBLAS Q K^T (fp32
// scores, all seq x seq per head) -> causal softmax kernel (ch10's, writes bf16 P; rows past 8192 keys
// cached in shared memory) -> cuBLAS P V -> head-merge copy -> cuBLAS out-projection -> residual-add kernel
// -> RMSNorm kernel -> cuBLAS up-projection -> GELU kernel -> cuBLAS down-projection -> residual-add kernel.
// Every GEMM is cuBLAS at full speed; what is naive is the data movement between them.
// Why it is slow: the unfused attention writes and reads the fp32 scores and the probabilities per call
// (16 heads x 16384^2 at the default: 16 GiB of scores, 8 GiB of P, ~48 GiB of HBM traffic) and computes
// the masked half anyway; every elementwise op is a round trip of a [seq][2048] or [seq][8192] activation.
// The attention's traffic grows as seq^2, the GEMMs as seq: the longer the prompt, the larger its share.
// Measured (H200, harness cold mode, 2026-11-28, 14 checks passed, `--axis seq=4096,...,24576`): 1.58 ms at
// 4096, 3.08 at 6144, 4.52 at 8192, 9.75 at 12288, 17.26 at 16384, 40.9 at 24576 tokens. H100 SXM
// (2026-11-25, seq 6144 only): 3.632 ms.
#include "../ch10/attention_unfused.cuh"
#include "transformer_block.cuh"

namespace {

using namespace block;

// One warp per token: n = bf16(x * rstd * g).
__global__ void rmsnorm(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ g, int64_t rows,
                        int dim, __nv_bfloat16* __restrict__ n) {
  const int64_t row = (blockIdx.x * int64_t(blockDim.x) + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (row >= rows) return;
  const uint4* xr = reinterpret_cast<const uint4*>(x + row * dim);
  const float r = rsqrtf(warp_sum(row_sumsq_lane(xr, dim, lane)) / dim + kRmsEps);
  for (int c = lane; c < dim / 8; c += 32) {
    float f[8], gf[8];
    unpack8(xr[c], f);
    unpack8(reinterpret_cast<const uint4*>(g)[c], gf);
#pragma unroll
    for (int i = 0; i < 8; ++i) f[i] = f[i] * r * gf[i];
    reinterpret_cast<uint4*>(n + row * dim)[c] = pack8(f);
  }
}

// [tokens][3 * dim] -> q, k, v, each [batch*heads][seq][128].
__global__ void split_heads(const __nv_bfloat16* __restrict__ qkv, int64_t tokens, int seq, int heads,
                            __nv_bfloat16* __restrict__ q, __nv_bfloat16* __restrict__ k, __nv_bfloat16* __restrict__ v) {
  const int dim = heads * kHeadDim, per_row = 3 * dim / 8;
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i >= tokens * per_row) return;
  const int64_t t = i / per_row, b = t / seq, s = t % seq;
  const int c = static_cast<int>(i % per_row) * 8, which = c / dim, h = (c % dim) / kHeadDim, d = c % kHeadDim;
  __nv_bfloat16* dst = which == 0 ? q : (which == 1 ? k : v);
  *reinterpret_cast<uint4*>(dst + ((b * heads + h) * seq + s) * kHeadDim + d) = reinterpret_cast<const uint4*>(qkv)[i];
}

// out = bf16(a + b), 8 per thread.
__global__ void add(const __nv_bfloat16* __restrict__ a, const __nv_bfloat16* __restrict__ b, int64_t chunks,
                    __nv_bfloat16* __restrict__ out) {
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i >= chunks) return;
  float fa[8], fb[8];
  unpack8(reinterpret_cast<const uint4*>(a)[i], fa);
  unpack8(reinterpret_cast<const uint4*>(b)[i], fb);
#pragma unroll
  for (int j = 0; j < 8; ++j) fa[j] += fb[j];
  reinterpret_cast<uint4*>(out)[i] = pack8(fa);
}

// out = bf16(gelu(u)), 8 per thread (exact erf GELU, ch10's gelu_erf).
__global__ void gelu(const __nv_bfloat16* __restrict__ u, int64_t chunks, __nv_bfloat16* __restrict__ out) {
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i >= chunks) return;
  float f[8];
  unpack8(reinterpret_cast<const uint4*>(u)[i], f);
#pragma unroll
  for (int j = 0; j < 8; ++j) f[j] = 0.5f * f[j] * (1.0f + erff(f[j] * 0.70710678118654752f));
  reinterpret_cast<uint4*>(out)[i] = pack8(f);
}

unsigned grid_for(int64_t threads) { return static_cast<unsigned>((threads + 255) / 256); }

class BaselineTransformerBlock : public TransformerBlockBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t t = tokens(ctx), d = ctx.param("dim"), f = ctx.param("ffn");
    const int seq = static_cast<int>(ctx.param("seq")), heads = static_cast<int>(ctx.param("heads"));
    cudaStream_t st = ctx.stream();
    cublasHandle_t h = ctx.cublas();
    const auto* x = ctx.buffer("x").as<const __nv_bfloat16>();
    rmsnorm<<<grid_for(t * 32), 256, 0, st>>>(x, ctx.buffer("g1").as<const __nv_bfloat16>(), t, static_cast<int>(d), n_);
    AISP_LAUNCH_CHECK();
    cublas_nt(h, n_, ctx.buffer("wqkv").data, qkv_, t, 3 * d, d);
    split_heads<<<grid_for(t * 3 * d / 8), 256, 0, st>>>(qkv_, t, seq, heads, q_, k_, v_);
    AISP_LAUNCH_CHECK();
    attention(ctx, seq, static_cast<int>(ctx.param("batch")) * heads);
    launch_merge_heads(st, o_, t, seq, heads, om_);
    cublas_nt(h, om_, ctx.buffer("wo").data, proj_, t, d, d);
    add<<<grid_for(t * d / 8), 256, 0, st>>>(proj_, x, t * d / 8, a_);
    AISP_LAUNCH_CHECK();
    rmsnorm<<<grid_for(t * 32), 256, 0, st>>>(a_, ctx.buffer("g2").as<const __nv_bfloat16>(), t, static_cast<int>(d), n_);
    AISP_LAUNCH_CHECK();
    cublas_nt(h, n_, ctx.buffer("w1").data, u_, t, f, d);
    gelu<<<grid_for(t * f / 8), 256, 0, st>>>(u_, t * f / 8, u_);
    AISP_LAUNCH_CHECK();
    cublas_nt(h, u_, ctx.buffer("w2").data, proj_, t, d, f);
    add<<<grid_for(t * d / 8), 256, 0, st>>>(proj_, a_, t * d / 8, ctx.buffer("y").as<__nv_bfloat16>());
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override {
    return "eager: cuBLAS GEMMs, matmul-softmax-matmul attention, one kernel per elementwise op";
  }

 protected:
  void prepare(aisp::Context& ctx) override {
    const int64_t t = tokens(ctx), d = ctx.param("dim"), f = ctx.param("ffn"), seq = ctx.param("seq");
    const int64_t bh = ctx.param("batch") * ctx.param("heads");
    // Scores and probabilities grow as seq^2 (24 GiB at 16384): a length that does not fit fails here with its
    // numbers. The activations below: n, qkv (3d), q, k, v, o, o_merged, proj, a (d each) and u (f), bf16.
    attention_unfused::prepare_unfused_attention<true>(bh, seq, 2.0 * t * (11 * d + f), "transformer_block baseline");
    n_ = scratch(ctx, "n", t * d);
    qkv_ = scratch(ctx, "qkv", t * 3 * d);
    q_ = scratch(ctx, "q", t * d);
    k_ = scratch(ctx, "k", t * d);
    v_ = scratch(ctx, "v", t * d);
    s_ = scratch<float>(ctx, "scores", bh * seq * seq);
    p_ = scratch(ctx, "probs", bh * seq * seq);
    o_ = scratch(ctx, "o", t * d);
    om_ = scratch(ctx, "o_merged", t * d);
    proj_ = scratch(ctx, "proj", t * d);
    a_ = scratch(ctx, "a", t * d);
    u_ = scratch(ctx, "u", t * f);
  }

 private:
  // ch10's unfused attention on [bh][seq][128]: S = scale Q K^T (fp32), causal softmax -> bf16 P, O = P V.
  void attention(aisp::Context& ctx, int seq, int bh) {
    const int dh = kHeadDim;
    const int64_t head = static_cast<int64_t>(seq) * dh, square = static_cast<int64_t>(seq) * seq;
    const float scale = softmax_scale(), one = 1.0f, zero = 0.0f;
    cublasHandle_t h = ctx.cublas();
    AISP_CUBLAS_CHECK(cublasGemmStridedBatchedEx(h, CUBLAS_OP_T, CUBLAS_OP_N, seq, seq, dh, &scale, k_, CUDA_R_16BF,
                                                 dh, head, q_, CUDA_R_16BF, dh, head, &zero, s_, CUDA_R_32F, seq,
                                                 square, bh, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    attention_unfused::launch_softmax_rows<true>(s_, p_, static_cast<int64_t>(bh) * seq, seq, ctx.stream());
    AISP_CUBLAS_CHECK(cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, dh, seq, seq, &one, v_, CUDA_R_16BF, dh,
                                                 head, p_, CUDA_R_16BF, seq, square, &zero, o_, CUDA_R_16BF, dh, head,
                                                 bh, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  }

  __nv_bfloat16 *n_ = nullptr, *qkv_ = nullptr, *q_ = nullptr, *k_ = nullptr, *v_ = nullptr, *p_ = nullptr;
  __nv_bfloat16 *o_ = nullptr, *om_ = nullptr, *proj_ = nullptr, *a_ = nullptr, *u_ = nullptr;
  float* s_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(BaselineTransformerBlock)
