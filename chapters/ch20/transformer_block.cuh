// transformer_block: one pre-norm decoder block forward over a long prompt (prefill), bf16 storage, fp32
// accumulation, causal attention:
//   n1 = RMSNorm(x) * g1;  [q k v] = n1 Wqkv^T;  o = softmax(q k^T / sqrt(128), causal) v per head;
//   a = x + o Wo^T;  n2 = RMSNorm(a) * g2;  y = a + GELU(n2 W1^T) W2^T
// Default: 1 sequence x 16384 tokens (a 16K-token prompt, FlashAttention-3's long-sequence setting and
// labs/flash_attention's), hidden 2048 = 16 heads x 128, MLP 8192; `--axis seq=...` sweeps the length. The
// speedup grows with it, because the baseline's attention moves seq^2 scores and probabilities through HBM
// while both sides' GEMMs grow as seq: measured on the H200 (README) 2.1x at 4096, 2.6x at 6144, 2.7x at
// 8192, 3.5x at 12288, 4.3x at 16384, 5.7x at 24576.
//   baseline_transformer_block.cu   naive, the way an eager framework runs it: cuBLAS for every GEMM, the
//                                   attention as matmul -> softmax -> matmul through HBM (the full seq x
//                                   seq score matrix per head, masked afterwards), a kernel per elementwise
//                                   op (norms, head split/merge, residual adds, GELU): 14 launches
//   optimized_transformer_block.cu  ch10's building blocks: the persistent warp-specialized wgmma GEMM with
//                                   fused epilogues (norm scale + head split, residual add, norm scale +
//                                   GELU, residual add) and the FlashAttention-3-style wgmma kernel; RMSNorm
//                                   gains folded into the weights: 8 launches, no score matrix
//   optimized_transformer_block_rowstore*.cu  the same block with its GEMMs on bf16_mlp_gemm.cuh's kernel
//                                   (16-byte-run epilogues over row-permuted weights; transformer_block_rowstore.cuh),
//                                   optionally a ping-pong up GEMM and the second norm's statistics in an epilogue
//   optimized_transformer_block_deferred*.cu  the rowstore block with each GEMM's epilogue finished under the
//                                   next tile's main loop (transformer_block_deferred.cuh), the out-projection
//                                   reading the attention's heads layout (no merge pass), optionally PDL and a
//                                   branch-free GELU; best: transformer_block_deferred_heads_polygelu
// Weights are static inputs scaled so activations stay O(1) (U(+-sqrt(3/fan_in)): unit-variance outputs),
// RMSNorm gains U(0.8, 1.2); x ~ N(0, 1).
#pragma once
#include <cmath>
#include <stdexcept>

#include "../ch10/flash_attention.cuh"
#include "aisp/aisp.hpp"
#include "aisp/axes.hpp"
#include "block_kernels.cuh"

inline int64_t transformer_block_seq() { return aisp::axis("seq", 16384); }

class TransformerBlockBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    const int64_t b = 1, s = transformer_block_seq(), d = 2048, h = 16, f = 8192, t = b * s;
    aisp::Workload w;
    w.params = {{"batch", b}, {"seq", s}, {"dim", d}, {"heads", h}, {"ffn", f}};
    w.precision = aisp::DType::bf16;
    const double weights = 3.0 * d * d + double(d) * d + 2.0 * d * f;
    w.bytes = 2.0 * (weights + 2.0 * d) + 2.0 * 2.0 * t * d;  // weights, gains; x read, y written
    // GEMMs, plus causal attention counted as FlashAttention does (4 s^2 d per head, half of it masked).
    w.flops = 2.0 * t * weights + 4.0 * b * h * double(s) * s * block::kHeadDim * 0.5;
    w.items = double(t);
    w.item_unit = "tokens";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    const int64_t t = tokens(ctx), d = ctx.param("dim"), f = ctx.param("ffn");
    if (ctx.param("heads") * block::kHeadDim != d || ctx.param("seq") % 128 || t % 256)
      throw std::runtime_error("transformer_block: dim must be heads x 128, seq a multiple of 128, tokens of 256");
    const auto wfill = [](int64_t fan_in) {
      const double a = std::sqrt(3.0 / static_cast<double>(fan_in));
      return aisp::Fill::uniform(-a, a);
    };
    ctx.input("x", aisp::DType::bf16, {t, d}, aisp::Fill::normal(0, 1));
    ctx.input("g1", aisp::DType::bf16, {d}, aisp::Fill::uniform(0.8, 1.2), aisp::Role::static_);
    ctx.input("wqkv", aisp::DType::bf16, {3 * d, d}, wfill(d), aisp::Role::static_);
    ctx.input("wo", aisp::DType::bf16, {d, d}, wfill(d), aisp::Role::static_);
    ctx.input("g2", aisp::DType::bf16, {d}, aisp::Fill::uniform(0.8, 1.2), aisp::Role::static_);
    ctx.input("w1", aisp::DType::bf16, {f, d}, wfill(d), aisp::Role::static_);
    ctx.input("w2", aisp::DType::bf16, {d, f}, wfill(f), aisp::Role::static_);
    ctx.output("y", aisp::DType::bf16, {t, d});
    prepare(ctx);
  }
  // The two variants round in different places: the baseline stores n1, q/k/v, the attention probabilities
  // P (normalized), the projections, n2 and the MLP pre-activation in bf16 before the next op; the optimized
  // one keeps them in fp32 up to its epilogues, rounds P unnormalized inside the flash kernel and folds the
  // RMSNorm gains into bf16 weights. Each rounding is half a bf16 ulp (2^-9 relative) of an O(1) value; the
  // GEMMs that follow average them over >= 2048 independent terms of weight rms <= 0.022, so what reaches y
  // is ~1e-3 (the attention's early causal rows, where ch10 measured 1.6e-2 on o itself, are averaged by Wo
  // the same way). Two roundings pass through unaveraged:
  //  - y = a + MLP is O(1) (rms ~1.3) and rounded to bf16 once on each side: up to one ulp (2^-7 relative)
  //    apart, hence rtol 2e-2;
  //  - the residual stream a = x + o Wo^T is itself rounded to bf16 on both sides from fp32 values ~1e-3
  //    apart, so near a rounding boundary the two a's land one ulp of a apart, and y = a + MLP carries that
  //    ulp whatever |y| is (y ~ 0 where the MLP cancels a). a is ~x (rms ~1): its largest values over 16M+
  //    elements are ~5-6 sigma, in [4, 8), where one ulp is 2^-5 = 0.031 absolute.
  // Hence atol 5e-2 = 2^-5 + ~1e-2 (~10 sigma of the averaged differences). (The first derivation stopped at
  // 3e-2, below that ulp, and one element of 16.8M failed a fresh-input audit at seq 8192 on the H200 in
  // 2026-11-28's sweep; the audit's message did not yet name the element or its error, so that this was the
  // mechanism is the derivation's claim, not a measurement.) A missing head, residual or MLP term still moves outputs by
  // O(0.1-1).
  aisp::Tolerance tolerance() const override {
    return aisp::Tolerance::loosened(
        2e-2, 5e-2,
        "bf16 intermediates rounded at different points (n1, qkv, P, projections, pre-GELU) and RMSNorm gains "
        "folded into bf16 weights: ~1e-3 at y after the GEMMs average them; y (rms ~1.3) rounded to bf16 on "
        "both sides (<= 1 ulp = 2^-7 rel); the residual a rounded to bf16 on both sides (1 ulp of |a| < 8 = "
        "2^-5 abs, carried into y unaveraged)");
  }
  aisp::Requirements requirements() const override { return {.min_compute_capability = 90}; }

 protected:
  virtual void prepare(aisp::Context&) = 0;
  static int64_t tokens(aisp::Context& ctx) { return ctx.param("batch") * ctx.param("seq"); }
  template <class T = __nv_bfloat16>
  static T* scratch(aisp::Context& ctx, const char* name, int64_t count) {
    return static_cast<T*>(ctx.scratch(name, static_cast<size_t>(count) * sizeof(T)));
  }
  static float softmax_scale() { return 1.0f / std::sqrt(static_cast<float>(block::kHeadDim)); }
};
