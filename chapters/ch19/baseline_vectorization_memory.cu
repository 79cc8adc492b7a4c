// ch19 vectorization_memory, baseline: one FP8 element per thread.
//
// Technique: thread i loads the byte x[i] and the float scale[i / 128], converts e4m3 -> float, multiplies
// and stores one bf16. Coalesced (a warp touches 32 consecutive bytes), the textbook elementwise kernel.
// Why it is slow: each thread has one byte in flight. Little's law wants ~3.35 TB/s x ~1 us ~ 3.3 MB in
// flight on the H100; 2048 resident threads x 132 SMs x 1 B (+ the 2-byte stores) is ~0.3 MB, and every
// byte costs a load instruction, an address calculation and a conversion.
// Expected on Hopper: well under half of HBM bandwidth.
// Measured (H100 SXM, harness cold mode, 2026-11-25, 14 checks passed): 750.4 us,
// 1.08 TB/s.
#include "vectorization_memory.cuh"

namespace {

__global__ void dequant_scalar(const __nv_fp8_e4m3* __restrict__ x, const float* __restrict__ scale,
                               __nv_bfloat16* __restrict__ y, int64_t n) {
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = __float2bfloat16_rn(float(x[i]) * scale[i / kDequantBlock]);
}

class BaselineVectorizationMemory : public VectorizationMemoryBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    const int threads = 256;
    dequant_scalar<<<static_cast<unsigned>((n + threads - 1) / threads), threads, 0, ctx.stream()>>>(
        ctx.buffer("x").as<const __nv_fp8_e4m3>(), ctx.buffer("scale").as<const float>(),
        ctx.buffer("y").as<__nv_bfloat16>(), n);
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "one fp8 element per thread (1-byte loads)"; }
};

}  // namespace

AISP_BENCHMARK(BaselineVectorizationMemory)
