// labs/flash_attention flash_attention_backward: the backward pass of non-causal scaled dot-product
// attention (issue 25 asks for the lab "forward and backward"). Given the forward's inputs Q, K, V, its
// output O, the upstream gradient dO (all bf16, [batch, heads, seq, 128]) and the forward's per-row
// logsumexp L (fp32, natural log, [batch, heads, seq]), compute
//   P  = exp(Q K^T * scale - L)        (the forward's softmax, recomputed from L: no row max/sum pass)
//   dV = P^T dO          dP = dO V^T          D = rowsum(dO * O)          dS = P * (dP - D)
//   dQ = dS K * scale    dK = dS^T Q * scale                              (scale = 1/sqrt(128))
// Outputs dQ, dK, dV in fp32 (what a training step accumulates into; the fused kernel's dQ is summed with
// fp32 atomics across key blocks, so fp32 is its native output).
//   baseline_flash_attention_backward.cu:  unfused: cuBLAS S = Q K^T and dP = dO V^T to fp32 in HBM (1 GiB
//                                          each), one elementwise kernel writing P and dS in bf16, three
//                                          cuBLAS GEMMs for dV, dQ, dK - the framework math path
//   optimized_flash_attention_backward.cu: FlashAttention-2's fused backward on mma.sync: P never leaves the SM
// Workload: batch 1 x 16 heads x seq 4096 x head dim 128 (the size where the baseline's fp32 S and dP fit:
// 2 x 1 GiB, plus 2 x 0.5 GiB of bf16 P and dS). FLOPs: 5 GEMMs of 2 S^2 D per head = 2.5x the forward's
// (the FlashAttention papers' convention, so TFLOP/s compare with theirs).
//
// Inputs (all dynamic, filled by the harness from its seed - not computed in setup by a forward pass): the
// backward is what is timed and it is a function of exactly these six tensors, and the harness refills
// dynamic inputs between samples and for its fresh-input checks, so an O and L derived in setup() from
// Q and K would go stale (deriving anything from dynamic input values is what those checks forbid).
// Their distributions are the forward's: Q, K, V, dO ~ N(0, 1) (scores q.k*scale ~ N(0, 1));
// L ~ U(ln(seq) + 0.4, ln(seq) + 0.6), the logsumexp of seq N(0, sigma^2) scores with sigma^2 = |q|^2/128 =
// 1 +- 0.125 (E e^s = e^{sigma^2/2}), so P has the forward's magnitude (rows sum to ~1, p ~ e^s / (e^0.5 n));
// O ~ N(0, 0.03), the size of a softmax average of ~n/e values v ~ N(0, 1) (sqrt(sum p^2) = sqrt(e/n) = 0.026).
//
// Tolerance (the pair's contract): |x - x_base| <= 5e-4 + 1e-2 |x_base| for dQ, dK, dV.
// Both variants round P and dS to bf16 before their GEMMs (cuBLAS needs bf16 operands; mma.sync too), at
// values computed in different orders (fp32 GEMM vs mma accumulation, expf vs ex2.approx), so count the
// roundings as independent noise of <= 2^-9 relative per term (sigma 2^-9/sqrt(3)). dV_j = sum_i p_ij dO_i
// over 4096 queries: sigma of one side's noise = 2^-9/sqrt(3) * sqrt(sum_i p_ij^2 dO_i^2) ~ 1.1e-3 *
// sqrt(e/n) = 3e-5, between the sides x sqrt(2) = 4.2e-5; the max over 8.4M outputs is ~5.5 sigma ~ 2.3e-4.
// dQ_i = scale * sum_j ds_ij k_j: |dp - D| ~ sqrt(128) = 11.3 = 1/scale, so sum_j ds_ij^2 k^2 * scale^2 ~
// e/n again: the same 2.3e-4 (dS's rounding comes on top of P's, both enter at 2^-9, x sqrt(2) -> ~3.3e-4);
// dK likewise. Hence atol 5e-4 (the outputs themselves are ~0.026: a dropped 64-query tile moves an output
// by ~3e-3, a dropped key block zeroes 1/32 of dK and dV). rtol 1e-2: where an output is large the same
// noise is <= 2 x 2^-9 relative per term (0.4%); fp32 atomics and GEMM order add ~1e-6 relative.
// Against the exact result each side's error has a heavier tail than this Gaussian sum: the largest terms
// (p up to ~0.1 for the top score among the 268M at 4096 tokens) carry up to ~2^-9 x 0.9 = 1.8e-3 alone. Those
// do not separate the variants: both round fp32 values that agree to ~1e-6 relative, hence to the same bf16
// except within ~1e-6 of a rounding boundary (~3e-4 of terms, almost never the few large ones). Measured
// (flash_attention_backward_host_check.cu, H200): both variants are the same distance from a double-precision
// reference at seq 256 and 512 (max 0.9-1.8e-3, identical to 4 digits), and they agree with each other at
// seq 4096 within this tolerance in all 19 of the harness's checks.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "aisp/aisp.hpp"
#include "aisp/axes.hpp"

namespace fa_bwd {

inline constexpr int64_t kHeadDim = 128;  // both variants are written for exactly this head dim

inline aisp::Workload backward_workload() {
  const int64_t batch = 1, heads = 16, seq = aisp::axis("seq", 4096), dim = kHeadDim;
  aisp::Workload w;
  w.params = {{"batch", batch}, {"heads", heads}, {"seq", seq}, {"head_dim", dim}, {"causal", 0}};
  w.precision = aisp::DType::bf16;
  const double rows = static_cast<double>(batch) * heads * seq;
  // Read Q, K, V, O, dO (bf16) and L (fp32) once; write dQ, dK, dV (fp32) once.
  w.bytes = rows * (5.0 * dim * 2 + 4 + 3.0 * dim * 4);
  w.flops = 10.0 * batch * heads * static_cast<double>(seq) * seq * dim;  // 5 GEMMs x 2 S^2 D
  w.items = static_cast<double>(batch) * seq;
  w.item_unit = "tokens";
  return w;
}

// D[row] = sum_d dO[row][d] * O[row][d] in fp32: one warp per row, 4 bf16 of each per lane. Both variants
// run it (FlashAttention-2's "preprocess" kernel; 2 x 16 MiB read, 256 KiB written).
__global__ void __launch_bounds__(256)
    rowdot_kernel(const __nv_bfloat16* __restrict__ dout, const __nv_bfloat16* __restrict__ out, float* __restrict__ d,
                  int64_t rows) {
  const int64_t row = static_cast<int64_t>(blockIdx.x) * 8 + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= rows) return;
  const uint2 a = reinterpret_cast<const uint2*>(dout + row * kHeadDim)[lane];
  const uint2 b = reinterpret_cast<const uint2*>(out + row * kHeadDim)[lane];
  const float2 a0 = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&a.x));
  const float2 a1 = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&a.y));
  const float2 b0 = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&b.x));
  const float2 b1 = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&b.y));
  float s = a0.x * b0.x + a0.y * b0.y + a1.x * b1.x + a1.y * b1.y;
  for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffffu, s, o);
  if (lane == 0) d[row] = s;
}

// The pair's base: workload, buffers, tolerance, the D pre-pass. Variants add their kernels and run().
class FlashAttentionBackwardPair : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return backward_workload(); }

  void setup(aisp::Context& ctx) override {
    const int64_t batch = ctx.param("batch"), heads = ctx.param("heads"), seq = ctx.param("seq");
    if (ctx.param("head_dim") != kHeadDim || seq % 128 != 0)
      throw std::runtime_error("flash_attention_backward: head_dim must be 128 and seq a multiple of 128");
    const aisp::Shape shape{batch, heads, seq, kHeadDim};
    for (const char* name : {"q", "k", "v", "do"}) ctx.input(name, aisp::DType::bf16, shape, aisp::Fill::normal(0.0, 1.0));
    ctx.input("o", aisp::DType::bf16, shape, aisp::Fill::normal(0.0, 0.03));
    const double ln_seq = std::log(static_cast<double>(seq));
    ctx.input("lse", aisp::DType::f32, aisp::Shape{batch, heads, seq}, aisp::Fill::uniform(ln_seq + 0.4, ln_seq + 0.6));
    for (const char* name : {"dq", "dk", "dv"}) ctx.output(name, aisp::DType::f32, shape);
    rows_ = batch * heads * seq;
    d_ = static_cast<float*>(ctx.scratch("d", static_cast<size_t>(rows_) * sizeof(float)));
    setup_variant(ctx);
  }

  aisp::Tolerance tolerance() const override {
    return aisp::Tolerance::loosened(
        1e-2, 5e-4,
        "P and dS rounded to bf16 (GEMM operands) in both variants at values computed in different orders: "
        "independent noise <= 2^-9 per term, sigma ~4e-5 per output between the sides, max over 8.4M outputs "
        "~2.3e-4 (dQ, dK ~3.3e-4 with dS's rounding on top of P's); outputs ~0.026 (derivation in "
        "flash_attention_backward.cuh)");
  }
  // sm_90: the fused variant adds dQ with vector fp32 atomics (atomicAdd on float2, compute capability 9.x+).
  aisp::Requirements requirements() const override { return {.min_compute_capability = 90}; }

 protected:
  virtual void setup_variant(aisp::Context&) {}
  void launch_rowdot(aisp::Context& ctx) {
    rowdot_kernel<<<static_cast<unsigned>((rows_ + 7) / 8), 256, 0, ctx.stream()>>>(
        ctx.buffer("do").as<const __nv_bfloat16>(), ctx.buffer("o").as<const __nv_bfloat16>(), d_, rows_);
    AISP_LAUNCH_CHECK();
  }
  int64_t batch_heads(aisp::Context& ctx) const { return ctx.param("batch") * ctx.param("heads"); }
  static float softmax_scale() { return 1.0f / std::sqrt(static_cast<float>(kHeadDim)); }
  float* d_ = nullptr;  // D = rowsum(dO * O), [batch * heads * seq]
  int64_t rows_ = 0;
};

}  // namespace fa_bwd
