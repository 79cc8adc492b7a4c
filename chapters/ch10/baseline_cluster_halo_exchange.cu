// ch10 cluster_halo_exchange, baseline: one cooperative launch, edge rows through L2, grid.sync() per step.
//
// Technique: the 96 band blocks (12 grids x 8 bands, one per SM) are launched cooperatively
// (cudaLaunchAttributeCooperative), which guarantees co-residency and makes cooperative_groups'
// grid.sync() legal. Per step each block writes its two new edge rows to a global exchange buffer, all 96
// meet at grid.sync(), and each reads its neighbours' edges back with ld.global.cg - ch10:cooperative_persistent's
// optimized kernel, applied to a batch of grids.
// Why it is slow: the barrier spans the whole GPU although only the 8 bands of one grid depend on each
// other: every step waits for the slowest of 96 blocks and pays a round of L2 atomics plus the spin on a
// global flag; the edge rows make an L2 round trip (write, barrier, read).
// Expected on Hopper (H100 SXM): ~3 us per step (ch10:cooperative_persistent measured 3.0 us with 128 blocks),
// ~0.75 ms per run(). Measured (H100 SXM, harness cold mode, 2026-11-25 10:44 UTC, all checks passed): 766.4 us,
// 2.99 us per step.
#include <stdexcept>
#include <string>

#include "cluster_halo_exchange.cuh"

namespace {

using namespace cluster_halo_exchange;
constexpr auto kKernel = jacobi_bands_kernel<Exchange::global_grid_sync>;

class BaselineClusterHaloExchange : public Pair {
 public:
  void run(aisp::Context& ctx) override {
    cudaLaunchAttribute cooperative{};
    cooperative.id = cudaLaunchAttributeCooperative;
    cooperative.val.cooperative = 1;
    launch(ctx.stream(), kKernel, cooperative, ctx.buffer("u0").as<const float>(), ctx.buffer("u").as<float>(),
           exchange_);
  }
  std::string technique() const override {
    return "cooperative launch: edge rows through an L2 exchange buffer, grid.sync() per step";
  }

 protected:
  Kernel kernel() const override { return kKernel; }
  void setup_variant(aisp::Context& ctx) override {
    exchange_ = static_cast<float*>(ctx.scratch("exchange", 2 * kBlocks * 2 * kWidth * sizeof(float)));
    int per_sm = 0;
    AISP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kKernel, kThreads, kSmemBytes));
    if (per_sm * ctx.device().sm_count < kBlocks)
      throw std::runtime_error("cluster_halo_exchange: the cooperative launch needs " + std::to_string(kBlocks) +
                               " co-resident blocks, the device holds " +
                               std::to_string(per_sm * ctx.device().sm_count));
  }

 private:
  float* exchange_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(BaselineClusterHaloExchange)
