// ch20 transformer_block, step 1 over optimized_transformer_block_rowstore.cu: the up GEMM's epilogue (rstd2
// scale + exact erf GELU, the heaviest) deferred under the next tile's main loop (transformer_block_deferred.cuh,
// change 1); the other three GEMMs unchanged.
// Why it should be faster: on the cooperative schedule the GELU epilogue (~128 erff per thread and tile, ~4 us
// of a ~24 us tile) runs while the tensor cores wait; deferred, only the rounding to packed bf16 (~200
// instructions) does, the GELU and stores run in the gaps of the next tile's first 16 k-tiles.
// Expected on Hopper: Nsight Compute had the up GEMM 37 us slower than the down GEMM of the same FLOPs (314 vs
// 277 us at 6144 tokens on the H200): most of that, ~3 % of the block.
// Measured (H200, 2026-11-28 (d), two device calls, clocks as found, most samples at sw_power_cap; `aisp bench run -t
// ch20:transformer_block --axis seq=6144,16384 --time-limit 4 --artifacts-dir /tmp/a --no-db`, 19/19 checks each;
// call 1 / call 2 medians, the rowstore block in the same calls 1.187 / 1.203 ms and 4.006 / 4.095 ms):
// 6144 tokens 1.177 / 1.193 ms, 16384 tokens 3.975 / 4.043 ms: ~0.8-1.3 % over the rowstore block, less than the
// 37 us (6144) hoped for: Nsight Compute (16384) put the up GEMM at 779.9 us deferred vs 828.4 us before, still
// 81 us above the down GEMM (698.6 us deferred): the deferred erff still costs (see _polygelu).
#include "transformer_block_deferred.cuh"

namespace {
class OptimizedTransformerBlockDeferredGelu : public tb_deferred::DeferredBlock<4, false, false> {};
}  // namespace

AISP_BENCHMARK(OptimizedTransformerBlockDeferredGelu)
