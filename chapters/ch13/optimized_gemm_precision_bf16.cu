// ch13 gemm_precision, BF16 variant: BF16 operands on the tensor cores, FP32 accumulation and output.
//
// Technique: mixed precision (autocast): the static weight is cast to BF16 once in setup(), the dynamic
// activation in run() (one pass: read 4 B, write 2 B per element), then a BF16 cuBLASLt GEMM with FP32
// compute writes FP32 C.
// Why it is faster: Hopper's dense BF16 tensor-core rate is ~990 TFLOP/s against ~67 TFLOP/s of FP32 FMA.
// Expected on Hopper: cast ~0.1 ms + GEMM ~1.4 ms (~780 TFLOP/s): ~13x over FP32. Error rms ~0.06.
// Measured (H100 SXM VM, 2026-11-25, cold mode, every check passed): 1.535 ms, 14.0x [13.7, 14.3] (716 TFLOP/s
// including the cast); max |diff| vs FP32 0.35.
#include "gemm_precision.cuh"
#include "low_precision_cast.cuh"

namespace {

class OptimizedGemmPrecisionBf16 : public GemmPrecisionBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t n = ctx.param("m") * ctx.param("k");
    cast_f32_to_bf16<<<cast_blocks(n), 256, 0, ctx.stream()>>>(ctx.buffer("a").as<const float>(), a16_, n);
    AISP_LAUNCH_CHECK();
    gemm_.run(ctx.stream(), a16_, b16_, ctx.buffer("c").data);
  }
  std::string technique() const override { return "BF16 operands (cast in run), FP32 accumulate (cuBLASLt)"; }

 protected:
  void prepare(aisp::Context& ctx) override {
    const int64_t m = ctx.param("m"), n = ctx.param("n"), k = ctx.param("k");
    a16_ = static_cast<__nv_bfloat16*>(ctx.scratch("a_bf16", m * k * sizeof(__nv_bfloat16)));
    b16_ = static_cast<__nv_bfloat16*>(ctx.scratch("b_bf16", n * k * sizeof(__nv_bfloat16)));
    cast_f32_to_bf16<<<cast_blocks(n * k), 256, 0, ctx.stream()>>>(ctx.buffer("b").as<const float>(), b16_, n * k);
    AISP_LAUNCH_CHECK();
    AISP_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    gemm_.plan(m, n, k, {CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F}, workspace_, kLtWorkspaceBytes);
  }

 private:
  __nv_bfloat16 *a16_ = nullptr, *b16_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(OptimizedGemmPrecisionBf16)
