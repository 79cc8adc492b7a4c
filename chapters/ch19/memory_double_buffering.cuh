// memory_double_buffering: a stack of linear layers whose weights do not fit the GPU budget and are
// streamed from pinned host memory, layer by layer: h_{l+1} = alpha * h_l W_l^T for l = 0..7, W_l
// [4096][4096] bf16 (32 MiB each, 256 MiB in all), h [12288 tokens][4096] bf16, fp32 accumulation
// (cuBLAS). The model "lives" in host memory: setup() copies the static weight input to a pinned host
// array once (the pre-packing static inputs allow), and run() may keep at most two layers on the GPU.
//   baseline_memory_double_buffering.cu   one device slot: copy layer l (PCIe), then its GEMM, serially
//   optimized_memory_double_buffering.cu  two slots and a copy stream: layer l+1 streams in while layer l's
//                                         GEMM runs (events order slot reuse), so time ~ max(copy, GEMM)
// Sizes are chosen so one layer's copy (32 MiB, ~0.7 ms at the ~47 GB/s H2D measured in ch11) and its
// GEMM (412 GFLOP, ~0.6 ms at cuBLAS's ~700 TFLOP/s) are of the same order: overlap can at best halve it.
// Both variants run the same cuBLAS calls on the same data in the same order: outputs are bit-identical,
// so the bf16 default tolerance holds. alpha = sqrt(3 / 4096) keeps |h| ~ 1 through the stack (weights
// U(-1, 1) have variance 1/3).
#pragma once
#include <cublas_v2.h>
#include <cuda_bf16.h>

#include <cmath>
#include <cstdint>

#include "aisp/aisp.hpp"
#include "aisp/axes.hpp"

inline int64_t weight_stream_tokens() { return aisp::axis("tokens", 12288); }
inline constexpr int64_t kStreamLayers = 8, kStreamDim = 4096;

class MemoryDoubleBufferingBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    const int64_t t = weight_stream_tokens(), d = kStreamDim, layers = kStreamLayers;
    aisp::Workload w;
    w.params = {{"tokens", t}, {"dim", d}, {"layers", layers}};
    w.precision = aisp::DType::bf16;
    w.bytes = double(layers) * d * d * 2 + 2.0 * t * d * 2;  // every weight crosses once; x read, y written
    w.flops = 2.0 * t * d * d * layers;
    w.items = double(t);
    w.item_unit = "tokens";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    const int64_t t = ctx.param("tokens"), d = ctx.param("dim"), layers = ctx.param("layers");
    ctx.input("x", aisp::DType::bf16, {t, d});
    aisp::Buffer w = ctx.input("w", aisp::DType::bf16, {layers, d, d}, aisp::Fill::uniform(-1, 1), aisp::Role::static_);
    ctx.output("y", aisp::DType::bf16, {t, d});
    // The model's home: pinned host memory (the device copy of the static input is never read by run()).
    if (!host_w_) AISP_CUDA_CHECK(cudaMallocHost(&host_w_, w.bytes()));
    // On the harness stream: the fill of `w` was enqueued there (and may still be running).
    AISP_CUDA_CHECK(cudaMemcpyAsync(host_w_, w.data, w.bytes(), cudaMemcpyDeviceToHost, ctx.stream()));
    AISP_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    act_[0] = static_cast<__nv_bfloat16*>(ctx.scratch("act0", static_cast<size_t>(t * d) * 2));
    act_[1] = static_cast<__nv_bfloat16*>(ctx.scratch("act1", static_cast<size_t>(t * d) * 2));
    prepare(ctx);
  }
  void teardown(aisp::Context&) override {
    if (host_w_) cudaFreeHost(host_w_);
    host_w_ = nullptr;
  }

 protected:
  virtual void prepare(aisp::Context&) = 0;
  size_t layer_bytes(aisp::Context& ctx) const { return static_cast<size_t>(ctx.param("dim") * ctx.param("dim")) * 2; }
  const __nv_bfloat16* host_layer(aisp::Context& ctx, int64_t l) const {
    return host_w_ + l * ctx.param("dim") * ctx.param("dim");
  }
  // Layer l's GEMM on ctx.stream(): input x (l = 0) or a ping-pong activation, output y for the last layer.
  void layer_gemm(aisp::Context& ctx, int64_t l, const __nv_bfloat16* w) {
    const int t = static_cast<int>(ctx.param("tokens")), d = static_cast<int>(ctx.param("dim"));
    const int64_t layers = ctx.param("layers");
    const void* in = l == 0 ? ctx.buffer("x").data : act_[(l - 1) % 2];
    void* out = l + 1 == layers ? ctx.buffer("y").data : act_[l % 2];
    const float alpha = std::sqrt(3.0f / static_cast<float>(d)), beta = 0.0f;
    // Row-major H_out[t][d] = H_in W^T is column-major H_out^T = W H_in^T: A = W (row-major [d][d] =
    // column-major W^T, so op T), B = H_in (column-major [d][t], op N).
    AISP_CUBLAS_CHECK(cublasGemmEx(ctx.cublas(), CUBLAS_OP_T, CUBLAS_OP_N, d, t, d, &alpha, w, CUDA_R_16BF, d, in,
                                   CUDA_R_16BF, d, &beta, out, CUDA_R_16BF, d, CUBLAS_COMPUTE_32F,
                                   CUBLAS_GEMM_DEFAULT));
  }

 private:
  __nv_bfloat16* host_w_ = nullptr;
  __nv_bfloat16* act_[2] = {nullptr, nullptr};
};
