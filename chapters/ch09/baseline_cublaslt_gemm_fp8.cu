// ch09 cublaslt_gemm_fp8, baseline: the layer in BF16 with cuBLASLt (FP32 accumulation).
//
// Technique: one cublasLtMatmul, BF16 x and w straight from the layer's buffers, TN layout (see
// cublaslt_linear.cuh), 32 MiB workspace, algorithm chosen once in setup(). This is already the fast
// 16-bit path: wgmma tensor-core kernels at ~80% of the BF16 peak.
// Why it is the baseline: BF16 tensor cores top out at ~990 TFLOP/s dense on H100 SXM; FP8 E4M3 doubles
// the MMA rate (~1980 TFLOP/s) and halves operand bytes, at the cost of precision.
// Expected on Hopper: ~165-185 us per run on H100 SXM (~750-830 TFLOP/s; `aisp hw tc` measured cuBLASLt
// BF16 at ~800 TFLOP/s). Measured: 176.7-177.1 us (776 TFLOP/s, 78.5% of the dense BF16 peak).
#include "cublaslt_gemm_fp8.cuh"
#include "cublaslt_linear.cuh"

namespace {

class BaselineCublasltGemmFp8 : public CublasltGemmFp8Base {
 public:
  void setup(aisp::Context& ctx) override {
    CublasltGemmFp8Base::setup(ctx);
    layer_.setup(ctx);
  }
  void run(aisp::Context& ctx) override { layer_.run(ctx); }
  void teardown(aisp::Context&) override { layer_.teardown(); }

  std::string technique() const override { return "cuBLASLt BF16 GEMM, FP32 accumulate"; }

 private:
  LtBf16Layer layer_;
};

}  // namespace

AISP_BENCHMARK(BaselineCublasltGemmFp8)
