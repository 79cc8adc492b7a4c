// ch20 transformer_block, step 3: deferred epilogues (as optimized_transformer_block_deferred.cu) and the
// out-projection's A operand read by TMA straight from the attention's [batch*heads][seq][128] output
// (transformer_block_deferred.cuh, change 2): no merge_heads pass. 7 launches.
// Why it should be faster: the merge pass reads and writes 25 MiB at 6144 tokens (13.4 us by Nsight Compute on
// the H200) and adds a launch; the out-projection's A tiles (128 tokens x 64 of K) each lie inside one head,
// so the TMA box only changes its coordinates.
// Expected on Hopper: ~13 us (~1.1 %) less than the deferred step at 6144 tokens, ~2.5x that at 16384.
// Measured (H200, 2026-11-28 (d), two device calls, clocks as found, most samples at sw_power_cap; `aisp bench run -t
// ch20:transformer_block --axis seq=6144,16384 --time-limit 4 --artifacts-dir /tmp/a --no-db`, 19/19 checks each;
// call 1 / call 2 medians, the rowstore block in the same calls 1.187 / 1.203 ms and 4.006 / 4.095 ms):
// 6144 tokens 1.124 / 1.134 ms (2.737x / 2.715x), 16384 tokens 3.838 / 3.901 ms (4.496x / 4.459x): 13-17 us (6144)
// and 26-29 us (16384) below the deferred step, the merge pass's share (32.8 us at 16384 by Nsight Compute).
#include "transformer_block_deferred.cuh"

namespace {
class OptimizedTransformerBlockDeferredHeads : public tb_deferred::DeferredBlock<15, true, false> {};
}  // namespace

AISP_BENCHMARK(OptimizedTransformerBlockDeferredHeads)
