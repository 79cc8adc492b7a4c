// ch19 memory_double_buffering, baseline: stream each layer's weights in, then compute, one after the other.
//
// Technique: one device slot of 32 MiB (the smallest budget that can run the model); for each layer,
// cudaMemcpyAsync from pinned host memory into the slot on the harness stream, then the layer's cuBLAS
// GEMM on the same stream. Correct and simple: the GEMM waits for its weights, the next copy waits for
// the GEMM (it overwrites the slot).
// Why it is slow: the copy engine idles during every GEMM and the SMs idle during every copy, so a layer
// costs copy + GEMM (~0.7 + ~0.6 ms on the H100).
// Expected on Hopper: ~8 x 1.3 ms ~ 10.5 ms.
// Measured (H100 SXM, harness cold mode, 2026-11-25, 14 checks passed):
// 9.186 ms.
#include "memory_double_buffering.cuh"

namespace {

class BaselineMemoryDoubleBuffering : public MemoryDoubleBufferingBase {
 public:
  void run(aisp::Context& ctx) override {
    for (int64_t l = 0; l < ctx.param("layers"); ++l) {
      AISP_CUDA_CHECK(cudaMemcpyAsync(slot_, host_layer(ctx, l), layer_bytes(ctx), cudaMemcpyHostToDevice, ctx.stream()));
      layer_gemm(ctx, l, slot_);
    }
  }
  std::string technique() const override { return "one weight slot: H2D copy then GEMM, serially"; }

 protected:
  void prepare(aisp::Context& ctx) override {
    slot_ = static_cast<__nv_bfloat16*>(ctx.scratch("slot", layer_bytes(ctx)));
  }

 private:
  __nv_bfloat16* slot_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(BaselineMemoryDoubleBuffering)
