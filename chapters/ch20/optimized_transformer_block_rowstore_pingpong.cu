// ch20 transformer_block, 16-byte-run GEMM epilogues (as optimized_transformer_block_rowstore.cu) with the up
// GEMM on the ping-pong schedule (transformer_block_rowstore.cuh): its epilogue is the heavy one (rstd scale and
// an exact erf GELU, ~128 erff per thread and tile), which the cooperative schedule runs while the tensor cores
// wait; on ping-pong one consumer warpgroup's epilogue overlaps the other's main loop.
// Why it should be faster: hides a few us of GELU per ~20 us tile of the largest GEMM (0.206 TFLOP). Against
// it: 64-row tiles read B from L2 twice as often per FLOP (bf16_mlp: ping-pong 2-5% slower with light epilogues).
// Expected on Hopper: a few % on the up GEMM over optimized_transformer_block_rowstore.cu, if the GELU is the cost.
// Measured (H200, harness cold mode, 2026-11-28 (b), `aisp bench run -t ch20:transformer_block --time-limit 5
// --update-expectations`, 19 checks passed): 1.204 ms, 2.372x [2.329, 2.415]; the cooperative rowstore block in the same
// run 1.199 ms: no gain (SAME within the noise): the GELU epilogue is not what limits the up GEMM, or the 64-row tiles' extra
// L2 reads of B cost as much as the overlap saves. Not profiled.
#include "transformer_block_rowstore.cuh"

namespace {
class OptimizedTransformerBlockRowstorePingpong : public tb_rowstore::RowstoreBlock<true, false> {};
}  // namespace

AISP_BENCHMARK(OptimizedTransformerBlockRowstorePingpong)
