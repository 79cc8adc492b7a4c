// ch20 transformer_block, step 4: step 3 (optimized_transformer_block_deferred_heads.cu) with programmatic
// dependent launch (transformer_block_deferred.cuh, change 3) on the QKV, out-projection, rstd2, up and down
// launches; the flash attention (ch10's kernel, no griddepcontrol.wait) and the first norm launch as before.
// Why it should be faster: each dependent kernel's launch, CTA start and prologue (barrier init, register
// reconfiguration) overlap the previous kernel's tail instead of following its completion.
// Expected on Hopper: a few us per boundary, ~1 % of the block or less.
#include "transformer_block_deferred.cuh"

namespace {
class OptimizedTransformerBlockDeferredHeadsPdl : public tb_deferred::DeferredBlock<15, true, true> {};
}  // namespace

AISP_BENCHMARK(OptimizedTransformerBlockDeferredHeadsPdl)
