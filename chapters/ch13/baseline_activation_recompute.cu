// ch13 activation_recompute, baseline: keep every activation from the forward pass for the backward pass.
//
// Technique: none; what autograd does by default. a_1 ... a_15 (a_16 is the output y) stay alive from the
// forward pass until their layer's backward: 15 x 16 MiB = 240 MiB of activations besides the 2 x 16 MiB
// of gradient workspace.
// Expected on Hopper: 32 FP32 SGEMMs of 8.6 GFLOP (~45-50 TFLOP/s without TF32): ~5.5-6 ms.
// Measured (H100 SXM VM, 2026-11-25, cold mode, every check passed): 6.176 ms, peak 510 MiB (the harness's 400 MiB of
// buffers and scratch included).
#include <vector>

#include "activation_recompute.cuh"

namespace {

class BaselineActivationRecompute : public ActivationRecomputeBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t layers = ctx.param("layers");
    const float* in = ctx.buffer("x").as<const float>();
    for (int64_t l = 1; l <= layers; ++l) {
      float* out = l == layers ? ctx.buffer("y").as<float>() : acts_[l - 1];
      forward_layer(ctx, in, out, l);
      in = out;
    }
    backward_range(ctx, layers, 1, ctx.buffer("dy").as<const float>(), [&](int64_t l) -> const float* {
      return l == layers ? ctx.buffer("y").as<const float>() : acts_[l - 1];
    });
  }
  std::string technique() const override { return "store all 15 activations for the backward pass"; }

 protected:
  void prepare(aisp::Context& ctx) override {
    for (int64_t l = 1; l < ctx.param("layers"); ++l)
      acts_.push_back(static_cast<float*>(ctx.scratch("a" + std::to_string(l), activation_bytes(ctx))));
  }

 private:
  std::vector<float*> acts_;  // a_1 ... a_{L-1}
};

}  // namespace

AISP_BENCHMARK(BaselineActivationRecompute)
