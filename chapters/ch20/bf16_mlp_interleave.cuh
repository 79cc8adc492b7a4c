// bf16_mlp_interleave: the packed gate/up weights of the two fused variants on ch10's GEMM
// (optimized_bf16_mlp.cu, optimized_bf16_mlp_tma_store.cu): row 2j = Wg[j], row 2j + 1 = Wu[j], so that ch10's
// two-column epilogue receives (gate_j, up_j) of one token together. Built once in setup() (static weights).
// (The variants on bf16_mlp_gemm.cuh pack differently: mlp_gemm::launch_permute_rows.)
#pragma once
#include "bf16_mlp.cuh"

namespace bf16_mlp {

// out[2j + r][k] = (r ? wu : wg)[j][k], 8 elements (one 16-byte chunk of out) per thread.
__global__ void interleave_rows(const __nv_bfloat16* __restrict__ wg, const __nv_bfloat16* __restrict__ wu, int64_t rows, int k,
                                __nv_bfloat16* __restrict__ out) {
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;  // 16-byte chunk of out
  const int per_row = k / 8;
  if (i >= 2 * rows * per_row) return;
  const int64_t r = i / per_row, c = i % per_row;
  const __nv_bfloat16* src = (r % 2 ? wu : wg) + (r / 2) * k;
  reinterpret_cast<uint4*>(out)[i] = reinterpret_cast<const uint4*>(src)[c];
}

// out = the [2 rows][k] interleave of wg and wu ([rows][k] each) on stream st; k % 8 == 0.
inline void launch_interleave_rows(cudaStream_t st, const __nv_bfloat16* wg, const __nv_bfloat16* wu, int64_t rows, int k,
                                   __nv_bfloat16* out) {
  interleave_rows<<<static_cast<unsigned>((2 * rows * k / 8 + 255) / 256), 256, 0, st>>>(wg, wu, rows, k, out);
  AISP_LAUNCH_CHECK();
}

// The start of both fused ch10-GEMM variants' prepare(): scratch for h [tokens][ffn] (the SwiGLU output) and
// for the interleaved gate/up weights [2 ffn][dim], the interleave run on the harness stream and waited for.
inline void prepare_interleaved_gate_up(aisp::Context& ctx, int64_t t, int64_t d, int64_t f, __nv_bfloat16*& h,
                                        __nv_bfloat16*& wgu) {
  h = static_cast<__nv_bfloat16*>(ctx.scratch("h", static_cast<size_t>(t * f) * sizeof(__nv_bfloat16)));
  wgu = static_cast<__nv_bfloat16*>(ctx.scratch("w_gate_up", static_cast<size_t>(2 * f * d) * sizeof(__nv_bfloat16)));
  launch_interleave_rows(ctx.stream(), ctx.buffer("wg").as<const __nv_bfloat16>(), ctx.buffer("wu").as<const __nv_bfloat16>(),
                         f, static_cast<int>(d), wgu);
  AISP_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
}

}  // namespace bf16_mlp
