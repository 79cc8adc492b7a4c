// ch15 moe_inference, optimized: one grouped GEMM launch for all experts (moe_inference.cuh). The routing
// kernel already wrote a tile table - (expert, row tile) for every expert's ceil(count / 128) row tiles;
// CTA b takes entry b / 8 and column tile b % 8 (the 8 CTAs of one row tile are adjacent, so its gathered
// x rows are fetched from HBM once and then hit L2). The grid is sized for the most entries there can be
// (T k / 128 + E = 80); CTAs past the table's length exit at once.
// Why it is faster: ~580 busy CTAs in one launch fill the GPU (~2 waves at 2 CTAs per SM) instead of 16
// launches of ~36, each a partial wave that ends with its slowest tile. Same tile code, same FLOPs.
// Expected on H100: ~0.1 ms, ~4x over the per-expert loop. Measured (H100 80GB HBM3, 2026-11-28,
// docs/measurements/ch15_ch16_h100_20261128.md): 263.9 us (130 TFLOP/s incl. routing), 3.04x [2.96, 3.14].
#include "moe_inference.cuh"

namespace {

using namespace moe_inference;

__global__ void __launch_bounds__(kThreads, 2)
    grouped_gemm(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ w, Routing rt,
                 __nv_bfloat16* __restrict__ out) {
  extern __shared__ __align__(16) unsigned char smem[];
  const int entry = blockIdx.x / kColTiles, n0 = (blockIdx.x % kColTiles) * kBN;
  if (entry >= *rt.tile_count) return;
  const int e = rt.tile_expert[entry];
  const int row_begin = rt.expert_begin[e] + rt.tile_row[entry] * kBM;
  expert_tile(x, w + static_cast<int64_t>(e) * kMoeiFfn * kMoeiHidden, rt.token_of_slot, row_begin, rt.expert_begin[e + 1], n0,
              out, smem);
}

class OptimizedMoeInference : public MoeInferenceBase {
 public:
  void run(aisp::Context& ctx) override {
    route(ctx);
    grouped_gemm<<<kMaxRowTiles * kColTiles, kThreads, kSmemBytes, ctx.stream()>>>(
        ctx.buffer("x").as<const __nv_bfloat16>(), ctx.buffer("w").as<const __nv_bfloat16>(), rt_, out_);
    AISP_LAUNCH_CHECK();
    combine(ctx);
  }
  std::string technique() const override { return "grouped GEMM: one launch over a device-built (expert, row tile) table"; }

 protected:
  void prepare() override {
    AISP_CUDA_CHECK(cudaFuncSetAttribute(grouped_gemm, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
  }
};

}  // namespace

AISP_BENCHMARK(OptimizedMoeInference)
