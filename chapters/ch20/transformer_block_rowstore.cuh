// transformer_block_rowstore: the optimized transformer block (optimized_transformer_block.cu: same ops, same
// launches, same flash attention, same rounding points) with its four GEMMs on bf16_mlp's GEMM kernel
// (bf16_mlp_gemm.cuh: ch10's main loop, static weights' rows permuted once in setup() so that every epilogue
// stores whole 16-byte runs of a natural output row instead of ch10's two-column 2-4-byte stores, each
// touching 8 rows). Epilogues, all on 16-byte runs:
//   QKV       rstd1 row scale + head split into the attention's [head][seq][128] layout (a 256-column tile
//             lies inside one of q, k, v and each 8-column run inside one head)
//   out-proj  + residual x (RowResidual); with kFuseNorm2 it also sums the squares of the rounded a per row
//             (4-lane shuffle, one fp32 atomicAdd per row and tile: 8 per row) so that the separate
//             rstd2 = 1/rms(a) pass (a 25 MiB read and a launch) goes away; the up GEMM's epilogue takes
//             rsqrt(sum / d + eps) itself. The sum is zeroed by the first norm kernel of the same call.
//   up        rstd2 row scale + exact (erf) GELU; with kUpPingPong on the ping-pong schedule (consumer
//             warpgroups on alternate 64-row tiles), so that one warpgroup's GELU epilogue (~128 erff per
//             thread and tile: a few us of a ~20 us tile) runs under the other's main loop
//   down      + residual a (RowResidual)
// Numerics: identical to optimized_transformer_block.cu up to the permutation (each output is the same dot
// product in the same K order) and, with kFuseNorm2, the fp32 summation order of sum(a^2) (~1e-7 relative).
#pragma once
#include <algorithm>

#include "../ch10/flash_attention_wgmma.cuh"
#include "bf16_mlp_gemm.cuh"
#include "block_flash.cuh"
#include "transformer_block.cuh"

namespace tb_rowstore {

using namespace block;
using mlp_gemm::pack_bf16x2;

// rstd[row] = 1/rms(x[row]) (as block::row_rstd) and, if zero != nullptr, zero[row] = 0 (the fused sum of
// squares of this call's out-projection starts from 0).
__global__ void row_rstd_zero(const __nv_bfloat16* __restrict__ x, int64_t rows, int dim, float* __restrict__ rstd,
                              float* __restrict__ zero) {
  const int64_t row = (blockIdx.x * int64_t(blockDim.x) + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (row >= rows) return;
  const float ss = warp_sum(row_sumsq_lane(reinterpret_cast<const uint4*>(x + row * dim), dim, lane));
  if (lane == 0) {
    rstd[row] = rsqrtf(ss / dim + kRmsEps);
    if (zero) zero[row] = 0.0f;
  }
}

// The 8 accumulators of run k (natural columns col0 + 32k + 8q .. +8) of row half hh, as in mlp_gemm::RowStore.
__device__ __forceinline__ float run_val(const float (&acc)[128], int k, int p, int hh, int e) {
  return acc[4 * (4 * k + p) + 2 * hh + e];
}

// QKV: dst = bf16(rstd[row] * acc), columns [0, d) -> q, [d, 2d) -> k, [2d, 3d) -> v, each [b*heads][seq][128].
struct RowQkv {
  __nv_bfloat16 *q, *k, *v;
  const float* rstd;
  int seq, heads, dim;
  __device__ __forceinline__ void operator()(const float (&acc)[128], int r, int col0, int qd) const {
    const int which = col0 / dim;  // a 256-column tile never straddles q/k/v (dim % 256 == 0)
    __nv_bfloat16* dst = which == 0 ? q : (which == 1 ? k : v);
    const int c0 = col0 % dim + 8 * qd;
#pragma unroll
    for (int hh = 0; hh < 2; ++hh) {
      const int row = r + 8 * hh;
      const float rs = rstd[row];
      const int64_t b = row / seq, s = row % seq;
#pragma unroll
      for (int kk = 0; kk < 8; ++kk) {
        const int c = c0 + 32 * kk, h = c / kHeadDim, d = c % kHeadDim;
        uint32_t w[4];
#pragma unroll
        for (int p = 0; p < 4; ++p) w[p] = pack_bf16x2(run_val(acc, kk, p, hh, 0) * rs, run_val(acc, kk, p, hh, 1) * rs);
        *reinterpret_cast<uint4*>(dst + ((b * heads + h) * seq + s) * kHeadDim + d) = make_uint4(w[0], w[1], w[2], w[3]);
      }
    }
  }
};

// out-proj: a = bf16(acc + x); with ss != nullptr also ss[row] += sum over this tile's columns of a^2 (rounded a).
struct RowResidualSumSq {
  __nv_bfloat16* out;
  const __nv_bfloat16* residual;
  float* ss;
  int ld;
  __device__ __forceinline__ void operator()(const float (&acc)[128], int r, int col0, int qd) const {
#pragma unroll
    for (int hh = 0; hh < 2; ++hh) {
      const int64_t base = static_cast<int64_t>(r + 8 * hh) * ld + col0 + 8 * qd;
      float sum = 0.0f;
#pragma unroll
      for (int kk = 0; kk < 8; ++kk) {
        const uint4 rv = *reinterpret_cast<const uint4*>(residual + base + 32 * kk);
        const __nv_bfloat162* rh = reinterpret_cast<const __nv_bfloat162*>(&rv);
        uint32_t w[4];
#pragma unroll
        for (int p = 0; p < 4; ++p) {
          const float2 x = __bfloat1622float2(rh[p]);
          const __nv_bfloat162 a = __floats2bfloat162_rn(run_val(acc, kk, p, hh, 0) + x.x, run_val(acc, kk, p, hh, 1) + x.y);
          w[p] = *reinterpret_cast<const uint32_t*>(&a);
          const float2 af = __bfloat1622float2(a);
          sum = fmaf(af.x, af.x, fmaf(af.y, af.y, sum));
        }
        *reinterpret_cast<uint4*>(out + base + 32 * kk) = make_uint4(w[0], w[1], w[2], w[3]);
      }
      if (ss) {  // the row's 4 threads (lanes 4i .. 4i + 3) hold its 256 columns of this tile
        sum += __shfl_xor_sync(0xffffffffu, sum, 1);
        sum += __shfl_xor_sync(0xffffffffu, sum, 2);
        if (qd == 0) atomicAdd(ss + r + 8 * hh, sum);
      }
    }
  }
};

// up: h = bf16(GELU(rstd * acc)), exact (erf) GELU as the baseline's kernel. rstd from a per-row value:
// either rstd itself (sumsq == false) or the fused sum of squares (rsqrt(ss / d + eps), as row_rstd computes).
template <bool kFromSumSq>
struct RowRstdGelu {
  __nv_bfloat16* h;
  const float* rs;
  int ld, dim;
  __device__ __forceinline__ static float gelu(float x) { return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f)); }
  __device__ __forceinline__ void operator()(const float (&acc)[128], int r, int col0, int qd) const {
#pragma unroll
    for (int hh = 0; hh < 2; ++hh) {
      const float v = rs[r + 8 * hh];
      const float s = kFromSumSq ? rsqrtf(v / dim + kRmsEps) : v;
      __nv_bfloat16* row = h + static_cast<int64_t>(r + 8 * hh) * ld + col0 + 8 * qd;
#pragma unroll
      for (int kk = 0; kk < 8; ++kk) {
        uint32_t w[4];
#pragma unroll
        for (int p = 0; p < 4; ++p)
          w[p] = pack_bf16x2(gelu(run_val(acc, kk, p, hh, 0) * s), gelu(run_val(acc, kk, p, hh, 1) * s));
        *reinterpret_cast<uint4*>(row + 32 * kk) = make_uint4(w[0], w[1], w[2], w[3]);
      }
    }
  }
};

// The static weights as every 16-byte-run block uses them (here and transformer_block_deferred.cuh), made
// once in setup(): the RMSNorm gains folded into Wqkv and W1 (as the optimized variant), then every
// weight's rows permuted so that each thread's accumulators are whole 16-byte runs of an output row.
struct PermutedWeights {
  __nv_bfloat16 *wqkv = nullptr, *wo = nullptr, *w1 = nullptr, *w2 = nullptr;
};

inline PermutedWeights prepare_permuted_weights(aisp::Context& ctx, int64_t d, int64_t f) {
  auto scratch = [&](const char* name, int64_t count) {
    return static_cast<__nv_bfloat16*>(ctx.scratch(name, static_cast<size_t>(count) * sizeof(__nv_bfloat16)));
  };
  const auto in = [&](const char* name) { return ctx.buffer(name).as<const __nv_bfloat16>(); };
  const int di = static_cast<int>(d);
  cudaStream_t st = ctx.stream();
  auto* tmp = scratch("w_tmp", std::max(3 * d * d, f * d));
  PermutedWeights w{scratch("wqkv_g1_perm", 3 * d * d), scratch("wo_perm", d * d), scratch("w1_g2_perm", f * d),
                    scratch("w2_perm", d * f)};
  launch_fold_gain(st, in("wqkv"), in("g1"), 3 * d, di, tmp);
  mlp_gemm::launch_permute_rows(st, tmp, nullptr, 3 * d, di, w.wqkv);
  launch_fold_gain(st, in("w1"), in("g2"), f, di, tmp);
  mlp_gemm::launch_permute_rows(st, tmp, nullptr, f, di, w.w1);
  mlp_gemm::launch_permute_rows(st, in("wo"), nullptr, d, di, w.wo);
  mlp_gemm::launch_permute_rows(st, in("w2"), nullptr, d, static_cast<int>(f), w.w2);
  AISP_CUDA_CHECK(cudaStreamSynchronize(st));
  return w;
}

template <bool kUpPingPong, bool kFuseNorm2>
class RowstoreBlock : public TransformerBlockBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t t = tokens(ctx), d = ctx.param("dim"), f = ctx.param("ffn");
    const int seq = static_cast<int>(ctx.param("seq")), heads = static_cast<int>(ctx.param("heads"));
    const int bh = static_cast<int>(ctx.param("batch")) * heads, di = static_cast<int>(d);
    cudaStream_t st = ctx.stream();
    const auto* x = ctx.buffer("x").as<const __nv_bfloat16>();
    row_rstd_zero<<<static_cast<unsigned>((t * 32 + 255) / 256), 256, 0, st>>>(x, t, di, act_.rstd1,
                                                                               kFuseNorm2 ? ss2_ : nullptr);
    AISP_LAUNCH_CHECK();
    qkv_.launch(st, x, w_.wqkv, RowQkv{act_.q, act_.k, act_.v, act_.rstd1, seq, heads, di}, t, 3 * d, d);
    flash_.launch(st, act_.o, seq, bh, softmax_scale());
    launch_merge_heads(st, act_.o, t, seq, heads, act_.om);
    out_.launch(st, act_.om, w_.wo, RowResidualSumSq{act_.a, x, kFuseNorm2 ? ss2_ : nullptr, di}, t, d, d);
    if constexpr (!kFuseNorm2) launch_row_rstd(st, act_.a, t, di, act_.rstd2);
    up_.launch(st, act_.a, w_.w1, RowRstdGelu<kFuseNorm2>{act_.h, kFuseNorm2 ? ss2_ : act_.rstd2, static_cast<int>(f), di}, t,
               f, d);
    down_.launch(st, act_.h, w_.w2, mlp_gemm::RowResidual{ctx.buffer("y").as<__nv_bfloat16>(), act_.a, di}, t, d, f);
  }
  std::string technique() const override {
    return std::string("wgmma GEMMs with 16-byte-run fused epilogues (weights' rows permuted in setup)") +
           (kUpPingPong ? ", ping-pong up GEMM (GELU epilogue overlapped)" : "") +
           (kFuseNorm2 ? ", second RMSNorm's sum of squares in the out-projection epilogue" : "") +
           " + FA3-style flash attention";
  }

 protected:
  void prepare(aisp::Context& ctx) override {
    const int64_t t = tokens(ctx), d = ctx.param("dim"), f = ctx.param("ffn");
    const int64_t bh = ctx.param("batch") * ctx.param("heads");
    act_ = block::alloc_fused_activations(ctx, t, d, f, true);
    ss2_ = scratch<float>(ctx, "sumsq2", t);
    w_ = tb_rowstore::prepare_permuted_weights(ctx, d, f);
    const aisp::DeviceInfo& dev = ctx.device();
    qkv_.prepare(dev, t, 3 * d, d);
    out_.prepare(dev, t, d, d);
    up_.prepare(dev, t, f, d);
    down_.prepare(dev, t, d, f);
    flash_.prepare(act_.q, act_.k, act_.v, bh * ctx.param("seq"));
  }

 private:
  mlp_gemm::Gemm<false, 1, RowQkv> qkv_;
  mlp_gemm::Gemm<false, 1, RowResidualSumSq> out_;
  mlp_gemm::Gemm<kUpPingPong, 1, RowRstdGelu<kFuseNorm2>> up_;
  mlp_gemm::Gemm<false, 1, mlp_gemm::RowResidual> down_;
  BlockFlash flash_;
  block::FusedActivations act_;
  float* ss2_ = nullptr;
  tb_rowstore::PermutedWeights w_;
};

}  // namespace tb_rowstore
