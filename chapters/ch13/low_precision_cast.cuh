// FP32 -> BF16 and FP32 -> FP8 (e4m3, per-tensor scale) conversion kernels for the precision pairs.
//
// FP8 with a per-tensor scale ("dynamic scaling", as Transformer Engine's current-scaling recipe): the
// scale maps the tensor's largest magnitude onto e4m3's largest finite value, 448, so the tensor uses the
// format's whole range: q = sat(x * 448 / amax), and the GEMM multiplies by the dequantization factor
// amax / 448 per operand. Two passes over the tensor: amax (a reduction), then quantize. All on the
// stream, no host round trip: the quantize kernel reads amax from device memory and writes the factor.
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp8.h>

#include <cstdint>

#include "aisp/aisp.hpp"

inline constexpr float kE4m3Max = 448.0f;

namespace {

inline unsigned cast_blocks(int64_t n) { return static_cast<unsigned>((n / 8 + 255) / 256); }

// 8 floats per thread (two 16-byte loads), one 16-byte store of 8 BF16. n % 8 == 0.
__global__ void cast_f32_to_bf16(const float* __restrict__ x, __nv_bfloat16* __restrict__ y, int64_t n) {
  const int64_t i = (blockIdx.x * int64_t(blockDim.x) + threadIdx.x) * 8;
  if (i >= n) return;
  const float4 lo = reinterpret_cast<const float4*>(x + i)[0], hi = reinterpret_cast<const float4*>(x + i)[1];
  __nv_bfloat162 out[4] = {__floats2bfloat162_rn(lo.x, lo.y), __floats2bfloat162_rn(lo.z, lo.w),
                           __floats2bfloat162_rn(hi.x, hi.y), __floats2bfloat162_rn(hi.z, hi.w)};
  *reinterpret_cast<uint4*>(y + i) = *reinterpret_cast<const uint4*>(out);
}

// amax = max |x| into *amax (which must be 0 on entry). Non-negative floats order like their bit
// patterns, so the cross-block max is an integer atomicMax.
__global__ void abs_max(const float* __restrict__ x, unsigned* __restrict__ amax, int64_t n) {
  float m = 0;
  for (int64_t i = (blockIdx.x * int64_t(blockDim.x) + threadIdx.x) * 4; i < n; i += int64_t(gridDim.x) * blockDim.x * 4) {
    const float4 v = *reinterpret_cast<const float4*>(x + i);
    m = fmaxf(m, fmaxf(fmaxf(fabsf(v.x), fabsf(v.y)), fmaxf(fabsf(v.z), fabsf(v.w))));
  }
  for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  __shared__ float warp_max[32];
  if (threadIdx.x % 32 == 0) warp_max[threadIdx.x / 32] = m;
  __syncthreads();
  if (threadIdx.x < 32) {
    m = threadIdx.x < blockDim.x / 32 ? warp_max[threadIdx.x] : 0.0f;
    for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    if (threadIdx.x == 0) atomicMax(amax, __float_as_uint(m));
  }
}

// q = sat_e4m3(x * 448 / amax); block 0 also writes the dequantization factor amax / 448.
__global__ void quantize_e4m3(const float* __restrict__ x, const unsigned* __restrict__ amax_bits,
                              __nv_fp8_e4m3* __restrict__ q, float* __restrict__ dequant, int64_t n) {
  const float amax = __uint_as_float(*amax_bits);
  const float scale = amax > 0 ? kE4m3Max / amax : 1.0f;
  if (blockIdx.x == 0 && threadIdx.x == 0) *dequant = 1.0f / scale;
  const int64_t i = (blockIdx.x * int64_t(blockDim.x) + threadIdx.x) * 8;
  if (i >= n) return;
  const float4 lo = reinterpret_cast<const float4*>(x + i)[0], hi = reinterpret_cast<const float4*>(x + i)[1];
  const float v[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
  __nv_fp8_e4m3 out[8];
#pragma unroll
  for (int j = 0; j < 8; ++j) out[j] = __nv_fp8_e4m3(v[j] * scale);  // round to nearest, saturating
  *reinterpret_cast<uint2*>(q + i) = *reinterpret_cast<const uint2*>(out);
}

}  // namespace

// The two FP8 passes on stream s; `amax` is a device word this call resets first.
inline void quantize_per_tensor_e4m3(cudaStream_t s, const float* x, int64_t n, unsigned* amax, __nv_fp8_e4m3* q,
                                     float* dequant, int sm_count) {
  AISP_CUDA_CHECK(cudaMemsetAsync(amax, 0, sizeof(unsigned), s));
  abs_max<<<4 * sm_count, 512, 0, s>>>(x, amax, n);
  AISP_LAUNCH_CHECK();
  quantize_e4m3<<<cast_blocks(n), 256, 0, s>>>(x, amax, q, dequant, n);
  AISP_LAUNCH_CHECK();
}
