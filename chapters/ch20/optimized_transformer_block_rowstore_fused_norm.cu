// ch20 transformer_block, 16-byte-run GEMM epilogues (as optimized_transformer_block_rowstore.cu) with the second
// RMSNorm's statistics fused too (transformer_block_rowstore.cuh, kFuseNorm2): the out-projection epilogue sums
// the squares of the rounded a per row (4-lane shuffle, one fp32 atomicAdd per row and 256-column tile) and the
// up GEMM's epilogue takes rsqrt(sum / d + eps); the first norm kernel zeroes the sums. 7 launches.
// Why it should be faster: removes a launch and a 25 MiB read of a (~8 us on the H200).
// Expected on Hopper: ~0.5-1% over optimized_transformer_block_rowstore.cu.
#include "transformer_block_rowstore.cuh"

namespace {
class OptimizedTransformerBlockRowstoreFusedNorm : public tb_rowstore::RowstoreBlock<false, true> {};
}  // namespace

AISP_BENCHMARK(OptimizedTransformerBlockRowstoreFusedNorm)
