// autotuning: a case study in tuning a kernel's launch configuration for the shape at hand. The kernel is
// split-KV decode attention (decode_step.cuh) for a long-context, small-batch step: 1 sequence x 8 KV
// heads x 32768 cached tokens x head dim 128, bf16 (K + V = 128 MiB), o = softmax(q K^T / sqrt(128)) V.
// Its two knobs: the number of splits per row (CTAs per row; more splits = more parallelism but more
// partials to merge) and U, the K/V rows a warp loads before reducing any score (bytes in flight vs
// registers).
//   baseline_autotuning.cu   the fixed configuration that is right for a batched step (8 splits, U = 8:
//                            ch19's choice for 4 x 32 = 128 rows, ~1024 CTAs) reused for this shape: 8 rows
//                            x 8 splits = 64 CTAs for 132 SMs
//   optimized_autotuning.cu  setup() times every configuration of a small grid (splits 8..256 x U 4, 8) on
//                            the real buffers, keeps the fastest, and caches it by (shape, GPU UUID) so a
//                            second setup() on the same shape and GPU does not search again
// The search runs in setup(), outside every timed window, and reads no input values (only times).
#pragma once
#include <stdexcept>

#include "aisp/aisp.hpp"
#include "aisp/axes.hpp"
#include "decode_step.cuh"

namespace autotune {

constexpr int kMaxSplits = 256;

inline int64_t context() { return aisp::axis("context", 32768); }

class AutotuningBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    const int64_t rows = 8, len = context();
    aisp::Workload w;
    w.params = {{"rows", rows}, {"context", len}, {"head_dim", decode::kD}};
    w.precision = aisp::DType::bf16;
    w.bytes = 2.0 * rows * len * decode::kD * 2 + 2.0 * rows * decode::kD * 2;  // K, V; q, o
    w.flops = 4.0 * rows * len * decode::kD;
    w.items = double(rows) * len;
    w.item_unit = "cached tokens";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    const int64_t rows = ctx.param("rows"), len = ctx.param("context");
    ctx.input("q", aisp::DType::bf16, {rows, decode::kD}, aisp::Fill::normal(0, 1));
    ctx.input("k", aisp::DType::bf16, {rows, len, decode::kD}, aisp::Fill::normal(0, 1));
    ctx.input("v", aisp::DType::bf16, {rows, len, decode::kD}, aisp::Fill::normal(0, 1));
    ctx.output("o", aisp::DType::bf16, {rows, decode::kD});
    ws_.carve(ctx.scratch("partials", decode::SplitWorkspace::bytes(rows, kMaxSplits)), rows, kMaxSplits);
    prepare(ctx);
  }
  // Different split counts sum the same fp32 terms in a different order (~1e-7 relative apart), then both
  // round o to bf16: a value near a rounding boundary can land one bf16 ulp (<= 2^-7 relative) away. atol
  // 1e-4 is for outputs near zero (|o| rms ~0.009 here); leaving out one split moves outputs by ~1e-3.
  aisp::Tolerance tolerance() const override {
    return aisp::Tolerance::loosened(std::ldexp(1.0, -7) * 1.01, 1e-4,
                                     "fp32 partial sums merged in a different order per split count; o rounded to "
                                     "bf16 on both sides (<= 1 ulp = 2^-7 rel); atol 1e-4 ~1/90 of rms |o|");
  }

 protected:
  virtual void prepare(aisp::Context&) {}
  // Enqueues the attention with `splits` splits and unroll `unroll` into `o`.
  void attend(aisp::Context& ctx, int splits, int unroll, __nv_bfloat16* o) {
    const int64_t rows = ctx.param("rows"), len = ctx.param("context");
    const decode_step::LoadCache load{ctx.buffer("k").as<const __nv_bfloat16>(), ctx.buffer("v").as<const __nv_bfloat16>(), len};
    const auto* q = ctx.buffer("q").as<const __nv_bfloat16>();
    if (splits < 1 || splits > kMaxSplits) throw std::runtime_error("autotuning: splits out of range");
    if (unroll == 4) decode_step::launch<4>(ctx.stream(), q, load, rows, len, splits, ws_, o);
    else decode_step::launch<8>(ctx.stream(), q, load, rows, len, splits, ws_, o);
  }
  decode::SplitWorkspace ws_;
};

}  // namespace autotune
