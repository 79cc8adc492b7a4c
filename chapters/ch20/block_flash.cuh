// The causal flash attention both optimized transformer blocks run (optimized_transformer_block.cu and the
// rowstore variants, transformer_block_rowstore.cuh): ch10's FA3-style wgmma kernel with all its switches on,
// its shared-memory opt-in, its TMA maps and its launch shape, in one place.
#pragma once
#include <cuda_bf16.h>

#include "../ch10/flash_attention_wgmma.cuh"
#include "../ch10/gemm_sm90.cuh"
#include "block_kernels.cuh"

namespace block {

inline constexpr auto kFlash = fa_wgmma::flash_fwd_wgmma_kernel</*causal=*/true, /*overlap=*/true, /*pingpong=*/true,
                                                                /*split release=*/true, /*setmaxnreg=*/true>;

class BlockFlash {
 public:
  // Once, in setup(), after q, k, v ([bh * seq][128] each) are allocated. The maps: [rows][128] rows, 64 x 128
  // boxes, 128-byte swizzle (the flash kernel's own encoder's format, which ch10's GEMM encoder produces for
  // cols = 128, box rows = 128).
  void prepare(const __nv_bfloat16* q, const __nv_bfloat16* k, const __nv_bfloat16* v, int64_t rows) {
    AISP_CUDA_CHECK(cudaFuncSetAttribute(kFlash, cudaFuncAttributeMaxDynamicSharedMemorySize, fa_wgmma::kSmemBytes));
    const __nv_bfloat16* qkv[3] = {q, k, v};
    for (int i = 0; i < 3; ++i) maps_[i] = sm90::encode_kmajor_bf16(qkv[i], rows, kHeadDim, 128);
  }

  // o = softmax(q k^T * scale, causal) v for each of bh heads of seq rows (o in the same [bh][seq][128] layout).
  void launch(cudaStream_t st, __nv_bfloat16* o, int seq, int bh, float scale) const {
    kFlash<<<dim3(static_cast<unsigned>(seq / fa_wgmma::kBr), static_cast<unsigned>(bh)), fa_wgmma::kThreads,
             fa_wgmma::kSmemBytes, st>>>(maps_[0], maps_[1], maps_[2], o, seq, scale * 1.4426950408889634f);
    AISP_LAUNCH_CHECK();
  }

 private:
  CUtensorMap maps_[3]{};
};

}  // namespace block
