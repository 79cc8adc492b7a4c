// ch20 bf16_mlp, fused, ping-pong schedule: as optimized_bf16_mlp_rowstore.cu, but the GEMM's two consumer
// warpgroups take alternate 64 x 256 tiles (bf16_mlp_gemm.cuh, kPingPong), so one warpgroup's epilogue - with
// the SwiGLU math of the fused GEMM - runs while the other's main loop keeps the tensor cores busy.
// Why it should be faster: the fusion's extra epilogue work leaves the critical path. Its cost: 64-row tiles
// read B twice as often per FLOP from L2 (40 KiB per 2.1 MFLOP against 48 KiB per 4.2).
// Expected on Hopper: ~1.1x over the baseline if L2 keeps up.
// Measured (H200, harness cold mode, 2026-11-28 (b), `aisp bench run -t ch20:bf16_mlp --time-limit 5 --update-expectations`,
// first run / confirmation run, 19 checks passed each): 903.8 / 932.7 us: 1.076x [1.057, 1.096] FASTER, then 1.062x
// [1.043, 1.082] INCONCLUSIVE, against the cooperative baseline; against the unfused pipeline on this same schedule
// (optimized_bf16_mlp_unfused_pingpong.cu, 1.017 / 1.043 ms) 1.125x / 1.118x. The schedule itself loses: the unfused pipeline
// is 4-5% slower on it than on the cooperative one, and the fused one ~2-3% (the epilogue it hides is now small: 16-byte runs;
// its 64-row tiles read B from L2 twice as often per FLOP). Not profiled.
#include "bf16_mlp_variants.cuh"

namespace {
class OptimizedBf16MlpPingpong : public bf16_mlp::FusedMlp<true, 1> {};
}  // namespace

AISP_BENCHMARK(OptimizedBf16MlpPingpong)
