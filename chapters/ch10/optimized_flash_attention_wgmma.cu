// ch10 flash_attention, optimized (wgmma): FlashAttention-3-style fused kernel on Hopper's own instructions
// (flash_attention_wgmma.cuh).
//
// Technique: a producer warpgroup issues TMA loads of K/V tiles (128 keys) into a 2-stage mbarrier ring;
// two consumer warpgroups (64 query rows each, 240 registers via setmaxnreg) compute S = Q K^T and
// O += P V with wgmma m64n128k16 (operands from 128-byte-swizzled shared memory, P from registers) and the
// online softmax in between.
// Why it is faster than the mma.sync kernel: wgmma is the only path to Hopper's full tensor rate (mma.sync
// tops out near 2/3 of it); one wgmma does 64 x 128 x 16 per warpgroup where mma.sync needed 32
// instructions plus their ldmatrix loads, so the issue slots go to the softmax; TMA moves the tiles with
// one instruction per box and no address arithmetic in the consumers.
// Expected on Hopper: FlashAttention-3 reaches ~640 TFLOP/s at this shape with intra-warpgroup overlap and
// ping-pong scheduling on top of this structure; without them ~450-550 TFLOP/s.
// Measured: see chapters/ch10/README.md.
#include "flash_attention_wgmma.cuh"

using OptimizedFlashAttentionWgmma = fa_wgmma::FlashAttentionWgmma<false, false, false, false>;
AISP_BENCHMARK(OptimizedFlashAttentionWgmma)
