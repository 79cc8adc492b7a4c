// ch20 transformer_block, step 5: step 3 (optimized_transformer_block_deferred_heads.cu: every GEMM epilogue
// deferred, no merge pass) with the up GEMM's GELU branch-free (transformer_block_deferred.cuh, change 4:
// 0.5 erfc as 2^(degree-8 polynomial), 9 FMAs + one ex2 per output instead of erff's two branches and exp;
// max relative error 2^-16.2 over every bf16 input, 128x below bf16's half ulp; derivation at gelu_poly).
// Why it should be faster: Nsight Compute on step 3 (H200, 16384 tokens) still had the up GEMM at 705 TFLOP/s
// against 757 for QKV, whose epilogue is the same minus the GELU (same K, same bytes stored per FLOP): the
// deferred erff still costs issue slots next to the main loop and power under the sw_power_cap.
// Expected on Hopper: up to ~50 us at 16384 tokens (~1.3 %), ~20 us at 6144.
#include "transformer_block_deferred.cuh"

namespace {
class OptimizedTransformerBlockDeferredHeadsPolygelu : public tb_deferred::DeferredBlock<15, true, false, true> {};
}  // namespace

AISP_BENCHMARK(OptimizedTransformerBlockDeferredHeadsPolygelu)
