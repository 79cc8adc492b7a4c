// ch20 transformer_block, step 2: all four GEMMs' epilogues deferred under the next tile's main loop
// (transformer_block_deferred.cuh, change 1): QKV's stores, the out-projection's and the down GEMM's residual
// adds (their residual loads issued two k-tiles ahead of use) and the up GEMM's GELU.
// Why it should be faster: every epilogue of the cooperative schedule idles the tensor cores; the residual
// epilogues also wait on global loads. Deferred, a tile boundary costs only the rounding to packed bf16.
// Expected on Hopper: a further ~1-2 % over the deferred GELU step (QKV 1152, out-proj 384, down 384 tiles).
// Measured (H200, 2026-11-28 (d), two device calls, clocks as found, most samples at sw_power_cap; `aisp bench run -t
// ch20:transformer_block --axis seq=6144,16384 --time-limit 4 --artifacts-dir /tmp/a --no-db`, 19/19 checks each;
// call 1 / call 2 medians, the rowstore block in the same calls 1.187 / 1.203 ms and 4.006 / 4.095 ms):
// 6144 tokens 1.140 / 1.151 ms (2.699x / 2.675x), 16384 tokens 3.864 / 3.930 ms (4.466x / 4.426x): 4.0-4.3 % over
// the rowstore block, 3-3.5 % over the deferred GELU alone. Nsight Compute (16384, deferred_heads): out-projection
// 252.8 -> 191.2 us, down 745.6 -> 688.4 us, QKV unchanged (549.5 / 544.3 us: its epilogue is only stores).
#include "transformer_block_deferred.cuh"

namespace {
class OptimizedTransformerBlockDeferred : public tb_deferred::DeferredBlock<15, false, false> {};
}  // namespace

AISP_BENCHMARK(OptimizedTransformerBlockDeferred)
