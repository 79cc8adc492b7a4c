// bf16_mlp_pointwise: the two elementwise kernels of the bf16_mlp pair's unfused pipelines (the baseline over
// bf16_mlp_gemm.cuh's GEMM, the ch10-GEMM control): h = silu(g) * u and y = x + d, 8 bf16 (one 16-byte chunk)
// per thread, fp32 math. Declared once so that every unfused variant runs the same pointwise code.
#pragma once
#include "bf16_mlp.cuh"

namespace bf16_mlp {

__global__ void swiglu_kernel(const __nv_bfloat16* __restrict__ g, const __nv_bfloat16* __restrict__ u, int64_t chunks,
                              __nv_bfloat16* __restrict__ h) {
  using namespace block;
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i >= chunks) return;
  float fg[8], fu[8];
  unpack8(reinterpret_cast<const uint4*>(g)[i], fg);
  unpack8(reinterpret_cast<const uint4*>(u)[i], fu);
#pragma unroll
  for (int j = 0; j < 8; ++j) fg[j] = silu(fg[j]) * fu[j];
  reinterpret_cast<uint4*>(h)[i] = pack8(fg);
}

__global__ void residual_kernel(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ d, int64_t chunks,
                                __nv_bfloat16* __restrict__ y) {
  using namespace block;
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i >= chunks) return;
  float fx[8], fd[8];
  unpack8(reinterpret_cast<const uint4*>(x)[i], fx);
  unpack8(reinterpret_cast<const uint4*>(d)[i], fd);
#pragma unroll
  for (int j = 0; j < 8; ++j) fx[j] += fd[j];
  reinterpret_cast<uint4*>(y)[i] = pack8(fx);
}

}  // namespace bf16_mlp
