// ch15 moe_inference, baseline: the per-expert GEMM loop (moe_inference.cuh): route, then for each of the
// 16 experts one launch of the 128 x 128 tensor-core tile kernel over that expert's gathered rows (grid
// sized for the worst case, 32 row tiles x 8 column tiles; tiles past the expert's count exit at once),
// then combine. Each launch has ~36 busy CTAs: a quarter of the GPU, one partial wave, and the next expert
// starts only when the slowest tile of this one ends. Expected on H100: ~0.4 ms. Measured (H100 80GB HBM3, 2026-11-28,
// docs/measurements/ch15_ch16_h100_20261128.md): 802.3 us.
#include "moe_inference.cuh"

namespace {

using namespace moe_inference;

constexpr int kWorstRowTiles = static_cast<int>(kMoeiTokens) / kBM;  // top-2 picks distinct experts: <= T rows

__global__ void __launch_bounds__(kThreads, 2)
    expert_gemm(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ w, Routing rt, int e,
                __nv_bfloat16* __restrict__ out) {
  extern __shared__ __align__(16) unsigned char smem[];
  const int row_tile = blockIdx.x / kColTiles, n0 = (blockIdx.x % kColTiles) * kBN;
  const int begin = rt.expert_begin[e], end = rt.expert_begin[e + 1];
  const int row_begin = begin + row_tile * kBM;
  if (row_begin >= end) return;
  expert_tile(x, w + static_cast<int64_t>(e) * kMoeiFfn * kMoeiHidden, rt.token_of_slot, row_begin, end, n0, out, smem);
}

class BaselineMoeInference : public MoeInferenceBase {
 public:
  void run(aisp::Context& ctx) override {
    route(ctx);
    const auto* x = ctx.buffer("x").as<const __nv_bfloat16>();
    const auto* w = ctx.buffer("w").as<const __nv_bfloat16>();
    for (int e = 0; e < kMoeiExperts; ++e) {
      expert_gemm<<<kWorstRowTiles * kColTiles, kThreads, kSmemBytes, ctx.stream()>>>(x, w, rt_, e, out_);
      AISP_LAUNCH_CHECK();
    }
    combine(ctx);
  }
  std::string technique() const override { return "per-expert loop: one tensor-core GEMM launch per expert"; }

 protected:
  void prepare() override {
    AISP_CUDA_CHECK(cudaFuncSetAttribute(expert_gemm, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
  }
};

}  // namespace

AISP_BENCHMARK(BaselineMoeInference)
