// ch14 runtime_fused_chain, baseline: eager execution, one generic kernel launch per step.
//
// Technique: none; what an eager framework does with a pointwise chain: each op is its own kernel that
// reads its operand(s) from global memory and writes its result back (16 launches, 4 elements per thread
// with 16-byte accesses, the op chosen by a uniform switch).
// Why it is slow: 16 passes over 64 MiB intermediates instead of one: 16 x 8-12 B per element.
// Expected on Hopper: ~1.5 GB of traffic, ~0.55-0.65 ms (an undercount: 10 unary steps x 8 B + 6 binary x 12 B
// = 152 B per element, 2.55 GB, ~0.9 ms at 2.9 TB/s).
// Measured (H100 SXM VM, 2026-11-25, cold mode, every check passed): 890.6 us.
#include "elementwise_chain.cuh"

namespace {

__device__ __forceinline__ float ew_apply(EwStep s, float v, float operand) {
  switch (s.op) {
    case EwOp::add_const: return ew_add(v, s.c);
    case EwOp::mul_const: return ew_mul(v, s.c);
    case EwOp::add_input: return ew_add(v, operand);
    case EwOp::mul_input: return ew_mul(v, operand);
    case EwOp::tanh: return ew_tanh(v);
    case EwOp::sigmoid: return ew_sigmoid(v);
    case EwOp::relu: return ew_relu(v);
  }
  return v;
}

// out = step(in[, operand]) over 4 elements per thread. `operand` is null for steps without one.
__global__ void ew_step_kernel(const float* __restrict__ in, const float* __restrict__ operand, float* __restrict__ out,
                               EwStep s, int64_t n) {
  const int64_t i = (blockIdx.x * int64_t(blockDim.x) + threadIdx.x) * 4;
  if (i >= n) return;
  const float4 v = *reinterpret_cast<const float4*>(in + i);
  const float4 o = operand ? *reinterpret_cast<const float4*>(operand + i) : float4{0, 0, 0, 0};
  *reinterpret_cast<float4*>(out + i) = {ew_apply(s, v.x, o.x), ew_apply(s, v.y, o.y), ew_apply(s, v.z, o.z),
                                         ew_apply(s, v.w, o.w)};
}

class BaselineRuntimeFusedChain : public RuntimeFusedChainBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    const float* inputs[3] = {ctx.buffer("x").as<const float>(), ctx.buffer("z").as<const float>(),
                              ctx.buffer("r").as<const float>()};
    const std::vector<EwStep> program = ew_program();
    const float* in = inputs[0];
    for (size_t k = 0; k < program.size(); ++k) {
      const EwStep s = program[k];
      float* out = k + 1 == program.size() ? ctx.buffer("y").as<float>() : tmp_[k % 2];
      const bool has_operand = s.op == EwOp::add_input || s.op == EwOp::mul_input;
      ew_step_kernel<<<static_cast<unsigned>((n / 4 + 255) / 256), 256, 0, ctx.stream()>>>(
          in, has_operand ? inputs[s.input] : nullptr, out, s, n);
      AISP_LAUNCH_CHECK();
      in = out;
    }
  }
  std::string technique() const override { return "eager: one generic kernel launch per elementwise step"; }

 protected:
  void prepare(aisp::Context& ctx) override {
    for (int b = 0; b < 2; ++b)
      tmp_[b] = static_cast<float*>(ctx.scratch("tmp" + std::to_string(b), ctx.param("n") * sizeof(float)));
  }

 private:
  float* tmp_[2] = {};
};

}  // namespace

AISP_BENCHMARK(BaselineRuntimeFusedChain)
