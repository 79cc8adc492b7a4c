// labs/moe, baseline: the per-expert loop of eager MoE code, with the counts kept on the device.
//
// Technique: a top-k kernel (one thread per token: top-2 of 16 logits, softmax over the two), then for each
// of the 16 experts three launches, as `idx = where(ids == e); out[idx] = x[idx] @ W_e.T` runs them:
//   gather   one thread per (token, j) assignment tests ids == e (all 8192 scanned, per expert); a match
//            takes the next row of the gathered buffer (atomic counter) and its warp copies x[token] there
//   gemm     ch15's tensor-core tile on the gathered rows, grid sized for the worst case (4096 rows), idle
//            tiles exit; the count is read on the device, so no host synchronization per expert
//   scatter  each gathered row's output to its (token, j) slot
// and one combine kernel (ch15's). This is the loop at its best (no host round trips, tensor cores), not a
// strawman. Its costs: 49 launches, 16 scans of all assignments, every gathered row written and read again,
// ~512 rows per expert = 4 row tiles x 8 column tiles = ~32 busy CTAs per GEMM launch on 132 SMs (one
// partial wave each), and every launch's ramp and tail.
// Expected on Hopper: ~16 x (~45 us partial-wave GEMM + ~5 us gather/scatter) ~0.8 ms.
// Measured (H100 80GB HBM3, 2026-11-28, call B of docs/measurements/closing_calls_20261128.md, all checks
// passed): 941.4 us.
#include "moe.cuh"

namespace {

using namespace moe_lab;

// Top-2 of each token's logits (ties to the lower expert) and its gates: the same expressions as ch15's
// route_top2, so ids and gates are bit-identical to the other variants'.
__global__ void topk2(const float* __restrict__ logits, int* __restrict__ ids, float* __restrict__ gates) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= kTokens) return;
  const float* l = logits + static_cast<int64_t>(t) * kExperts;
  int e0 = 0, e1 = -1;
  float l0 = l[0], l1 = -INFINITY;
  for (int e = 1; e < kExperts; ++e) {
    const float v = l[e];
    if (v > l0) e1 = e0, l1 = l0, e0 = e, l0 = v;
    else if (e1 < 0 || v > l1) e1 = e, l1 = v;
  }
  const float g1 = 1.0f / (1.0f + __expf(l0 - l1));
  gates[t * kTopk + 0] = 1.0f - g1;
  gates[t * kTopk + 1] = g1;
  ids[t * kTopk + 0] = e0;
  ids[t * kTopk + 1] = e1;
}

// One warp per 32 assignments: lanes whose assignment picks `expert` take rows (bounds[1] is the count),
// then the warp copies each matching token's row together (16 B per lane).
__global__ void gather_expert(const __nv_bfloat16* __restrict__ x, const int* __restrict__ ids, int expert,
                              int* __restrict__ bounds, int* __restrict__ assignment_of_row, __nv_bfloat16* __restrict__ rows) {
  const int lane = threadIdx.x % 32, a = blockIdx.x * blockDim.x + threadIdx.x;
  const bool match = a < kSlots && ids[a] == expert;
  unsigned mask = __ballot_sync(0xffffffffu, match);
  int row = 0;
  if (match) {
    row = atomicAdd(&bounds[1], 1);
    assignment_of_row[row] = a;
  }
  while (mask) {
    const int src = __ffs(mask) - 1;
    mask &= mask - 1;
    const int r = __shfl_sync(0xffffffffu, row, src), t = __shfl_sync(0xffffffffu, a, src) / kTopk;
    const uint4* from = reinterpret_cast<const uint4*>(x + static_cast<int64_t>(t) * kHidden);
    uint4* to = reinterpret_cast<uint4*>(rows + static_cast<int64_t>(r) * kHidden);
    for (int v = lane; v < kHidden / 8; v += 32) to[v] = from[v];
  }
}

// out_by_assignment[assignment_of_row[r]] = out[r] for the expert's rows: one warp per row.
__global__ void scatter_expert(const __nv_bfloat16* __restrict__ out, const int* __restrict__ bounds,
                               const int* __restrict__ assignment_of_row, __nv_bfloat16* __restrict__ out_by_assignment) {
  const int r = blockIdx.x * 8 + threadIdx.x / 32, lane = threadIdx.x % 32;
  if (r >= bounds[1]) return;
  const uint4* from = reinterpret_cast<const uint4*>(out + static_cast<int64_t>(r) * kFfn);
  uint4* to = reinterpret_cast<uint4*>(out_by_assignment + static_cast<int64_t>(assignment_of_row[r]) * kFfn);
  for (int v = lane; v < kFfn / 8; v += 32) to[v] = from[v];
}

class BaselineMoe : public MoeLabBase {
 public:
  std::string technique() const override {
    return "eager per-expert loop: scan + gather, tensor-core GEMM, scatter per expert (counts on the device)";
  }
  void run(aisp::Context& ctx) override {
    AISP_CUDA_CHECK(cudaMemsetAsync(bounds_, 0, sizeof(int) * 2 * kExperts, ctx.stream()));
    topk2<<<kTokens / 256, 256, 0, ctx.stream()>>>(ctx.buffer("router_logits").as<const float>(), ids_, gates_);
    AISP_LAUNCH_CHECK();
    for (int e = 0; e < kExperts; ++e) {
      int* bounds = bounds_ + 2 * e;  // {0, rows of expert e}
      gather_expert<<<kSlots / 256, 256, 0, ctx.stream()>>>(x_in(ctx), ids_, e, bounds, assignment_of_row_, rows_);
      AISP_LAUNCH_CHECK();
      segment_gemm<<<kWorstRowTiles * kColTiles, kThreads, kSmemBytes, ctx.stream()>>>(
          rows_, identity_, weights(ctx) + static_cast<int64_t>(e) * kFfn * kHidden, bounds, rows_out_);
      AISP_LAUNCH_CHECK();
      scatter_expert<<<kTokens / 8, 256, 0, ctx.stream()>>>(rows_out_, bounds, assignment_of_row_, out_);
      AISP_LAUNCH_CHECK();
    }
    combine(ctx, by_assignment_, out_);  // out_ holds row t * 2 + j for assignment (t, j)
  }

 protected:
  void prepare(aisp::Context& ctx) override {
    ids_ = static_cast<int*>(ctx.scratch("topk_ids", kSlots * sizeof(int)));
    gates_ = static_cast<float*>(ctx.scratch("topk_gates", kSlots * sizeof(float)));
    bounds_ = static_cast<int*>(ctx.scratch("expert_bounds", 2 * kExperts * sizeof(int)));
    assignment_of_row_ = static_cast<int*>(ctx.scratch("assignment_of_row", kTokens * sizeof(int)));
    rows_ = static_cast<__nv_bfloat16*>(ctx.scratch("gathered_rows", size_t{kTokens} * kHidden * 2));
    rows_out_ = static_cast<__nv_bfloat16*>(ctx.scratch("gathered_out", size_t{kTokens} * kFfn * 2));
    by_assignment_ = rt_;
    by_assignment_.slot_of_assignment = identity_;  // assignment a's output is row a
    by_assignment_.gates = gates_;
  }

 private:
  int* ids_ = nullptr;
  float* gates_ = nullptr;
  int* bounds_ = nullptr;
  int* assignment_of_row_ = nullptr;
  __nv_bfloat16* rows_ = nullptr;
  __nv_bfloat16* rows_out_ = nullptr;
  Routing by_assignment_{};
};

}  // namespace

AISP_BENCHMARK(BaselineMoe)
