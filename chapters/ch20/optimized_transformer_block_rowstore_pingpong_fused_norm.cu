// ch20 transformer_block, both steps over optimized_transformer_block_rowstore.cu (transformer_block_rowstore.cuh):
// the up GEMM (GELU epilogue) on the ping-pong schedule and the second RMSNorm's sum of squares in the
// out-projection's epilogue (7 launches).
// Why it should be faster: the two savings of optimized_transformer_block_rowstore_pingpong.cu and
// optimized_transformer_block_rowstore_fused_norm.cu together.
// Expected on Hopper: their two gains added.
#include "transformer_block_rowstore.cuh"

namespace {
class OptimizedTransformerBlockRowstorePingpongFusedNorm : public tb_rowstore::RowstoreBlock<true, true> {};
}  // namespace

AISP_BENCHMARK(OptimizedTransformerBlockRowstorePingpongFusedNorm)
