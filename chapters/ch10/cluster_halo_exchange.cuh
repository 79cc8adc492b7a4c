// cluster_halo_exchange: 256 Jacobi steps of the 5-point averaging stencil of ch10:cooperative_persistent on
// a batch of 12 independent 128 x 1024 fp32 grids (zero outside each grid): per-sample smoothing, or a
// batch of small solver domains - the case where the barrier each step needs spans one problem, not the GPU.
// Each grid is split into 8 bands of 16 rows, one 1024-thread block per band (one column per thread) that
// keeps its band in shared memory for all steps (as ch10:cooperative_persistent does). Per step a band
// needs the edge rows of its two neighbour bands of the same grid. Both variants run the same kernel
// (template below) and differ only in how edges travel and what the blocks wait on:
//   baseline_cluster_halo_exchange.cu   one cooperative launch of the 96 blocks: edges through L2 (a global
//                                       exchange buffer), grid.sync() between steps
//   optimized_cluster_halo_exchange.cu  each grid's 8 blocks form a thread-block cluster: neighbours' edge
//                                       rows read straight from their shared memory (DSMEM), one cluster
//                                       barrier per step
// Same update expression in the same order (cooperative_persistent::jacobi_point): bit-identical outputs,
// the f32 default tolerance.
#pragma once
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "aisp/aisp.hpp"
#include "cooperative_persistent.cuh"

namespace cluster_halo_exchange {

inline constexpr int64_t kGrids = 12, kHeight = 128, kWidth = 1024, kSteps = 256;
inline constexpr int kBandsPerGrid = 8;                               // = the cluster size (portable maximum)
inline constexpr int kBand = static_cast<int>(kHeight) / kBandsPerGrid;  // 16 rows per block
inline constexpr int kBlocks = static_cast<int>(kGrids) * kBandsPerGrid;  // 96
inline constexpr int kThreads = static_cast<int>(kWidth);                 // one column per thread
inline constexpr int kBufRows = kBand + 2;                                // the band and its two halo rows
inline constexpr int kSmemBytes = 2 * kBufRows * kThreads * sizeof(float);  // 144 KiB: one block per SM

inline aisp::Workload workload() {
  aisp::Workload w;
  w.params = {{"grids", kGrids}, {"height", kHeight}, {"width", kWidth}, {"steps", kSteps}};
  w.precision = aisp::DType::f32;
  const double cells = static_cast<double>(kGrids) * kHeight * kWidth;
  w.bytes = 2.0 * cells * sizeof(float);  // the minimum: the initial grids read once, the final ones written once
  w.flops = 5.0 * cells * kSteps;         // 4 adds + 1 multiply per cell per step
  w.items = cells * kSteps;
  w.item_unit = "cell-updates";
  return w;
}

class Pair : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return cluster_halo_exchange::workload(); }
  void setup(aisp::Context& ctx) override {
    const aisp::Shape shape{ctx.param("grids"), ctx.param("height"), ctx.param("width")};
    ctx.input("u0", aisp::DType::f32, shape);
    ctx.output("u", aisp::DType::f32, shape);
    AISP_CUDA_CHECK(cudaFuncSetAttribute(kernel(), cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
    setup_variant(ctx);
  }
  aisp::Tolerance tolerance() const override { return aisp::Tolerance::by_dtype(); }
  aisp::Requirements requirements() const override { return {.min_compute_capability = 90}; }

 protected:
  using Kernel = void (*)(const float*, float*, float*);
  virtual Kernel kernel() const = 0;
  virtual void setup_variant(aisp::Context&) {}
};

// How a band gets its neighbours' new edge rows after a step: through L2 with a grid-wide barrier, or from
// the neighbours' shared memory with a cluster barrier.
enum class Exchange { global_grid_sync, dsmem_cluster };

template <Exchange kExchange>
__global__ void __launch_bounds__(kThreads, 1)
    jacobi_bands_kernel(const float* __restrict__ u0, float* __restrict__ u, float* exchange) {
  namespace cg = cooperative_groups;
  extern __shared__ float smem[];
  const int b = blockIdx.x, col = threadIdx.x;
  const int rank = b % kBandsPerGrid;               // band within its grid (= the block's rank in its cluster)
  const int64_t row0 = static_cast<int64_t>(b) * kBand;  // first row of the band in the stacked [grids*height] array
  const bool top = rank == 0, bottom = rank + 1 == kBandsPerGrid;
  auto at = [&](float* buf, int r) -> float& { return buf[r * kThreads + col]; };

  float* cur = smem;
  float* nxt = smem + kBufRows * kThreads;
  for (int r = 0; r < kBufRows; ++r) {  // buffer row r = band row r - 1; zero outside this band's grid
    const bool outside = (r == 0 && top) || (r == kBufRows - 1 && bottom);
    at(cur, r) = outside ? 0.0f : u0[(row0 - 1 + r) * kWidth + col];
  }
  at(nxt, 0) = 0.0f;
  at(nxt, kBufRows - 1) = 0.0f;
  __syncthreads();

  for (int step = 0; step < kSteps; ++step) {
    const bool last = step + 1 == kSteps;
#pragma unroll 4
    for (int r = 1; r <= kBand; ++r) {
      const float w = col > 0 ? cur[r * kThreads + col - 1] : 0.0f;
      const float e = col + 1 < kThreads ? cur[r * kThreads + col + 1] : 0.0f;
      const float v = cooperative_persistent::jacobi_point(at(cur, r), at(cur, r - 1), at(cur, r + 1), w, e);
      if (last) u[(row0 + r - 1) * kWidth + col] = v;
      else at(nxt, r) = v;
    }
    if (last) break;
    if constexpr (kExchange == Exchange::dsmem_cluster) {
      // After the barrier every band of the cluster has written its new rows; a neighbour's rows are read
      // where they are. No second barrier: the buffer read here is rewritten two steps later, after the
      // next barrier, which the reader must have reached first.
      cg::cluster_group cluster = cg::this_cluster();
      cluster.sync();
      if (!top) at(nxt, 0) = cluster.map_shared_rank(nxt, rank - 1)[kBand * kThreads + col];
      if (!bottom) at(nxt, kBufRows - 1) = cluster.map_shared_rank(nxt, rank + 1)[1 * kThreads + col];
    } else {
      // exchange[slot][block][edge][col], edge 0 = the band's first row, 1 = its last; two slots by step
      // parity so a slow reader never sees the next step's rows.
      auto edge = [&](int slot, int block, int which) -> float* {
        return exchange + ((static_cast<int64_t>(slot) * kBlocks + block) * 2 + which) * kWidth + col;
      };
      const int slot = step & 1;
      *edge(slot, b, 0) = at(nxt, 1);
      *edge(slot, b, 1) = at(nxt, kBand);
      cg::this_grid().sync();
      if (!top) at(nxt, 0) = __ldcg(edge(slot, b - 1, 1));  // L2, never a stale L1 line
      if (!bottom) at(nxt, kBufRows - 1) = __ldcg(edge(slot, b + 1, 0));
      __syncthreads();
    }
    float* t = cur;
    cur = nxt;
    nxt = t;
  }
  // A block's shared memory must outlive its neighbours' last remote reads of it.
  if constexpr (kExchange == Exchange::dsmem_cluster) cg::this_cluster().sync();
}

// One launch of the 96 blocks with one launch attribute: cooperative (grid.sync legal) or cluster dims.
inline void launch(cudaStream_t stream, void (*kernel)(const float*, float*, float*), cudaLaunchAttribute attr,
                   const float* u0, float* u, float* exchange) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(kBlocks);
  config.blockDim = dim3(kThreads);
  config.dynamicSmemBytes = kSmemBytes;
  config.stream = stream;
  config.attrs = &attr;
  config.numAttrs = 1;
  AISP_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, u0, u, exchange));
}

}  // namespace cluster_halo_exchange
