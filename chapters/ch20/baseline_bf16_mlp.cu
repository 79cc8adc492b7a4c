// ch20 bf16_mlp, baseline: the SwiGLU MLP as separate layers, each result through HBM.
//
// Technique: gate = x Wg^T and up = x Wu^T by ch10's persistent wgmma GEMM (plain bf16 store), a SwiGLU
// kernel h = silu(gate) * up (16-byte loads), the down GEMM d = h W2^T, and a residual kernel y = x + d.
// Why it is slow(er): the GEMMs are as fast as the optimized ones, but gate and up (2 x 147 MB at 8192
// tokens x 8960) are written and read back, h takes another pass, and d another read + write: ~0.6 GB of
// extra traffic (~0.12 ms at ~4.5 TB/s on the H200) and three extra launches around ~1 ms of tensor-core
// work (Qwen2.5-1.5B's FFN, see bf16_mlp.cuh for why this shape).
// Expected on Hopper: ~1.1 ms.
// Measured (earlier shape: Llama-3-8B's 4096 -> 14336 FFN, 2048 tokens; H100 SXM, harness cold mode,
// 2026-11-25): 1.050 ms. At the current shape: see optimized_bf16_mlp.cu.
#include "../ch10/gemm_ws_kernel.cuh"
#include "bf16_mlp.cuh"

namespace {

using namespace block;
using Gemm = ws_gemm::WsGemm</*persistent=*/true, /*cluster=*/1, ws_gemm::StoreC>;

__global__ void swiglu(const __nv_bfloat16* __restrict__ g, const __nv_bfloat16* __restrict__ u, int64_t chunks,
                       __nv_bfloat16* __restrict__ h) {
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i >= chunks) return;
  float fg[8], fu[8];
  unpack8(reinterpret_cast<const uint4*>(g)[i], fg);
  unpack8(reinterpret_cast<const uint4*>(u)[i], fu);
#pragma unroll
  for (int j = 0; j < 8; ++j) fg[j] = silu(fg[j]) * fu[j];
  reinterpret_cast<uint4*>(h)[i] = pack8(fg);
}

__global__ void residual_add(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ d, int64_t chunks,
                             __nv_bfloat16* __restrict__ y) {
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i >= chunks) return;
  float fx[8], fd[8];
  unpack8(reinterpret_cast<const uint4*>(x)[i], fx);
  unpack8(reinterpret_cast<const uint4*>(d)[i], fd);
#pragma unroll
  for (int j = 0; j < 8; ++j) fx[j] += fd[j];
  reinterpret_cast<uint4*>(y)[i] = pack8(fx);
}

class BaselineBf16Mlp : public Bf16MlpBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t t = ctx.param("tokens"), d = ctx.param("dim"), f = ctx.param("ffn");
    cudaStream_t st = ctx.stream();
    const void* x = ctx.buffer("x").data;
    gate_.launch(st, x, ctx.buffer("wg").data, ws_gemm::StoreC{g_, static_cast<int>(f)}, t, f, d);
    up_.launch(st, x, ctx.buffer("wu").data, ws_gemm::StoreC{u_, static_cast<int>(f)}, t, f, d);
    swiglu<<<static_cast<unsigned>((t * f / 8 + 255) / 256), 256, 0, st>>>(g_, u_, t * f / 8, g_);
    AISP_LAUNCH_CHECK();
    down_.launch(st, g_, ctx.buffer("w2").data, ws_gemm::StoreC{d_, static_cast<int>(d)}, t, d, f);
    residual_add<<<static_cast<unsigned>((t * d / 8 + 255) / 256), 256, 0, st>>>(
        ctx.buffer("x").as<const __nv_bfloat16>(), d_, t * d / 8, ctx.buffer("y").as<__nv_bfloat16>());
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "gate GEMM, up GEMM, SwiGLU kernel, down GEMM, residual kernel"; }

 protected:
  void prepare(aisp::Context& ctx) override {
    const int64_t t = ctx.param("tokens"), d = ctx.param("dim"), f = ctx.param("ffn");
    g_ = scratch(ctx, "gate", t * f);
    u_ = scratch(ctx, "up", t * f);
    d_ = scratch(ctx, "down", t * d);
    gate_.prepare(ctx.device(), t, f, d);
    up_.prepare(ctx.device(), t, f, d);
    down_.prepare(ctx.device(), t, d, f);
  }

 private:
  Gemm gate_, up_, down_;
  __nv_bfloat16 *g_ = nullptr, *u_ = nullptr, *d_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(BaselineBf16Mlp)
