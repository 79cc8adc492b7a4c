// ch20 transformer_block, step 4: step 3 (optimized_transformer_block_deferred_heads.cu) with programmatic
// dependent launch (transformer_block_deferred.cuh, change 3) on the QKV, out-projection, rstd2, up and down
// launches; the flash attention (ch10's kernel, no griddepcontrol.wait) and the first norm launch as before.
// Why it should be faster: each dependent kernel's launch, CTA start and prologue (barrier init, register
// reconfiguration) overlap the previous kernel's tail instead of following its completion.
// Expected on Hopper: a few us per boundary, ~1 % of the block or less.
// Measured (H200, 2026-11-28 (d), two device calls, clocks as found, most samples at sw_power_cap; `aisp bench run -t
// ch20:transformer_block --axis seq=6144,16384 --time-limit 4 --artifacts-dir /tmp/a --no-db`, 19/19 checks each;
// call 1 / call 2 medians, the rowstore block in the same calls 1.187 / 1.203 ms and 4.006 / 4.095 ms):
// 6144 tokens 1.130 / 1.143 ms, 16384 tokens 3.851 / 3.929 ms: no gain; 0.5-0.8 % SLOWER than step 3 in both
// calls (within ~2 x the noise). Not profiled; kept as a measured step that did not help.
#include "transformer_block_deferred.cuh"

namespace {
class OptimizedTransformerBlockDeferredHeadsPdl : public tb_deferred::DeferredBlock<15, true, true> {};
}  // namespace

AISP_BENCHMARK(OptimizedTransformerBlockDeferredHeadsPdl)
