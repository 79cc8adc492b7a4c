// ch10 gemm_epilogue_fusion, baseline: GEMM to memory, then a separate bias + GELU kernel.
//
// Technique: the persistent warp-specialized wgmma GEMM (gemm_ws_kernel.cuh, plain BF16 store) writes
// C = A B^T into a workspace; a second kernel reads C (8 BF16 per thread, 16-byte loads) and the bias,
// computes gelu(c + bias) in FP32 and writes y. This is what Linear followed by GELU costs in a framework
// without fusion.
// Why it is slow: the intermediate makes a round trip through memory: 2 x M x N x 2 B = 128 MiB extra at the
// pair's 8192 x 4096 output (M x N x K = 8192 x 4096 x 1024, gemm_epilogue_fusion.cuh says why) plus a second
// launch, on top of a ~100 us GEMM; the elementwise kernel's erf per output adds issue time of its own.
// Expected on Hopper: GEMM time + ~50 us. Measured at the former 4096^3 default (H100 SXM, harness cold mode,
// 2026-11-25, 14 checks passed): 227.2 us (the GEMM alone: 198.5 us as ch10:gemm_tiled's persistent variant);
// H200 2026-11-28: 224.4 us (GEMM alone 197.6 us), i.e. the elementwise pass cost ~27 us per 16.8 M outputs.
// At 8192 x 4096 x 1024 (H200, 2026-11-28, 14/14 checks): 185.1 us; see optimized_gemm_epilogue_fusion.cu.
#include "gemm_epilogue_fusion.cuh"

namespace {

using Gemm = EpilogueGemm<ws_gemm::StoreC>;

__global__ void bias_gelu_kernel(const __nv_bfloat16* __restrict__ c, const __nv_bfloat16* __restrict__ bias,
                                 __nv_bfloat16* __restrict__ y, int64_t count, int n) {
  const int64_t i = (blockIdx.x * int64_t(blockDim.x) + threadIdx.x) * 8;  // n % 8 == 0: 8 in one row
  if (i >= count) return;
  const uint4 cv = *reinterpret_cast<const uint4*>(c + i);
  const uint4 bv = *reinterpret_cast<const uint4*>(bias + i % n);
  const __nv_bfloat162* c2 = reinterpret_cast<const __nv_bfloat162*>(&cv);
  const __nv_bfloat162* b2 = reinterpret_cast<const __nv_bfloat162*>(&bv);
  uint4 out;
  __nv_bfloat162* o2 = reinterpret_cast<__nv_bfloat162*>(&out);
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    const float2 cf = __bfloat1622float2(c2[j]), bf = __bfloat1622float2(b2[j]);
    o2[j] = __floats2bfloat162_rn(gelu_erf(cf.x + bf.x), gelu_erf(cf.y + bf.y));
  }
  *reinterpret_cast<uint4*>(y + i) = out;
}

class BaselineGemmEpilogueFusion : public GemmEpilogueFusionBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t m = ctx.param("m"), n = ctx.param("n"), k = ctx.param("k");
    gemm_.launch(ctx.stream(), ctx.buffer("a").data, ctx.buffer("b").data, ws_gemm::StoreC{c_, static_cast<int>(n)},
                 m, n, k);
    const int64_t count = m * n;
    const int threads = 256;
    const unsigned blocks = static_cast<unsigned>((count / 8 + threads - 1) / threads);
    bias_gelu_kernel<<<blocks, threads, 0, ctx.stream()>>>(c_, ctx.buffer("bias").as<const __nv_bfloat16>(),
                                                           ctx.buffer("y").as<__nv_bfloat16>(), count,
                                                           static_cast<int>(n));
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "unfused: wgmma GEMM -> BF16 in memory -> bias+GELU kernel"; }

 protected:
  void prepare(aisp::Context& ctx) override {
    const int64_t m = ctx.param("m"), n = ctx.param("n"), k = ctx.param("k");
    gemm_.prepare(ctx.device(), m, n, k);
    c_ = static_cast<__nv_bfloat16*>(ctx.scratch("c", static_cast<size_t>(m * n) * sizeof(__nv_bfloat16)));
  }

 private:
  Gemm gemm_;
  __nv_bfloat16* c_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(BaselineGemmEpilogueFusion)
