// ch14 runtime_fused_chain, optimized: the chain generated as one kernel at run time (NVRTC).
//
// Technique: code generation, the core of TorchInductor's pointwise fusion, in miniature. setup() walks
// the op list and emits one statement per step on a register (constants as exact hexadecimal float
// literals, input operands loaded once per element), prepends the step functions' source (the same text
// the baseline is compiled from) and compiles the kernel with NVRTC for this GPU. Compile time is
// logged, never timed.
// Why it is faster: x, z and r are read once and y written once (16 B per element instead of 152 B
// through 15 intermediates), and one launch instead of 16.
// Expected on Hopper: ~268 MB at ~2.8-3 TB/s: ~90-100 us, ~6x.
// Measured (H100 SXM VM, 2026-11-25, cold mode, every check passed): 86.1 us, 10.3x [10.2, 10.5] (268 MB in 86 us =
// 3.1 TB/s); NVRTC compile 76 ms once in setup (cubin 10.7 KB).
#include <cstdio>
#include <string>

#include "elementwise_chain.cuh"
#include "nvrtc_kernel.hpp"

namespace {

std::string hex_literal(float c) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%af", static_cast<double>(c));
  return buf;
}

std::string step_statement(const EwStep& s) {
  static const char* operand[] = {"xv[j]", "zv[j]", "rv[j]"};
  switch (s.op) {
    case EwOp::add_const: return "v = ew_add(v, " + hex_literal(s.c) + ");";
    case EwOp::mul_const: return "v = ew_mul(v, " + hex_literal(s.c) + ");";
    case EwOp::add_input: return std::string("v = ew_add(v, ") + operand[s.input] + ");";
    case EwOp::mul_input: return std::string("v = ew_mul(v, ") + operand[s.input] + ");";
    case EwOp::tanh: return "v = ew_tanh(v);";
    case EwOp::sigmoid: return "v = ew_sigmoid(v);";
    case EwOp::relu: return "v = ew_relu(v);";
  }
  return "";
}

std::string fused_chain_source(const std::vector<EwStep>& program) {
  std::string s = ew_step_functions_source();
  s += "\nextern \"C\" __global__ void ew_fused_chain(const float* __restrict__ x, const float* __restrict__ z,\n"
       "    const float* __restrict__ r, float* __restrict__ y, long long n) {\n"
       "  const long long i = (blockIdx.x * (long long)blockDim.x + threadIdx.x) * 4;\n"
       "  if (i >= n) return;\n"
       "  const float4 x4 = *reinterpret_cast<const float4*>(x + i), z4 = *reinterpret_cast<const float4*>(z + i),\n"
       "               r4 = *reinterpret_cast<const float4*>(r + i);\n"
       "  const float xv[4] = {x4.x, x4.y, x4.z, x4.w}, zv[4] = {z4.x, z4.y, z4.z, z4.w}, rv[4] = {r4.x, r4.y, r4.z, r4.w};\n"
       "  float out[4];\n"
       "#pragma unroll\n"
       "  for (int j = 0; j < 4; ++j) {\n"
       "    float v = xv[j];\n";
  for (const EwStep& step : program) s += "    " + step_statement(step) + "\n";
  s += "    out[j] = v;\n"
       "  }\n"
       "  *reinterpret_cast<float4*>(y + i) = make_float4(out[0], out[1], out[2], out[3]);\n"
       "}\n";
  return s;
}

class OptimizedRuntimeFusedChain : public RuntimeFusedChainBase {
 public:
  void run(aisp::Context& ctx) override {
    const float* x = ctx.buffer("x").as<const float>();
    const float* z = ctx.buffer("z").as<const float>();
    const float* r = ctx.buffer("r").as<const float>();
    float* y = ctx.buffer("y").as<float>();
    long long n = ctx.param("n");
    void* args[] = {&x, &z, &r, &y, &n};
    kernel_.launch(dim3(static_cast<unsigned>((n / 4 + 255) / 256)), dim3(256), args, ctx.stream());
  }
  std::string technique() const override { return "chain generated as one kernel at run time (NVRTC), value in registers"; }

 protected:
  void prepare(aisp::Context& ctx) override {
    kernel_.compile(fused_chain_source(ew_program()), "ew_fused_chain", ctx.device(), "ch14 runtime_fused_chain");
  }

 private:
  RuntimeKernel kernel_;
};

}  // namespace

AISP_BENCHMARK(OptimizedRuntimeFusedChain)
