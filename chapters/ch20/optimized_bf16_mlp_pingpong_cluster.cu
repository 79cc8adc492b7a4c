// ch20 bf16_mlp, fused, ping-pong schedule with 2-CTA clusters: as optimized_bf16_mlp_pingpong.cu, with
// vertically adjacent CTAs sharing each B tile by TMA multicast (each loads half), which brings the L2 -> SM
// bytes per FLOP back to the cooperative 128 x 256 tile's (24 KiB per 2.1 MFLOP per CTA).
// Why it should be faster: the epilogue overlap of the ping-pong schedule without its extra L2 traffic.
// Expected on Hopper: ~1.1x over the baseline.
// Measured (H200, harness cold mode, 2026-11-28 (b), `aisp bench run -t ch20:bf16_mlp --time-limit 5 --update-expectations`,
// first run / confirmation run, 19 checks passed each): 955.6 / 976.0 us: 1.018x SAME / 1.015x SAME against the cooperative
// baseline; 1.113x over the unfused pipeline on this schedule (1.064 / 1.086 ms). The multicast made both pipelines ~5% slower
// than the plain ping-pong (lockstep pairs of CTAs; not profiled): L2 bandwidth was not what held the ping-pong back.
#include "bf16_mlp_variants.cuh"

namespace {
class OptimizedBf16MlpPingpongCluster : public bf16_mlp::FusedMlp<true, 2> {};
}  // namespace

AISP_BENCHMARK(OptimizedBf16MlpPingpongCluster)
