// ch10 gemm_tiled, optimized: the 2-CTA multicast kernel with early slot release (an ablation).
//
// Technique: gemm_ws_kernel.cuh with kPersistent = true, kCluster = 2, kEarlyRelease = true. Identical to
// optimized_gemm_tiled_cluster_multicast.cu except for when a consumer warpgroup hands a ring slot back:
// there, after issuing K-tile kt's wgmmas it waits until only that group is in flight (wait_group 1) and
// releases K-tile kt-1's slot, so each warpgroup always holds two slots; here it drains its own wgmmas
// (wait_group 0) and releases K-tile kt's slot at once (fast.cu's choice), holding one.
// Why it could be faster: in a cluster a slot is refilled only after the consumers of both CTAs released
// it and the peer's arrival crosses the SM-to-SM network, so the producer's lead matters more; releasing
// a K-tile earlier gives it one more slot of lead. Why it could be slower: between two K-tiles this
// warpgroup's tensor-core queue runs dry, and only the other consumer warpgroup's wgmmas fill the gap.
// Expected on Hopper: within a few % of the wait_group 1 version. Measured (H100 SXM, harness cold mode,
// 2026-11-25, all 19 checks passed): 201.4 us vs 200.8 us (within noise); 8192^3 (warm-up estimate) 1.637 vs
// 1.648 ms.
#include "gemm_tiled_ws.cuh"

namespace {

using Gemm = ws_gemm::WsGemm</*persistent=*/true, /*cluster=*/2, ws_gemm::StoreC, /*early_release=*/true>;

class OptimizedGemmTiledClusterMulticastEarlyRelease : public WsGemmTiledVariant<Gemm> {
 public:
  std::string technique() const override {
    return "2-CTA multicast wgmma, ring slots released right after their own wgmmas (wait_group 0)";
  }
};

}  // namespace

AISP_BENCHMARK(OptimizedGemmTiledClusterMulticastEarlyRelease)
