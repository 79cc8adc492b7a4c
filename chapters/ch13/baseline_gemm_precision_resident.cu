// ch13 gemm_precision_resident, baseline: BF16 GEMM (cuBLASLt, BF16 operands cast once in setup(), FP32
// accumulate, BF16 out): the precision a Linear layer serves in without FP8.
// Expected on Hopper: ~800 TFLOP/s (`aisp hw tc` BF16 cuBLASLt figure on the H200: 799.7), ~4.6 ms at 12288^3.
// Measured (H200, 2026-11-28 (b), `aisp bench run -t ch13:gemm_precision_resident --time-limit 5`): 4.619 ms =
// 803 TFLOP/s (hw tc's BF16 cuBLASLt figure earlier the same day: 799.7); all samples at the power cap.
#include "gemm_precision_resident.cuh"
#include "low_precision_cast.cuh"

namespace {

class BaselineGemmPrecisionResident : public GemmPrecisionResidentBase {
 public:
  void run(aisp::Context& ctx) override { gemm_.run(ctx.stream(), a16_, b16_, ctx.buffer("c").data); }
  std::string technique() const override {
    return "BF16 operands resident (cast in setup), FP32 accumulate, BF16 out (cuBLASLt)";
  }

 protected:
  void prepare(aisp::Context& ctx) override {
    const int64_t m = ctx.param("m"), n = ctx.param("n"), k = ctx.param("k");
    a16_ = static_cast<__nv_bfloat16*>(ctx.scratch("a_bf16", m * k * sizeof(__nv_bfloat16)));
    b16_ = static_cast<__nv_bfloat16*>(ctx.scratch("b_bf16", n * k * sizeof(__nv_bfloat16)));
    cast_f32_to_bf16<<<cast_blocks(m * k), 256, 0, ctx.stream()>>>(ctx.buffer("a").as<const float>(), a16_, m * k);
    AISP_LAUNCH_CHECK();
    cast_f32_to_bf16<<<cast_blocks(n * k), 256, 0, ctx.stream()>>>(ctx.buffer("b").as<const float>(), b16_, n * k);
    AISP_LAUNCH_CHECK();
    AISP_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    gemm_.plan(m, n, k, {CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F}, workspace_, kLtWorkspaceBytes);
  }

 private:
  __nv_bfloat16 *a16_ = nullptr, *b16_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(BaselineGemmPrecisionResident)
