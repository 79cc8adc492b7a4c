// fused_adamw: one AdamW step over the 148 parameter tensors of a small GPT (12 layers, hidden 384,
// vocabulary 32000, 1024 positions: 34.0 M parameters). Most tensors are tiny (LayerNorm weights and
// biases, 384-1536 elements), a few are large (the embedding, 12.3 M): the mix that makes a per-tensor
// optimizer launch-bound.
//
//   baseline_fused_adamw.cu    one AdamW kernel launch per tensor (148 launches), as a for-loop over params
//   optimized_fused_adamw.cu   multi-tensor apply: one launch over a table of (tensor, chunk) work items
//
// The parameters live in one harness buffer per state (p, g, m, v in; p_out, m_out, v_out out), each
// tensor a slice of it at the offsets below; both variants only ever address tensor by tensor, so a
// variant that treated the buffer as one flat array would be a different technique. The update is one
// device function with explicitly rounded operations (adamw_update), so both variants compute the same
// bits and the default fp32 tolerance applies.
// Both variants open the timed window on the host (../common/host_window.hpp): an optimizer step is
// issued by the host every iteration, and its launch cost is the subject.
#pragma once
#include <cstdint>
#include <vector>

#include "../common/host_window.hpp"
#include "aisp/aisp.hpp"

struct AdamWHyper {
  float lr = 1e-3f, beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f, weight_decay = 0.01f;
  int step = 10;
  // Bias corrections 1 - beta^t, computed once on the host (the same floats for every variant).
  float bc1() const;
  float bc2() const;
};

inline float AdamWHyper::bc1() const {
  float b = 1;
  for (int i = 0; i < step; ++i) b *= beta1;
  return 1 - b;
}
inline float AdamWHyper::bc2() const {
  float b = 1;
  for (int i = 0; i < step; ++i) b *= beta2;
  return 1 - b;
}

// The model's parameter tensors, in order: sizes only (their offsets are the running sum).
inline std::vector<int64_t> adamw_tensor_sizes() {
  constexpr int64_t kLayers = 12, kHidden = 384, kVocab = 32000, kPositions = 1024;
  std::vector<int64_t> s = {kVocab * kHidden, kPositions * kHidden};
  for (int64_t l = 0; l < kLayers; ++l)
    for (int64_t t : {kHidden, kHidden, kHidden * 3 * kHidden, 3 * kHidden, kHidden * kHidden, kHidden, kHidden,
                      kHidden, kHidden * 4 * kHidden, 4 * kHidden, 4 * kHidden * kHidden, kHidden})
      s.push_back(t);
  s.push_back(kHidden);  // final LayerNorm weight
  s.push_back(kHidden);  // and bias
  return s;
}

inline int64_t adamw_total() {
  int64_t n = 0;
  for (int64_t t : adamw_tensor_sizes()) n += t;
  return n;
}

struct AdamWState {
  const float *p, *g, *m, *v;
  float *p_out, *m_out, *v_out;
};

// One element's AdamW update (decoupled weight decay). Every operation is explicitly rounded so the
// compiler cannot contract differently in the two kernels that inline it.
__device__ __forceinline__ void adamw_update(const AdamWState& s, int64_t i, float lr, float b1, float b2,
                                             float eps, float wd, float bc1, float bc2) {
  const float g = s.g[i], p = s.p[i];
  const float m = __fmaf_rn(b1, s.m[i], __fmul_rn(1.0f - b1, g));
  const float v = __fmaf_rn(b2, s.v[i], __fmul_rn(__fmul_rn(1.0f - b2, g), g));
  const float denom = __fadd_rn(__fsqrt_rn(__fdiv_rn(v, bc2)), eps);
  const float update = __fadd_rn(__fdiv_rn(__fdiv_rn(m, bc1), denom), __fmul_rn(wd, p));
  s.p_out[i] = __fmaf_rn(-lr, update, p);
  s.m_out[i] = m;
  s.v_out[i] = v;
}

class FusedAdamWBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"n", adamw_total()}, {"tensors", static_cast<int64_t>(adamw_tensor_sizes().size())}};
    w.precision = aisp::DType::f32;
    w.bytes = double(adamw_total()) * 7 * sizeof(float);  // p, g, m, v read; p, m, v written
    w.flops = double(adamw_total()) * 14;
    w.items = double(adamw_total());
    w.item_unit = "parameters";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    ctx.input("p", aisp::DType::f32, {n});
    ctx.input("g", aisp::DType::f32, {n});
    ctx.input("m", aisp::DType::f32, {n}, aisp::Fill::uniform(-0.1, 0.1));
    ctx.input("v", aisp::DType::f32, {n}, aisp::Fill::uniform(0.0, 1.0));  // a second moment is >= 0
    ctx.output("p_out", aisp::DType::f32, {n});
    ctx.output("m_out", aisp::DType::f32, {n});
    ctx.output("v_out", aisp::DType::f32, {n});
  }

 protected:
  static AdamWState state(aisp::Context& ctx) {
    return {ctx.buffer("p").as<const float>(), ctx.buffer("g").as<const float>(), ctx.buffer("m").as<const float>(),
            ctx.buffer("v").as<const float>(), ctx.buffer("p_out").as<float>(), ctx.buffer("m_out").as<float>(),
            ctx.buffer("v_out").as<float>()};
  }
  AdamWHyper hyper_;
};
