// ch20 transformer_block, step 3: deferred epilogues (as optimized_transformer_block_deferred.cu) and the
// out-projection's A operand read by TMA straight from the attention's [batch*heads][seq][128] output
// (transformer_block_deferred.cuh, change 2): no merge_heads pass. 7 launches.
// Why it should be faster: the merge pass reads and writes 25 MiB at 6144 tokens (13.4 us by Nsight Compute on
// the H200) and adds a launch; the out-projection's A tiles (128 tokens x 64 of K) each lie inside one head,
// so the TMA box only changes its coordinates.
// Expected on Hopper: ~13 us (~1.1 %) less than the deferred step at 6144 tokens, ~2.5x that at 16384.
#include "transformer_block_deferred.cuh"

namespace {
class OptimizedTransformerBlockDeferredHeads : public tb_deferred::DeferredBlock<15, true, false> {};
}  // namespace

AISP_BENCHMARK(OptimizedTransformerBlockDeferredHeads)
