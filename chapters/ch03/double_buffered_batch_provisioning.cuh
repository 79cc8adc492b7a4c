// double_buffered_batch_provisioning: the host prepares each training batch (decode + normalize +
// augment raw uint8 samples into fp32), copies it to the GPU, and the GPU runs the model's layer on it:
//   x[b] = prepare(raw[b])       on the CPU: (raw - 128) / 32, every odd sample mirrored (a flip augment)
//   y[b] = x[b] * W              on the GPU (cuBLAS, fp32, TF32 off)
// Shared by baseline_double_buffered_batch_provisioning.cu (prepare, copy, compute, wait: one batch at
// a time) and optimized_double_buffered_batch_provisioning.cu (two pinned staging buffers: the CPU
// prepares batch b+1 while the GPU copies and computes batch b).
//
// The raw samples are fixed (setup(), from a pattern); W is a dynamic input (it changes every training
// step), so y follows the harness's fresh inputs. Exactness: x has 5 fractional bits and |x| <= 4, W
// holds integers in [-4, 4], so every product and every partial sum over 1024 features (|sum| <= 16384,
// 20 significant bits) is exact in fp32: both variants produce the same bits whatever cuBLAS's
// summation order.
#pragma once
#include <cstdint>
#include <memory>

#include "../common/host_pipeline.hpp"
#include "aisp/aisp.hpp"

// 8 batches of 256 samples x 1024 features; the layer maps 1024 -> 4096. Per batch the CPU converts
// 256 Ki elements (256 KiB in, 1 MiB out; ~60-120 us on one core) and the GPU copies 1 MiB (~20 us) and
// runs a 2.1 GFLOP GEMM (~50-70 us): the two sides are of the same order, which is when overlap pays most.
inline constexpr int64_t kProvBatches = 8, kProvRows = 256, kProvFeatures = 1024, kProvOut = 4096;

inline aisp::Workload provisioning_workload() {
  const double b = kProvBatches, r = kProvRows, f = kProvFeatures, o = kProvOut;
  aisp::Workload w;
  w.params = {{"batches", kProvBatches}, {"rows", kProvRows}, {"features", kProvFeatures}, {"out_features", kProvOut}};
  w.precision = aisp::DType::f32;
  w.bytes = (b * r * f + f * o + b * r * o) * sizeof(float);  // x lands in HBM once, W read, y written
  w.flops = 2.0 * b * r * f * o;
  w.items = b * r;
  w.item_unit = "samples";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class ProvisioningBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return provisioning_workload(); }
  void setup(aisp::Context& ctx) override {
    static_assert(16 * 32 * kProvFeatures < (int64_t{1} << 24), "GEMM partial sums must stay exact in fp32");
    ctx.input("w", aisp::DType::f32, {ctx.param("features"), ctx.param("out_features")}, aisp::Fill::int_range(-4, 4));
    ctx.output("y", aisp::DType::f32, {ctx.param("batches"), ctx.param("rows"), ctx.param("out_features")});
  }
};

// The raw dataset: uint8 samples in ordinary (pageable) memory, as a decoder would leave them.
inline std::unique_ptr<uint8_t[]> make_raw_samples(int64_t count) {
  auto raw = std::make_unique<uint8_t[]>(count);
  for (int64_t i = 0; i < count; ++i) raw[i] = static_cast<uint8_t>(host_pipeline::pattern_value(i) * 128.0f + 128.0f);
  return raw;
}

// CPU batch preparation: normalize to (raw - 128) / 32 (exact in fp32) and mirror odd samples.
inline void prepare_batch(const uint8_t* raw, float* x, int64_t rows, int64_t features, int64_t first_sample) {
  constexpr float kScale = 1.0f / 32.0f;
  for (int64_t r = 0; r < rows; ++r) {
    const uint8_t* src = raw + r * features;
    float* dst = x + r * features;
    if ((first_sample + r) % 2 == 0) {
      for (int64_t f = 0; f < features; ++f) dst[f] = static_cast<float>(static_cast<int>(src[f]) - 128) * kScale;
    } else {
      for (int64_t f = 0; f < features; ++f)
        dst[f] = static_cast<float>(static_cast<int>(src[features - 1 - f]) - 128) * kScale;
    }
  }
}

// y[b] = x * W on the harness stream (row-major via column-major cuBLAS: y^T = W^T x^T, W first).
inline void provisioning_layer(aisp::Context& ctx, const float* x, int64_t batch) {
  const int r = static_cast<int>(ctx.param("rows")), f = static_cast<int>(ctx.param("features"));
  const int o = static_cast<int>(ctx.param("out_features"));
  const float alpha = 1.0f, beta = 0.0f;
  AISP_CUBLAS_CHECK(cublasSgemm(ctx.cublas(), CUBLAS_OP_N, CUBLAS_OP_N, o, r, f, &alpha, ctx.buffer("w").as<const float>(),
                                o, x, f, &beta, ctx.buffer("y").as<float>() + batch * r * o, o));
}
