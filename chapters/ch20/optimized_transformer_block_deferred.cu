// ch20 transformer_block, step 2: all four GEMMs' epilogues deferred under the next tile's main loop
// (transformer_block_deferred.cuh, change 1): QKV's stores, the out-projection's and the down GEMM's residual
// adds (their residual loads issued two k-tiles ahead of use) and the up GEMM's GELU.
// Why it should be faster: every epilogue of the cooperative schedule idles the tensor cores; the residual
// epilogues also wait on global loads. Deferred, a tile boundary costs only the rounding to packed bf16.
// Expected on Hopper: a further ~1-2 % over the deferred GELU step (QKV 1152, out-proj 384, down 384 tiles).
#include "transformer_block_deferred.cuh"

namespace {
class OptimizedTransformerBlockDeferred : public tb_deferred::DeferredBlock<15, false, false> {};
}  // namespace

AISP_BENCHMARK(OptimizedTransformerBlockDeferred)
