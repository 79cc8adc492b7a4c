#include "runtime/output_projection.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include "aisp/check.hpp"

namespace aisp {
namespace {

// murmur3's finalizer: 32-bit multiplies only (64-bit ones are emulated on the GPU), enough mixing for
// four independent-looking sign bits per element.
__device__ inline uint32_t fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  return h ^ (h >> 16);
}

template <class T>
__device__ inline double as_double(T v) {
  if constexpr (std::is_same_v<T, __half>) return __half2float(v);
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return __bfloat162float(v);
  else if constexpr (std::is_same_v<T, __nv_fp8_e4m3> || std::is_same_v<T, __nv_fp8_e5m2>) return float(v);
  else return static_cast<double>(v);
}

constexpr int kThreads = 256;

template <class T>
__global__ void project_kernel(const T* __restrict__ x, int64_t n, uint32_t key_lo, uint32_t key_hi,
                               double* __restrict__ slots) {
  double acc[kProjectionSlots] = {};
  for (int64_t j = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; j < n; j += int64_t(gridDim.x) * blockDim.x) {
    const double v = as_double(x[j]);
    if (!isfinite(v)) {
      acc[kProjections + 2] += 1.0;
      continue;
    }
    const uint32_t h = fmix32(static_cast<uint32_t>(j) * 0x9e3779b1u ^ key_lo ^ fmix32(static_cast<uint32_t>(j >> 32) ^ key_hi));
#pragma unroll
    for (int k = 0; k < kProjections; ++k) acc[k] += (h >> (31 - k)) & 1u ? v : -v;
    acc[kProjections] += fabs(v);
    acc[kProjections + 1] += v * v;
  }
  __shared__ double part[kThreads / 32][kProjectionSlots];
#pragma unroll
  for (int k = 0; k < kProjectionSlots; ++k) {
    double a = acc[k];
    for (int off = 16; off > 0; off >>= 1) a += __shfl_down_sync(0xffffffffu, a, off);
    if ((threadIdx.x & 31) == 0) part[threadIdx.x / 32][k] = a;
  }
  __syncthreads();
  if (threadIdx.x < kProjectionSlots) {
    double a = 0;
    for (int w = 0; w < kThreads / 32; ++w) a += part[w][threadIdx.x];
    if (a != 0) atomicAdd(slots + threadIdx.x, a);
  }
}

template <class T>
void launch(const Buffer& b, uint64_t key, double* slots, cudaStream_t s) {
  const int64_t n = b.count();
  const int blocks = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>((n + kThreads - 1) / kThreads, 1024)));
  project_kernel<T><<<blocks, kThreads, 0, s>>>(static_cast<const T*>(b.data), n, static_cast<uint32_t>(key),
                                                static_cast<uint32_t>(key >> 32), slots);
  AISP_LAUNCH_CHECK();
}

}  // namespace

void project_output_async(const Buffer& b, uint64_t key, double* slots, cudaStream_t s) {
  AISP_CUDA_CHECK(cudaMemsetAsync(slots, 0, kProjectionSlots * sizeof(double), s));
  if (b.count() == 0) return;
  switch (b.dtype) {
    case DType::f64: launch<double>(b, key, slots, s); break;
    case DType::f32: case DType::tf32: launch<float>(b, key, slots, s); break;
    case DType::f16: launch<__half>(b, key, slots, s); break;
    case DType::bf16: launch<__nv_bfloat16>(b, key, slots, s); break;
    case DType::fp8_e4m3: launch<__nv_fp8_e4m3>(b, key, slots, s); break;
    case DType::fp8_e5m2: launch<__nv_fp8_e5m2>(b, key, slots, s); break;
    case DType::i64: launch<int64_t>(b, key, slots, s); break;
    case DType::i32: launch<int32_t>(b, key, slots, s); break;
    case DType::i8: launch<int8_t>(b, key, slots, s); break;
    case DType::u8: launch<uint8_t>(b, key, slots, s); break;
  }
}

OutputProjection projection_from_slots(const double* h) {
  OutputProjection o;
  for (int k = 0; k < kProjections; ++k) o.proj[k] = h[k];
  o.abs_sum = h[kProjections];
  o.sq_sum = h[kProjections + 1];
  o.nonfinite = h[kProjections + 2];
  return o;
}

}  // namespace aisp
