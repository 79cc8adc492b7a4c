// ch20 transformer_block, step 1 over optimized_transformer_block_rowstore.cu: the up GEMM's epilogue (rstd2
// scale + exact erf GELU, the heaviest) deferred under the next tile's main loop (transformer_block_deferred.cuh,
// change 1); the other three GEMMs unchanged.
// Why it should be faster: on the cooperative schedule the GELU epilogue (~128 erff per thread and tile, ~4 us
// of a ~24 us tile) runs while the tensor cores wait; deferred, only the rounding to packed bf16 (~200
// instructions) does, the GELU and stores run in the gaps of the next tile's first 16 k-tiles.
// Expected on Hopper: Nsight Compute had the up GEMM 37 us slower than the down GEMM of the same FLOPs (314 vs
// 277 us at 6144 tokens on the H200): most of that, ~3 % of the block.
#include "transformer_block_deferred.cuh"

namespace {
class OptimizedTransformerBlockDeferredGelu : public tb_deferred::DeferredBlock<4, false, false> {};
}  // namespace

AISP_BENCHMARK(OptimizedTransformerBlockDeferredGelu)
