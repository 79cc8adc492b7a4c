// activation_recompute: forward and backward through a 16-layer tanh MLP, a_l = tanh(a_{l-1} W_l^T),
// over B = 4096 tokens of width h = 1024 in FP32 (cuBLAS SGEMM, TF32 off). The backward pass needs every
// layer's activation a_l: d_l = g_l * (1 - a_l^2), g_{l-1} = d_l W_l. Outputs: y = a_16 and dx = g_0 for
// the upstream gradient dy (an input). Each activation is 16 MiB.
//
//   baseline_activation_recompute.cu    store a_1 ... a_15 during the forward pass (15 x 16 MiB)
//   optimized_activation_recompute.cu   store every 4th activation (checkpoints), recompute the 3 in between
//                                       segment by segment during the backward pass (3 + 3 buffers)
//
// The goal is memory (Goal::memory): the verdict asks for a smaller peak, and the time the recomputation
// costs (12 extra GEMMs on top of 32) is reported beside it as the speedup (< 1). The recomputed
// activations are the same cuBLAS calls on the same data, so both variants produce identical bits and the
// default fp32 tolerance applies.
#pragma once
#include <cmath>
#include <cstdint>

#include "aisp/aisp.hpp"

inline constexpr int64_t kRecomputeTokens = 4096, kRecomputeHidden = 1024, kRecomputeLayers = 16;

namespace {

__global__ void tanh_inplace(float* __restrict__ a, int64_t n) {
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i < n) a[i] = tanhf(a[i]);
}

// d = g * (1 - a^2): the gradient through tanh, given the layer's output a.
__global__ void tanh_backward(const float* __restrict__ a, const float* __restrict__ g, float* __restrict__ d, int64_t n) {
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i < n) d[i] = g[i] * (1.0f - a[i] * a[i]);
}

}  // namespace

class ActivationRecomputeBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    const double b = kRecomputeTokens, h = kRecomputeHidden, l = kRecomputeLayers;
    aisp::Workload w;
    w.params = {{"tokens", kRecomputeTokens}, {"hidden", kRecomputeHidden}, {"layers", kRecomputeLayers}};
    w.precision = aisp::DType::f32;
    // Minimum: x, dy, W read; y, dx written (activations kept on chip are not required traffic).
    w.bytes = (4.0 * b * h + l * h * h) * sizeof(float);
    w.flops = 4.0 * b * h * h * l;  // one forward and one input-gradient GEMM per layer
    w.items = b;
    w.item_unit = "tokens";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    const int64_t b = ctx.param("tokens"), h = ctx.param("hidden"), l = ctx.param("layers");
    const double bound = std::sqrt(3.0 / double(h));  // var(a W^T) ~ var(a): tanh stays out of saturation
    ctx.input("x", aisp::DType::f32, {b, h});
    ctx.input("dy", aisp::DType::f32, {b, h});
    ctx.input("w", aisp::DType::f32, {l, h, h}, aisp::Fill::uniform(-bound, bound), aisp::Role::static_);
    ctx.output("y", aisp::DType::f32, {b, h});
    ctx.output("dx", aisp::DType::f32, {b, h});
    d_ = static_cast<float*>(ctx.scratch("d", activation_bytes(ctx)));
    g_ = static_cast<float*>(ctx.scratch("g", activation_bytes(ctx)));
    prepare(ctx);
  }
  aisp::Goal goal() const override { return aisp::Goal::memory; }

 protected:
  virtual void prepare(aisp::Context&) = 0;  // the variant's activation storage
  static size_t activation_bytes(aisp::Context& ctx) {
    return static_cast<size_t>(ctx.param("tokens") * ctx.param("hidden")) * sizeof(float);
  }
  static const float* weight(aisp::Context& ctx, int64_t layer) {  // W_l, layer 1..L
    const int64_t h = ctx.param("hidden");
    return ctx.buffer("w").as<const float>() + (layer - 1) * h * h;
  }
  static unsigned blocks(aisp::Context& ctx) {
    return static_cast<unsigned>((ctx.param("tokens") * ctx.param("hidden") + 255) / 256);
  }

  // out = tanh(in W_l^T). Row-major [B][h] is cuBLAS's column-major [h][B]: out^T = W_l * in^T.
  static void forward_layer(aisp::Context& ctx, const float* in, float* out, int64_t layer) {
    const int b = static_cast<int>(ctx.param("tokens")), h = static_cast<int>(ctx.param("hidden"));
    const float one = 1, zero = 0;
    AISP_CUBLAS_CHECK(cublasSgemm(ctx.cublas(), CUBLAS_OP_T, CUBLAS_OP_N, h, b, h, &one, weight(ctx, layer), h, in, h,
                                  &zero, out, h));
    tanh_inplace<<<blocks(ctx), 256, 0, ctx.stream()>>>(out, int64_t(b) * h);
    AISP_LAUNCH_CHECK();
  }
  // Given a_l and g_l (dL/da_l): g_prev = (g_l * (1 - a_l^2)) W_l. g_prev^T = W_l^T * d^T.
  void backward_layer(aisp::Context& ctx, const float* a, const float* g, float* g_prev, int64_t layer) {
    const int b = static_cast<int>(ctx.param("tokens")), h = static_cast<int>(ctx.param("hidden"));
    tanh_backward<<<blocks(ctx), 256, 0, ctx.stream()>>>(a, g, d_, int64_t(b) * h);
    AISP_LAUNCH_CHECK();
    const float one = 1, zero = 0;
    AISP_CUBLAS_CHECK(cublasSgemm(ctx.cublas(), CUBLAS_OP_N, CUBLAS_OP_N, h, b, h, &one, weight(ctx, layer), h, d_, h,
                                  &zero, g_prev, h));
  }
  // Backward through layers hi..lo (hi > lo >= 1), a(l) giving each layer's stored or recomputed output;
  // `g` holds dL/da_hi on entry (dy or the scratch g_), and dL/da_{lo-1} on return (dx when lo == 1).
  template <class Activation>
  const float* backward_range(aisp::Context& ctx, int64_t hi, int64_t lo, const float* g, Activation a) {
    for (int64_t l = hi; l >= lo; --l) {
      float* g_prev = l == 1 ? ctx.buffer("dx").as<float>() : g_;
      backward_layer(ctx, a(l), g, g_prev, l);
      g = g_prev;
    }
    return g;
  }

 private:
  float* d_ = nullptr;  // d_l, one layer at a time
  float* g_ = nullptr;  // g_l, one layer at a time
};
