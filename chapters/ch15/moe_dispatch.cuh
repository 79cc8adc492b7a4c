// moe_dispatch: the data movement around a mixture-of-experts layer: dispatch (group the token copies by
// expert), the experts, combine (weighted sum of each token's k expert outputs). T = 8192 tokens of hidden
// 2048 (bf16), top-k = 2 of E = 64 experts; the router's choice (`topk_ids`, `gates`) is a dynamic input.
// The expert is a stand-in that keeps the pair about movement: a diagonal linear layer, out = x * s_e
// (s: static [E][H]), applied to the grouped rows as a grouped GEMM would be. Combine: y[t] = sum_j
// gates[t][j] * out(t, j), j in order 0..k-1, FP32 then BF16. Both variants run the same three phases on the
// same row layout (expert outputs kept in BF16, as a grouped GEMM writes them), so outputs match bit for bit:
//   baseline_moe_dispatch.cu    the per-expert loop of eager MoE code (`idx = where(ids == e); x[idx] ...`):
//                               per expert a gather that scans every assignment, the expert on its rows, a
//                               scatter back to (token, j) slots: 3 launches x 64 experts, 64 full scans
//   optimized_moe_dispatch.cu   one routing kernel (histogram, prefix sum, slot of every assignment), one
//                               permutation kernel that gathers all rows at once, the experts over the
//                               whole grouped buffer, one combine kernel that un-permutes while it sums
// Traffic (both): x read twice (gather, or once per copy), grouped rows written and read 2x, y written:
// ~230 MB, ~80 us at HBM speed; the baseline adds 192 launches of mostly idle blocks and 64 scans.
// Expected on H100: baseline ~1 ms, optimized ~0.15 ms: ~6x.
#pragma once
#include <cuda_bf16.h>

#include <cstdint>

#include "aisp/aisp.hpp"

inline constexpr int64_t kMoeTokens = 8192, kMoeHidden = 2048, kMoeExperts = 64, kMoeTopk = 2;

namespace moe_dispatch {

constexpr int kRowVecs = static_cast<int>(kMoeHidden / 8);  // 16-byte vectors (8 bf16) per row: 256

// out_row = in_row * s_e (bf16 in, fp32 product, bf16 out): the expert stand-in, one warp per row.
__device__ __forceinline__ void expert_row(const __nv_bfloat16* __restrict__ in, const __nv_bfloat16* __restrict__ s,
                                           __nv_bfloat16* __restrict__ out, int lane) {
  for (int v = lane; v < kRowVecs; v += 32) {
    const uint4 a = reinterpret_cast<const uint4*>(in)[v], b = reinterpret_cast<const uint4*>(s)[v];
    const __nv_bfloat162* ah = reinterpret_cast<const __nv_bfloat162*>(&a);
    const __nv_bfloat162* bh = reinterpret_cast<const __nv_bfloat162*>(&b);
    uint4 r;
    __nv_bfloat162* rh = reinterpret_cast<__nv_bfloat162*>(&r);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const float2 fa = __bfloat1622float2(ah[j]), fb = __bfloat1622float2(bh[j]);
      rh[j] = __floats2bfloat162_rn(fa.x * fb.x, fa.y * fb.y);
    }
    reinterpret_cast<uint4*>(out)[v] = r;
  }
}

// y_row = sum_j g[j] * rows[j] in order j = 0..k-1, FP32, then BF16. One warp per token.
__device__ __forceinline__ void combine_row(const __nv_bfloat16* const (&rows)[kMoeTopk], const float (&g)[kMoeTopk],
                                            __nv_bfloat16* __restrict__ y, int lane) {
  for (int v = lane; v < kRowVecs; v += 32) {
    float acc[8] = {};
#pragma unroll
    for (int j = 0; j < kMoeTopk; ++j) {
      const uint4 a = reinterpret_cast<const uint4*>(rows[j])[v];
      const __nv_bfloat162* ah = reinterpret_cast<const __nv_bfloat162*>(&a);
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const float2 f = __bfloat1622float2(ah[e]);
        acc[2 * e] = __fmaf_rn(g[j], f.x, acc[2 * e]);
        acc[2 * e + 1] = __fmaf_rn(g[j], f.y, acc[2 * e + 1]);
      }
    }
    uint4 r;
    __nv_bfloat162* rh = reinterpret_cast<__nv_bfloat162*>(&r);
#pragma unroll
    for (int e = 0; e < 4; ++e) rh[e] = __floats2bfloat162_rn(acc[2 * e], acc[2 * e + 1]);
    reinterpret_cast<uint4*>(y)[v] = r;
  }
}

}  // namespace moe_dispatch

class MoeDispatchBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"tokens", kMoeTokens}, {"hidden", kMoeHidden}, {"experts", kMoeExperts}, {"topk", kMoeTopk}};
    w.precision = aisp::DType::bf16;
    const double row = 2.0 * kMoeHidden;
    // Minimum: x read once, y written once, the routing read once, s read once. The grouped copies are the
    // technique's own traffic, not the problem's.
    w.bytes = 2.0 * kMoeTokens * row + kMoeTokens * kMoeTopk * 8.0 + kMoeExperts * row;
    w.flops = 3.0 * kMoeTokens * kMoeTopk * kMoeHidden;  // expert multiply + combine FMA
    w.items = double(kMoeTokens);
    w.item_unit = "tokens";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    const int64_t t = ctx.param("tokens"), h = ctx.param("hidden"), e = ctx.param("experts"), k = ctx.param("topk");
    ctx.input("x", aisp::DType::bf16, {t, h});
    ctx.input("topk_ids", aisp::DType::i32, {t, k}, aisp::Fill::int_range(0, e - 1));
    ctx.input("gates", aisp::DType::f32, {t, k}, aisp::Fill::uniform(0, 1));
    ctx.input("s", aisp::DType::bf16, {e, h}, aisp::Fill::uniform(-2, 2), aisp::Role::static_);
    ctx.output("y", aisp::DType::bf16, {t, h});
    // Both variants hold the T*k grouped rows and their expert outputs (64 MiB each).
    grouped_ = static_cast<__nv_bfloat16*>(ctx.scratch("grouped", size_t(t * k * h) * sizeof(__nv_bfloat16)));
    expert_out_ = static_cast<__nv_bfloat16*>(ctx.scratch("expert_out", size_t(t * k * h) * sizeof(__nv_bfloat16)));
  }

 protected:
  __nv_bfloat16* grouped_ = nullptr;
  __nv_bfloat16* expert_out_ = nullptr;
};
