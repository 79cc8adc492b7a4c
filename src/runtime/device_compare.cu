#include "runtime/device_compare.hpp"

#include <algorithm>
#include <cstring>

#include "aisp/check.hpp"
#include "core/element_rule.hpp"

namespace aisp {
namespace {

struct CompareSlots {
  unsigned long long mismatches;
  unsigned long long first;         // smallest mismatching index (~0 when none)
  unsigned long long max_abs_bits;  // non-negative doubles order like their bit patterns
  unsigned long long max_rel_bits;
};

constexpr int kThreads = 256;

__device__ unsigned long long warp_sum(unsigned long long v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}
__device__ unsigned long long warp_min(unsigned long long v) {
  for (int o = 16; o > 0; o >>= 1) v = min(v, __shfl_down_sync(0xffffffffu, v, o));
  return v;
}
__device__ unsigned long long warp_max(unsigned long long v) {
  for (int o = 16; o > 0; o >>= 1) v = max(v, __shfl_down_sync(0xffffffffu, v, o));
  return v;
}

// One pass over both buffers: every thread judges a grid-stride slice, then warps and the block reduce,
// and one thread per block folds the block's summary into the slots with atomics.
template <DType D>
__global__ void __launch_bounds__(kThreads) compare_kernel(const void* __restrict__ base, const void* __restrict__ cand,
                                                          int64_t n, double rtol, double atol, CompareSlots* out) {
  unsigned long long mismatches = 0, first = ~0ull, max_abs = 0, max_rel = 0;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
    element_rule::ElementVerdict e = element_rule::judge_element(base, cand, i, D, rtol, atol);
    if (e.has_error) {
      max_abs = max(max_abs, static_cast<unsigned long long>(__double_as_longlong(e.abs_err)));
      max_rel = max(max_rel, static_cast<unsigned long long>(__double_as_longlong(e.rel_err)));
    }
    if (!e.ok) {
      ++mismatches;
      first = min(first, static_cast<unsigned long long>(i));
    }
  }
  mismatches = warp_sum(mismatches);
  first = warp_min(first);
  max_abs = warp_max(max_abs);
  max_rel = warp_max(max_rel);
  __shared__ unsigned long long s[4][kThreads / 32];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) {
    s[0][warp] = mismatches;
    s[1][warp] = first;
    s[2][warp] = max_abs;
    s[3][warp] = max_rel;
  }
  __syncthreads();
  if (threadIdx.x != 0) return;
  for (int w = 1; w < kThreads / 32; ++w) {
    mismatches += s[0][w];
    first = min(first, s[1][w]);
    max_abs = max(max_abs, s[2][w]);
    max_rel = max(max_rel, s[3][w]);
  }
  if (mismatches) atomicAdd(&out->mismatches, mismatches);
  if (first != ~0ull) atomicMin(&out->first, first);
  atomicMax(&out->max_abs_bits, max_abs);
  atomicMax(&out->max_rel_bits, max_rel);
}

template <DType D>
void launch(const void* b, const void* c, int64_t n, ToleranceValues tol, CompareSlots* slots, cudaStream_t s) {
  int blocks = static_cast<int>(std::clamp<int64_t>((n + kThreads - 1) / kThreads, 1, 16384));
  compare_kernel<D><<<blocks, kThreads, 0, s>>>(b, c, n, tol.rtol, tol.atol, slots);
}

void dispatch(DType dt, const void* b, const void* c, int64_t n, ToleranceValues tol, CompareSlots* slots, cudaStream_t s) {
  switch (dt) {
    case DType::f64: return launch<DType::f64>(b, c, n, tol, slots, s);
    case DType::f32: return launch<DType::f32>(b, c, n, tol, slots, s);
    case DType::tf32: return launch<DType::tf32>(b, c, n, tol, slots, s);
    case DType::f16: return launch<DType::f16>(b, c, n, tol, slots, s);
    case DType::bf16: return launch<DType::bf16>(b, c, n, tol, slots, s);
    case DType::fp8_e4m3: return launch<DType::fp8_e4m3>(b, c, n, tol, slots, s);
    case DType::fp8_e5m2: return launch<DType::fp8_e5m2>(b, c, n, tol, slots, s);
    case DType::i64: return launch<DType::i64>(b, c, n, tol, slots, s);
    case DType::i32: return launch<DType::i32>(b, c, n, tol, slots, s);
    case DType::i8: return launch<DType::i8>(b, c, n, tol, slots, s);
    case DType::u8: return launch<DType::u8>(b, c, n, tol, slots, s);
  }
}

double as_double(unsigned long long bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

// Element `i` of a device buffer, decoded on the host.
double element_at(const void* data, int64_t i, DType dt, cudaStream_t s) {
  unsigned char bytes[8] = {};
  size_t size = dtype_size(dt);
  AISP_CUDA_CHECK(cudaMemcpyAsync(bytes, static_cast<const unsigned char*>(data) + i * static_cast<int64_t>(size), size,
                                  cudaMemcpyDeviceToHost, s));
  AISP_CUDA_CHECK(cudaStreamSynchronize(s));
  return element_as_double(bytes, 0, dt);
}

}  // namespace

CompareResult compare_on_device(const void* baseline, const void* candidate, int64_t count, DType dtype,
                                ToleranceValues tol, cudaStream_t stream) {
  CompareResult r;
  if (count <= 0) return r;
  r.count = count;
  CompareSlots* slots = nullptr;
  AISP_CUDA_CHECK(cudaMallocAsync(&slots, sizeof(CompareSlots), stream));
  CompareSlots init{0, ~0ull, 0, 0};
  AISP_CUDA_CHECK(cudaMemcpyAsync(slots, &init, sizeof init, cudaMemcpyHostToDevice, stream));
  dispatch(dtype, baseline, candidate, count, tol, slots, stream);
  AISP_LAUNCH_CHECK();
  CompareSlots h{};
  AISP_CUDA_CHECK(cudaMemcpyAsync(&h, slots, sizeof h, cudaMemcpyDeviceToHost, stream));
  AISP_CUDA_CHECK(cudaFreeAsync(slots, stream));
  AISP_CUDA_CHECK(cudaStreamSynchronize(stream));
  r.mismatches = static_cast<int64_t>(h.mismatches);
  r.max_abs_error = as_double(h.max_abs_bits);
  r.max_rel_error = as_double(h.max_rel_bits);
  if (r.mismatches) {
    r.first_mismatch = static_cast<int64_t>(h.first);
    r.baseline_value_at_first = element_at(baseline, r.first_mismatch, dtype, stream);
    r.candidate_value_at_first = element_at(candidate, r.first_mismatch, dtype, stream);
  }
  return r;
}

}  // namespace aisp
