// ch10 cluster_reduction, optimized: the 8 blocks of a row are a thread-block cluster and combine their
// partial sums through distributed shared memory (DSMEM); one pass over x.
//
// Technique: launch with cluster dimension 8 (the portable maximum on sm_90), so the 8 blocks of a row are
// co-scheduled on one GPC and can address each other's shared memory. Each block loads its 8192-float
// slice into registers (8 float4 per thread, all loads in flight at once), reduces its sum of squares to
// one float in shared memory, cluster barrier, reads the 8 partials (its own and 7 remote, 32 bytes over
// DSMEM in total) in rank order, signals that it is done reading (barrier.cluster.arrive), scales the
// slice it still holds in registers and writes y, and waits on the cluster barrier only before exiting (a
// block's shared memory must outlive its peers' remote reads).
// Why it is faster: the cross-block reduction no longer needs a kernel boundary, so the slice never leaves
// the SM: x is read once (1 GiB of traffic instead of 1.5 GiB), no memset, no atomics, one launch, and
// the sum is deterministic (rank order).
// Expected on Hopper (H100 SXM): ~0.36-0.40 ms, ~1.4-1.5x over the two-pass atomic version (the traffic
// ratio); the DSMEM exchange itself is ~200 cycles per block, invisible next to the 32 KiB load.
// Measured (H100 SXM, harness, cold, 2026-11-25): 364.2 us vs 537.6 us, 1.48x [1.45, 1.50]; 1 GiB in
// 364.2 us = 2.95 TB/s, the streaming ceiling: the gain is exactly the saved second read of x.
#include <cooperative_groups.h>

#include "cluster_reduction.cuh"

namespace {

using namespace cluster_reduction;
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(kSplit, 1, 1) __launch_bounds__(kThreads)
cluster_rmsnorm_kernel(const float4* __restrict__ x, const float4* __restrict__ gamma, float4* __restrict__ y) {
  __shared__ float scratch[kThreads / 32];
  __shared__ float partial;  // this block's sum of squares, read by the whole cluster
  cg::cluster_group cluster = cg::this_cluster();

  float4 v[kVecPerThread];
#pragma unroll
  for (int i = 0; i < kVecPerThread; ++i) v[i] = x[slice_vec(i)];
  float acc = 0.0f;
#pragma unroll
  for (int i = 0; i < kVecPerThread; ++i) acc += sum_squares(v[i]);
  acc = block_sum(acc, scratch);
  if (threadIdx.x == 0) partial = acc;
  cluster.sync();  // every block's partial is written and visible cluster-wide

  float total = 0.0f;
#pragma unroll
  for (int r = 0; r < kSplit; ++r) total += *cluster.map_shared_rank(&partial, r);
  cluster.barrier_arrive();  // done reading remote shared memory; peers may exit once all have arrived

  const float s = rsqrtf(total / static_cast<float>(kCols) + kEps);
#pragma unroll
  for (int i = 0; i < kVecPerThread; ++i)
    y[slice_vec(i)] = scale_row(v[i], gamma[blockIdx.x * (kSliceCols / 4) + i * kThreads + threadIdx.x], s);
  cluster.barrier_wait();
}

class OptimizedClusterReduction : public Pair {
 public:
  void run(aisp::Context& ctx) override {
    const dim3 grid(kSplit, static_cast<unsigned>(kRows));  // x: the cluster's 8 blocks of one row
    cluster_rmsnorm_kernel<<<grid, kThreads, 0, ctx.stream()>>>(
        ctx.buffer("x").as<const float4>(), ctx.buffer("gamma").as<const float4>(), ctx.buffer("y").as<float4>());
    AISP_LAUNCH_CHECK();
  }
  aisp::Requirements requirements() const override { return {.min_compute_capability = 90}; }
  std::string technique() const override {
    return "8-block cluster: partials exchanged over DSMEM, slice kept in registers, one pass over x";
  }
};

}  // namespace

AISP_BENCHMARK(OptimizedClusterReduction)
