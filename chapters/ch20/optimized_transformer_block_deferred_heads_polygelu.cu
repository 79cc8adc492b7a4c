// ch20 transformer_block, step 5: step 3 (optimized_transformer_block_deferred_heads.cu: every GEMM epilogue
// deferred, no merge pass) with the up GEMM's GELU branch-free (transformer_block_deferred.cuh, change 4:
// 0.5 erfc as 2^(degree-8 polynomial), 9 FMAs + one ex2 per output instead of erff's two branches and exp;
// max relative error 2^-16.2 over every bf16 input, 128x below bf16's half ulp; derivation at gelu_poly).
// Why it should be faster: Nsight Compute on step 3 (H200, 16384 tokens) still had the up GEMM at 705 TFLOP/s
// against 757 for QKV, whose epilogue is the same minus the GELU (same K, same bytes stored per FLOP): the
// deferred erff still costs issue slots next to the main loop and power under the sw_power_cap.
// Expected on Hopper: up to ~50 us at 16384 tokens (~1.3 %), ~20 us at 6144.
// Measured (H200, 2026-11-28 (d), two device calls, clocks as found, most samples at sw_power_cap; `aisp bench run -t
// ch20:transformer_block --axis seq=6144,16384 --time-limit 4 --artifacts-dir /tmp/a --no-db`, 19/19 checks each;
// call 1 / call 2 medians, the rowstore block in the same calls 1.187 / 1.203 ms and 4.006 / 4.095 ms):
// (call 2 only) 6144 tokens 1.127 ms, 2.732x [2.682, 2.783], 686 TFLOP/s = 77.7 % of the 882.6 TFLOP/s wgmma
// ceiling; 16384 tokens 3.828 ms, 4.544x [4.459, 4.632], 718 TFLOP/s = 81.4 %. 1.067x / 1.070x over the rowstore
// block of the same call; 7 / 73 us below step 3 of the same call. Nsight Compute (16384): up GEMM 735.5 us
// (748 TFLOP/s, = QKV's 749) vs 779.9 us with erff; block 3.825 ms of kernel time vs the rowstore's 4.057 ms.
#include "transformer_block_deferred.cuh"

namespace {
class OptimizedTransformerBlockDeferredHeadsPolygelu : public tb_deferred::DeferredBlock<15, true, false, true> {};
}  // namespace

AISP_BENCHMARK(OptimizedTransformerBlockDeferredHeadsPolygelu)
