// ch20 transformer_block, 16-byte-run GEMM epilogues (as optimized_transformer_block_rowstore.cu) with the second
// RMSNorm's statistics fused too (transformer_block_rowstore.cuh, kFuseNorm2): the out-projection epilogue sums
// the squares of the rounded a per row (4-lane shuffle, one fp32 atomicAdd per row and 256-column tile) and the
// up GEMM's epilogue takes rsqrt(sum / d + eps); the first norm kernel zeroes the sums. 7 launches.
// Why it should be faster: removes a launch and a 25 MiB read of a (~8 us on the H200).
// Expected on Hopper: ~0.5-1% over optimized_transformer_block_rowstore.cu.
// Measured (H200, harness cold mode, 2026-11-28 (b), `aisp bench run -t ch20:transformer_block --time-limit 5
// --update-expectations`, 19 checks passed): 1.201 ms, 2.377x [2.334, 2.421]; the rowstore block in the same run 1.199 ms: no
// measurable gain (the ~8 us expected is below this run's ~0.5-1% noise; the atomics and the extra epilogue work may take part
// of it back).
#include "transformer_block_rowstore.cuh"

namespace {
class OptimizedTransformerBlockRowstoreFusedNorm : public tb_rowstore::RowstoreBlock<false, true> {};
}  // namespace

AISP_BENCHMARK(OptimizedTransformerBlockRowstoreFusedNorm)
