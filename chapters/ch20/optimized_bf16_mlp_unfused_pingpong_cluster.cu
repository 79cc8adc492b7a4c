// ch20 bf16_mlp, CONTROL (not a fusion): the baseline's unfused pipeline on the ping-pong schedule with 2-CTA
// B multicast (UnfusedMlp<true, 2>), the same-GEMM reference for optimized_bf16_mlp_pingpong_cluster.cu.
// Measured (H200, harness cold mode, 2026-11-28 (b), `aisp bench run -t ch20:bf16_mlp --time-limit 5 --update-expectations`,
// first run / confirmation run, 19 checks passed each): 1.064 / 1.086 ms (baseline 972.6 / 990.9 us).
#include "bf16_mlp_variants.cuh"

namespace {
class OptimizedBf16MlpUnfusedPingpongCluster : public bf16_mlp::UnfusedMlp<true, 2> {};
}  // namespace

AISP_BENCHMARK(OptimizedBf16MlpUnfusedPingpongCluster)
