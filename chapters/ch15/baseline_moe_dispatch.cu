// ch15 moe_dispatch, baseline: the per-expert loop of eager MoE code (moe_dispatch.cuh). For each of the 64
// experts, three launches:
//   gather:  one thread per (token, j) assignment scans topk_ids; a match takes a slot in the expert's
//            rows (atomic counter) and its warp-mates copy x[token] there - `idx = where(ids == e); x[idx]`
//   expert:  the expert's rows (count read on the device) through the expert stand-in
//   scatter: each row's output to its (token, j) slot; after the loop one combine kernel sums the slots.
// No host synchronization (the counts stay on the device; grids are sized for the worst case and idle
// blocks exit), so it is the best form of the loop, not a strawman. Its cost: 193 launches, 64 scans of
// all 16 Ki assignments, and per-expert grids that are mostly idle blocks.
// Expected on H100: ~1 ms. Measured (H100 80GB HBM3, 2026-11-28, docs/measurements/ch15_ch16_h100_20261128.md): 1.096 ms.
#include "moe_dispatch.cuh"

namespace {

using namespace moe_dispatch;

constexpr int kWarpsPerBlock = 8;

// One warp per 32 assignments: every lane tests one; matching lanes take slots, then the warp copies each
// matching token's row together (16 B per lane).
__global__ void gather_expert(const __nv_bfloat16* __restrict__ x, const int* __restrict__ ids, int expert, int assignments,
                              int* __restrict__ count, int* __restrict__ slot_of_row, __nv_bfloat16* __restrict__ rows) {
  const int lane = threadIdx.x % 32;
  const int a = (blockIdx.x * kWarpsPerBlock + threadIdx.x / 32) * 32 + lane;
  const bool match = a < assignments && ids[a] == expert;
  unsigned mask = __ballot_sync(0xffffffffu, match);
  int slot = 0;
  if (match) slot = atomicAdd(count, 1);
  while (mask) {
    const int src = __ffs(mask) - 1;
    mask &= mask - 1;
    const int s = __shfl_sync(0xffffffffu, slot, src), assignment = __shfl_sync(0xffffffffu, a, src);
    if (lane == 0) slot_of_row[s] = assignment;
    const uint4* from = reinterpret_cast<const uint4*>(x + static_cast<int64_t>(assignment / kMoeTopk) * kMoeHidden);
    uint4* to = reinterpret_cast<uint4*>(rows + static_cast<int64_t>(s) * kMoeHidden);
    for (int v = lane; v < kRowVecs; v += 32) to[v] = from[v];
  }
}

// The expert over its `*count` rows (grid-stride over rows, one warp per row).
__global__ void expert_rows(const __nv_bfloat16* __restrict__ rows, const __nv_bfloat16* __restrict__ s,
                            const int* __restrict__ count, __nv_bfloat16* __restrict__ out) {
  const int lane = threadIdx.x % 32, n = *count;
  for (int r = blockIdx.x * kWarpsPerBlock + threadIdx.x / 32; r < n; r += gridDim.x * kWarpsPerBlock)
    expert_row(rows + static_cast<int64_t>(r) * kMoeHidden, s, out + static_cast<int64_t>(r) * kMoeHidden, lane);
}

// Each output row back to its assignment's slot of `by_assignment` ([T*k][H]).
__global__ void scatter_rows(const __nv_bfloat16* __restrict__ out, const int* __restrict__ slot_of_row,
                             const int* __restrict__ count, __nv_bfloat16* __restrict__ by_assignment) {
  const int lane = threadIdx.x % 32, n = *count;
  for (int r = blockIdx.x * kWarpsPerBlock + threadIdx.x / 32; r < n; r += gridDim.x * kWarpsPerBlock) {
    const uint4* from = reinterpret_cast<const uint4*>(out + static_cast<int64_t>(r) * kMoeHidden);
    uint4* to = reinterpret_cast<uint4*>(by_assignment + static_cast<int64_t>(slot_of_row[r]) * kMoeHidden);
    for (int v = lane; v < kRowVecs; v += 32) to[v] = from[v];
  }
}

__global__ void combine_slots(const __nv_bfloat16* __restrict__ by_assignment, const float* __restrict__ gates,
                              __nv_bfloat16* __restrict__ y, int tokens) {
  const int t = blockIdx.x * kWarpsPerBlock + threadIdx.x / 32;
  if (t >= tokens) return;
  const __nv_bfloat16* rows[kMoeTopk];
  float g[kMoeTopk];
#pragma unroll
  for (int j = 0; j < kMoeTopk; ++j) {
    rows[j] = by_assignment + (static_cast<int64_t>(t) * kMoeTopk + j) * kMoeHidden;
    g[j] = gates[t * kMoeTopk + j];
  }
  combine_row(rows, g, y + static_cast<int64_t>(t) * kMoeHidden, threadIdx.x % 32);
}

class BaselineMoeDispatch : public MoeDispatchBase {
 public:
  void setup(aisp::Context& ctx) override {
    MoeDispatchBase::setup(ctx);
    counts_ = static_cast<int*>(ctx.scratch("counts", kMoeExperts * sizeof(int)));
    slot_of_row_ = static_cast<int*>(ctx.scratch("slot_of_row", kMoeTokens * kMoeTopk * sizeof(int)));
    by_assignment_ = static_cast<__nv_bfloat16*>(
        ctx.scratch("by_assignment", size_t(kMoeTokens * kMoeTopk * kMoeHidden) * sizeof(__nv_bfloat16)));
    sm_count_ = ctx.device().sm_count;
  }
  void run(aisp::Context& ctx) override {
    cudaStream_t st = ctx.stream();
    const int assignments = static_cast<int>(kMoeTokens * kMoeTopk);
    const unsigned scan_blocks = static_cast<unsigned>((assignments + 32 * kWarpsPerBlock - 1) / (32 * kWarpsPerBlock));
    const unsigned row_blocks = static_cast<unsigned>(2 * sm_count_);  // enough warps for any expert's rows
    AISP_CUDA_CHECK(cudaMemsetAsync(counts_, 0, kMoeExperts * sizeof(int), st));
    const auto* x = ctx.buffer("x").as<const __nv_bfloat16>();
    const auto* ids = ctx.buffer("topk_ids").as<const int>();
    const auto* s = ctx.buffer("s").as<const __nv_bfloat16>();
    // Experts reuse the front of `grouped_`/`expert_out_` one after another, as a loop over experts does.
    for (int e = 0; e < kMoeExperts; ++e) {
      gather_expert<<<scan_blocks, 32 * kWarpsPerBlock, 0, st>>>(x, ids, e, assignments, counts_ + e, slot_of_row_, grouped_);
      expert_rows<<<row_blocks, 32 * kWarpsPerBlock, 0, st>>>(grouped_, s + int64_t(e) * kMoeHidden, counts_ + e, expert_out_);
      scatter_rows<<<row_blocks, 32 * kWarpsPerBlock, 0, st>>>(expert_out_, slot_of_row_, counts_ + e, by_assignment_);
    }
    combine_slots<<<static_cast<unsigned>(kMoeTokens / kWarpsPerBlock), 32 * kWarpsPerBlock, 0, st>>>(
        by_assignment_, ctx.buffer("gates").as<const float>(), ctx.buffer("y").as<__nv_bfloat16>(),
        static_cast<int>(kMoeTokens));
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "per-expert loop: scan + gather, expert, scatter, per expert"; }

 private:
  int* counts_ = nullptr;
  int* slot_of_row_ = nullptr;
  __nv_bfloat16* by_assignment_ = nullptr;
  int sm_count_ = 132;
};

}  // namespace

AISP_BENCHMARK(BaselineMoeDispatch)
