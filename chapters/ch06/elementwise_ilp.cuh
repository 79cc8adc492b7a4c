// elementwise_ilp: the elementwise half of a SwiGLU MLP, y = silu(a) * b = a / (1 + e^-a) * b, over n
// floats. Shared by baseline_elementwise_ilp.cu (one element per thread, 4-byte accesses) and
// optimized_elementwise_ilp.cu (8 independent elements per thread through 16-byte accesses). Both use
// the same formula (__expf, __fdividef) per element, so their outputs are identical bit for bit.
#pragma once
#include <cuda_runtime.h>

#include "aisp/aisp.hpp"

// 2^24 floats = 64 MiB per buffer; two inputs and one output move 192 MiB per run (3.8x the L2).
inline constexpr int64_t kElementwiseN = int64_t{1} << 24;

inline aisp::Workload elementwise_ilp_workload() {
  aisp::Workload w;
  w.params = {{"n", kElementwiseN}};
  w.precision = aisp::DType::f32;
  w.bytes = 3.0 * static_cast<double>(kElementwiseN) * sizeof(float);  // read a, b; write y
  w.flops = 4.0 * static_cast<double>(kElementwiseN);                  // exp, add, divide, multiply
  w.items = static_cast<double>(kElementwiseN);
  w.item_unit = "elements";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class ElementwiseIlpBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return elementwise_ilp_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    ctx.input("a", aisp::DType::f32, {n});
    ctx.input("b", aisp::DType::f32, {n});
    ctx.output("y", aisp::DType::f32, {n});
  }
};

__device__ __forceinline__ float swiglu_element(float a, float b) { return __fdividef(a, 1.0f + __expf(-a)) * b; }
