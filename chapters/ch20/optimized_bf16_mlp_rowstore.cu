// ch20 bf16_mlp, fused, cooperative schedule: the baseline's GEMM kernel (bf16_mlp_gemm.cuh, both consumer
// warpgroups on one 128 x 256 tile, 16-byte-run epilogues) with SwiGLU fused into the packed gate/up GEMM's
// epilogue and the residual into the down GEMM's (bf16_mlp_variants.cuh, FusedMlp).
// Why it should be faster: against the baseline (same kernel, same schedule) it removes gate and up written
// and read back, the h pass and the residual pass (~0.6 GB, ~0.12 ms on the H200) and three launches; the
// SwiGLU math (two MUFU ops per output) sits in an epilogue the tensor cores wait for (cooperative schedule).
// Expected on Hopper: ~1.08x over the baseline.
// Measured (H200, harness cold mode, 2026-11-28 (b), `aisp bench run -t ch20:bf16_mlp --time-limit 5 --update-expectations`,
// first run / confirmation run, 19 checks passed each): 889.3 / 906.0 us against the baseline's 972.6 / 990.9: 1.094x
// [1.074, 1.114] FASTER both times; 760 TFLOP/s, 86% of the bf16 wgmma ceiling (882.6). 0.083 ms saved of the ~0.12 ms of
// passes the fusion removes. The same fusion on ch10's two-column epilogue (optimized_bf16_mlp.cu) is 1.071 ms: the store
// pattern was worth more than the fusion.
#include "bf16_mlp_variants.cuh"

namespace {
class OptimizedBf16MlpRowstore : public bf16_mlp::FusedMlp<false, 1> {};
}  // namespace

AISP_BENCHMARK(OptimizedBf16MlpRowstore)
