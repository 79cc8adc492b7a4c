// memory_bound: a chain of five elementwise ops over n floats - scale/shift, SiLU, residual add, clamp,
// output scale: out = 0.5 * clamp(silu(1.7 x - 0.3) + r, -3, 3) - the tail of an MLP block as an eager
// framework runs it. Shared by baseline_memory_bound.cu (five kernels, one per op, through a scratch
// buffer) and optimized_memory_bound.cu (one kernel applying all five). Both use the same kernel template
// and the same IEEE-rounded op functions in the same order, so their outputs are identical bit for bit.
#pragma once
#include <cstdint>
#include <stdexcept>

#include "aisp/aisp.hpp"

// 2^24 floats = 64 MiB per buffer: the fused kernel moves 192 MiB (x, r in; out), 3.8x H100's 50 MB L2.
inline constexpr int64_t kMemoryBoundN = int64_t{1} << 24;
inline constexpr int kMemoryBoundThreads = 256;

inline aisp::Workload memory_bound_workload() {
  const double n = static_cast<double>(kMemoryBoundN);
  aisp::Workload w;
  w.params = {{"n", kMemoryBoundN}};
  w.precision = aisp::DType::f32;
  w.bytes = 3.0 * n * sizeof(float);  // x and r read once, out written once
  w.flops = 8.0 * n;                  // fma, silu (~3 + exp), add, 2 compares, mul; order of magnitude only
  w.items = n;
  w.item_unit = "elements";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class MemoryBoundBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return memory_bound_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    ctx.input("x", aisp::DType::f32, {n});
    ctx.input("r", aisp::DType::f32, {n});  // the residual stream
    ctx.output("out", aisp::DType::f32, {n});
  }
};

inline void check_memory_bound_shape(int64_t n) {
  if (n % 4 != 0) throw std::runtime_error("memory_bound: n must be a multiple of 4 (float4 kernels)");
}

// The five ops. _rn intrinsics pin the rounding so the fused kernel cannot contract two ops into one FMA
// that the unfused chain (which rounds to memory between them) would not.
struct ScaleShift {
  __device__ float operator()(float x) const { return __fmaf_rn(x, 1.7f, -0.3f); }
};
struct Silu {
  __device__ float operator()(float t) const { return __fdiv_rn(t, __fadd_rn(1.0f, expf(-t))); }
};
struct AddResidual {
  __device__ float operator()(float t, float r) const { return __fadd_rn(t, r); }
};
struct Clamp {
  __device__ float operator()(float t) const { return fminf(fmaxf(t, -3.0f), 3.0f); }
};
struct OutputScale {
  __device__ float operator()(float t) const { return __fmul_rn(t, 0.5f); }
};

template <class Op>
__device__ __forceinline__ float4 map4(Op op, float4 a) {
  return make_float4(op(a.x), op(a.y), op(a.z), op(a.w));
}
template <class Op>
__device__ __forceinline__ float4 map4(Op op, float4 a, float4 b) {
  return make_float4(op(a.x, b.x), op(a.y, b.y), op(a.z, b.z), op(a.w, b.w));
}

// One float4 per thread; `out` may alias `a` (in-place steps of the unfused chain), hence no __restrict__.
template <class Op>
__global__ void __launch_bounds__(kMemoryBoundThreads) map_kernel(const float4* a, float4* out, int64_t n4, Op op) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n4) out[i] = map4(op, a[i]);
}
template <class Op>
__global__ void __launch_bounds__(kMemoryBoundThreads)
    map2_kernel(const float4* a, const float4* b, float4* out, int64_t n4, Op op) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n4) out[i] = map4(op, a[i], b[i]);
}

inline unsigned memory_bound_blocks(int64_t n4) {
  return static_cast<unsigned>((n4 + kMemoryBoundThreads - 1) / kMemoryBoundThreads);
}
