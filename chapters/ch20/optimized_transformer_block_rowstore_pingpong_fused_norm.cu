// ch20 transformer_block, both steps over optimized_transformer_block_rowstore.cu (transformer_block_rowstore.cuh):
// the up GEMM (GELU epilogue) on the ping-pong schedule and the second RMSNorm's sum of squares in the
// out-projection's epilogue (7 launches).
// Why it should be faster: the two savings of optimized_transformer_block_rowstore_pingpong.cu and
// optimized_transformer_block_rowstore_fused_norm.cu together.
// Expected on Hopper: their two gains added.
// Measured (H200, harness cold mode, 2026-11-28 (b), `aisp bench run -t ch20:transformer_block --time-limit 5
// --update-expectations`, 19 checks passed): 1.202 ms, 2.376x [2.333, 2.419]: SAME as the plain rowstore block (1.199 ms), as
// each step alone.
#include "transformer_block_rowstore.cuh"

namespace {
class OptimizedTransformerBlockRowstorePingpongFusedNorm : public tb_rowstore::RowstoreBlock<true, true> {};
}  // namespace

AISP_BENCHMARK(OptimizedTransformerBlockRowstorePingpongFusedNorm)
