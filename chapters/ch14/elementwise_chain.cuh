// runtime_fused_chain: a 16-step elementwise chain known only at run time (an op list, as a framework
// sees a model's pointwise tail): y = f_16(... f_1(x)), where a step is a constant add or multiply, tanh,
// sigmoid, relu, or an add/multiply by one of the inputs x, z, r (a gate and a residual). n = 16 Mi floats.
//
//   baseline_runtime_fused_chain.cu    eager: one launch of a generic step kernel per op, intermediates in
//                                      global memory (16 kernels, 15 round trips of a 64 MiB tensor)
//   optimized_runtime_fused_chain.cu   the chain turned into CUDA source at run time and compiled with NVRTC
//                                      in setup(): one kernel, the value in a register across all 16 steps
//
// Both evaluate every step with the same device functions (the EW_STEP_FUNCTIONS text below is compiled by
// nvcc for the baseline and handed verbatim to NVRTC for the optimized variant), each explicitly rounded,
// so the outputs are bit-identical and the default fp32 tolerance applies.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "aisp/aisp.hpp"

// The step semantics, once, as text both compilers see. Explicit _rn intrinsics: no FMA contraction that
// could differ between a fused and an unfused evaluation.
#define EW_STEP_FUNCTIONS                                                                               \
  __device__ __forceinline__ float ew_add(float v, float c) { return __fadd_rn(v, c); }                 \
  __device__ __forceinline__ float ew_mul(float v, float c) { return __fmul_rn(v, c); }                 \
  __device__ __forceinline__ float ew_tanh(float v) { return tanhf(v); }                                \
  __device__ __forceinline__ float ew_sigmoid(float v) { return __fdiv_rn(1.0f, __fadd_rn(1.0f, expf(-v))); } \
  __device__ __forceinline__ float ew_relu(float v) { return fmaxf(v, 0.0f); }
#define EW_STRINGIFY_(...) #__VA_ARGS__
#define EW_STRINGIFY(...) EW_STRINGIFY_(__VA_ARGS__)

EW_STEP_FUNCTIONS

inline const char* ew_step_functions_source() { return EW_STRINGIFY(EW_STEP_FUNCTIONS); }

enum class EwOp : int { add_const, mul_const, add_input, mul_input, tanh, sigmoid, relu };

struct EwStep {
  EwOp op;
  float c = 0;    // the constant of add_const / mul_const
  int input = 0;  // the input of add_input / mul_input: 0 = x, 1 = z, 2 = r
};

// The chain: a gated, residual pointwise tail. Fixed here; a framework would build it from the graph.
inline std::vector<EwStep> ew_program() {
  using O = EwOp;
  return {{O::mul_const, 1.25f}, {O::add_const, 0.1f},  {O::tanh},           {O::mul_input, 0, 1},
          {O::add_input, 0, 2},  {O::mul_const, 0.5f},  {O::sigmoid},        {O::mul_input, 0, 0},
          {O::add_const, -0.2f}, {O::relu},             {O::mul_input, 0, 1}, {O::add_input, 0, 2},
          {O::tanh},             {O::mul_const, 2.0f},  {O::add_input, 0, 0}, {O::mul_const, 0.75f}};
}

inline constexpr int64_t kEwN = int64_t{1} << 24;

class RuntimeFusedChainBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"n", kEwN}, {"steps", static_cast<int64_t>(ew_program().size())}};
    w.precision = aisp::DType::f32;
    w.bytes = 4.0 * kEwN * sizeof(float);  // x, z, r read once, y written once
    w.flops = double(kEwN) * ew_program().size();
    w.items = double(kEwN);
    w.item_unit = "elements";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    ctx.input("x", aisp::DType::f32, {n});
    ctx.input("z", aisp::DType::f32, {n});
    ctx.input("r", aisp::DType::f32, {n});
    ctx.output("y", aisp::DType::f32, {n});
    prepare(ctx);
  }

 protected:
  virtual void prepare(aisp::Context&) {}
};
