// labs/moe: a mixture-of-experts layer's routed expert GEMMs, from eager per-expert code to one grouped
// GEMM that gathers its own rows. The problem is ch15's moe_inference (chapters/ch15/moe_inference.cuh,
// included, not copied): T = 4096 tokens of hidden 2048 (bf16, dynamic), router logits over E = 16 experts
// (fp32, dynamic), top-2 with softmax gates, expert e an up-projection W_e [1024][2048] (bf16, static),
//   y[t] = g0 * (x_t W_{e0}^T) + g1 * (x_t W_{e1}^T)        (bf16 out; expert outputs rounded to bf16 first)
// 34.4 GFLOP, 67 MB of weights. Every variant computes an expert row with ch15's expert_tile (128 x 128 x 32
// mma.sync tile, 3-stage cp.async, A rows read through a row table) and sums with ch15's combine, so the
// outputs are bit-identical whatever the row order (a row's result depends only on its own A row and W_e).
//   baseline_moe.cu                   eager per-expert loop: top-k kernel, then per expert a gather that
//                                     scans all 8192 assignments, a GEMM on the gathered rows, a scatter to
//                                     the (token, j) slots: 48 launches; combine
//   optimized_moe_sorted_dispatch.cu  step 1: one routing kernel (histogram, prefix sum, every assignment's
//                                     slot: a counting sort by expert), one permutation kernel for all rows,
//                                     still one GEMM launch per expert on the sorted buffer
//   optimized_moe_grouped_gemm.cu     step 2: the routing kernel also writes a (expert, row tile) table; one
//                                     grouped GEMM launch covers every expert's tiles
//   optimized_moe.cu                  step 3: no permuted copy of x: the grouped GEMM gathers its A rows
//                                     through slot -> token (ch15's optimized kernel)
#pragma once
#include <vector>

#include "../../chapters/ch15/moe_inference.cuh"

namespace moe_lab {

using namespace moe_inference;
constexpr int kTokens = static_cast<int>(kMoeiTokens), kHidden = static_cast<int>(kMoeiHidden);
constexpr int kFfn = static_cast<int>(kMoeiFfn), kExperts = static_cast<int>(kMoeiExperts);
constexpr int kTopk = static_cast<int>(kMoeiTopk);
constexpr int kWorstRowTiles = kTokens / kBM;  // top-2 picks two distinct experts: <= T rows per expert

// One tile of rows [bounds[0] + row_tile * 128, bounds[1]) of one expert's segment; A rows through row_table.
// Grid: worst-case row tiles x column tiles; tiles past the segment's end exit at once (the count is on the
// device: no host round trip).
__global__ void __launch_bounds__(kThreads, 2)
    segment_gemm(const __nv_bfloat16* __restrict__ a, const int* __restrict__ row_table, const __nv_bfloat16* __restrict__ w_e,
                 const int* __restrict__ bounds, __nv_bfloat16* __restrict__ out) {
  extern __shared__ __align__(16) unsigned char smem[];
  const int row_tile = blockIdx.x / kColTiles, n0 = (blockIdx.x % kColTiles) * kBN;
  const int begin = bounds[0], end = bounds[1], row_begin = begin + row_tile * kBM;
  if (row_begin >= end) return;
  expert_tile(a, w_e, row_table, row_begin, end, n0, out, smem);
}

// Every expert's tiles in one launch, from the device-built tile table (ch15's grouped schedule).
__global__ void __launch_bounds__(kThreads, 2)
    grouped_gemm(const __nv_bfloat16* __restrict__ a, const int* __restrict__ row_table, const __nv_bfloat16* __restrict__ w,
                 Routing rt, __nv_bfloat16* __restrict__ out) {
  extern __shared__ __align__(16) unsigned char smem[];
  const int entry = blockIdx.x / kColTiles, n0 = (blockIdx.x % kColTiles) * kBN;
  if (entry >= *rt.tile_count) return;
  const int e = rt.tile_expert[entry];
  const int row_begin = rt.expert_begin[e] + rt.tile_row[entry] * kBM;
  expert_tile(a, w + static_cast<int64_t>(e) * kFfn * kHidden, row_table, row_begin, rt.expert_begin[e + 1], n0, out, smem);
}

// grouped[slot] = x[token_of_slot[slot]]: one warp per row, 16-byte copies.
__global__ void permute_rows(const __nv_bfloat16* __restrict__ x, const int* __restrict__ token_of_slot,
                             __nv_bfloat16* __restrict__ grouped) {
  const int slot = blockIdx.x * 8 + threadIdx.x / 32, lane = threadIdx.x % 32;
  if (slot >= kSlots) return;
  const uint4* src = reinterpret_cast<const uint4*>(x + static_cast<int64_t>(token_of_slot[slot]) * kHidden);
  uint4* dst = reinterpret_cast<uint4*>(grouped + static_cast<int64_t>(slot) * kHidden);
  for (int v = lane; v < kHidden / 8; v += 32) dst[v] = src[v];
}

class MoeLabBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"tokens", kTokens}, {"hidden", kHidden}, {"ffn", kFfn}, {"experts", kExperts}, {"topk", kTopk}};
    w.precision = aisp::DType::bf16;
    // x, logits and every expert's weights read once, y written once (the grouped copies, expert outputs and
    // routing tables are a technique's own traffic, not the problem's).
    w.bytes = 2.0 * kTokens * kHidden + 4.0 * kTokens * kExperts + 2.0 * kExperts * kFfn * kHidden + 2.0 * kTokens * kFfn;
    w.flops = 2.0 * kTokens * kTopk * double(kFfn) * kHidden;
    w.items = kTokens;
    w.item_unit = "tokens";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    ctx.input("x", aisp::DType::bf16, {kTokens, kHidden});
    ctx.input("router_logits", aisp::DType::f32, {kTokens, kExperts}, aisp::Fill::normal(0, 1));
    // uniform(-1/16, 1/16): outputs ~N(0, 0.6), ch15's scale.
    ctx.input("w", aisp::DType::bf16, {kExperts, kFfn, kHidden}, aisp::Fill::uniform(-0.0625, 0.0625), aisp::Role::static_);
    ctx.output("y", aisp::DType::bf16, {kTokens, kFfn});
    auto ints = [&](const char* name, size_t n) { return static_cast<int*>(ctx.scratch(name, n * sizeof(int))); };
    rt_.token_of_slot = ints("token_of_slot", kSlots);
    rt_.slot_of_assignment = ints("slot_of_assignment", kSlots);
    rt_.gates = static_cast<float*>(ctx.scratch("gates", kSlots * sizeof(float)));
    rt_.expert_begin = ints("expert_begin", kExperts + 1);
    rt_.tile_expert = ints("tile_expert", kMaxRowTiles);
    rt_.tile_row = ints("tile_row", kMaxRowTiles);
    rt_.tile_count = ints("tile_count", 1);
    out_ = static_cast<__nv_bfloat16*>(ctx.scratch("expert_out", size_t{kSlots} * kFfn * 2));
    // i -> i: the row table of a buffer whose rows are already in order (a gathered or permuted copy).
    identity_ = ints("identity", kSlots);
    std::vector<int> iota(kSlots);
    for (int i = 0; i < kSlots; ++i) iota[i] = i;
    AISP_CUDA_CHECK(cudaMemcpy(identity_, iota.data(), kSlots * sizeof(int), cudaMemcpyHostToDevice));
    AISP_CUDA_CHECK(cudaFuncSetAttribute(segment_gemm, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
    AISP_CUDA_CHECK(cudaFuncSetAttribute(grouped_gemm, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
    prepare(ctx);
  }
  // Same tile code and the same combine in every variant: bit-identical outputs; the bf16 default holds.

 protected:
  virtual void prepare(aisp::Context&) {}
  const __nv_bfloat16* x_in(aisp::Context& ctx) { return ctx.buffer("x").as<const __nv_bfloat16>(); }
  const __nv_bfloat16* weights(aisp::Context& ctx) { return ctx.buffer("w").as<const __nv_bfloat16>(); }
  // ch15's routing kernel: top-2, gates, histogram, prefix sum, slots, tile table.
  void route(aisp::Context& ctx) {
    route_top2<<<1, kRouteThreads, 0, ctx.stream()>>>(ctx.buffer("router_logits").as<const float>(), rt_);
    AISP_LAUNCH_CHECK();
  }
  void permute(aisp::Context& ctx, __nv_bfloat16* grouped) {
    permute_rows<<<kSlots / 8, 256, 0, ctx.stream()>>>(x_in(ctx), rt_.token_of_slot, grouped);
    AISP_LAUNCH_CHECK();
  }
  void launch_grouped(aisp::Context& ctx, const __nv_bfloat16* a, const int* row_table) {
    grouped_gemm<<<kMaxRowTiles * kColTiles, kThreads, kSmemBytes, ctx.stream()>>>(a, row_table, weights(ctx), rt_, out_);
    AISP_LAUNCH_CHECK();
  }
  // y[t] = g0 out[slot(t, 0)] + g1 out[slot(t, 1)] (ch15's combine), with the routing `rt`.
  void combine(aisp::Context& ctx, const Routing& rt, const __nv_bfloat16* expert_rows) {
    moe_inference::combine<<<kTokens / 8, 256, 0, ctx.stream()>>>(expert_rows, rt, ctx.buffer("y").as<__nv_bfloat16>());
    AISP_LAUNCH_CHECK();
  }
  Routing rt_{};
  __nv_bfloat16* out_ = nullptr;
  int* identity_ = nullptr;
};

}  // namespace moe_lab
