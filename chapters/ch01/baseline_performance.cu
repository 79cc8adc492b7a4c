// ch01 performance, baseline: the epilogue as four separate kernels, one per line of the math, with the
// intermediate activation stored in global memory between them (what eager frameworks do by default).
//
// Technique: affine -> gelu -> residual add -> layer scale, each a well-written float4 grid-stride kernel
// over 16 Mi elements; t1..t3 live in one 64 MiB scratch tensor updated in place (the careful eager
// version: no new allocation per op).
// Why it is slow: every kernel streams the whole activation through HBM. Traffic per run:
//   affine   read x, write t          2 x 64 MiB
//   gelu     read t, write t          2 x 64 MiB
//   residual read t + residual, write t   3 x 64 MiB
//   scale    read t, write out        2 x 64 MiB
// = 9 x 64 MiB = 604 MB, three times the 201 MB the math needs (read x and residual, write out). Each
// element does ~12 flops for 36 bytes moved, so every kernel is memory-bound (H100 SXM balance point is
// ~20 flop/byte at 67 TFLOP/s / 3.35 TB/s); four launches also drain and refill the GPU three times.
// Expected on Hopper: ~604 MB at ~2.8-3.0 TB/s, about 0.20-0.22 ms per run (part of each 64 MiB
// intermediate may still be in the 50 MB L2 when the next kernel starts, which helps a little).
#include "performance.cuh"

namespace {

__global__ void affine_kernel(const float4* __restrict__ x, const float* __restrict__ gamma,
                              const float* __restrict__ beta, float4* __restrict__ t, int64_t n4, int64_t cols4) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n4; i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t c = (i % cols4) * 4;
    float4 v = x[i];
    v.x = stage_affine(v.x, gamma[c], beta[c]);
    v.y = stage_affine(v.y, gamma[c + 1], beta[c + 1]);
    v.z = stage_affine(v.z, gamma[c + 2], beta[c + 2]);
    v.w = stage_affine(v.w, gamma[c + 3], beta[c + 3]);
    t[i] = v;
  }
}

__global__ void gelu_kernel(float4* __restrict__ t, int64_t n4) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n4; i += int64_t(gridDim.x) * blockDim.x) {
    float4 v = t[i];
    v.x = stage_gelu(v.x);
    v.y = stage_gelu(v.y);
    v.z = stage_gelu(v.z);
    v.w = stage_gelu(v.w);
    t[i] = v;
  }
}

__global__ void residual_kernel(float4* __restrict__ t, const float4* __restrict__ r, int64_t n4) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n4; i += int64_t(gridDim.x) * blockDim.x) {
    float4 v = t[i];
    const float4 s = r[i];
    v.x = stage_residual(v.x, s.x);
    v.y = stage_residual(v.y, s.y);
    v.z = stage_residual(v.z, s.z);
    v.w = stage_residual(v.w, s.w);
    t[i] = v;
  }
}

__global__ void scale_kernel(const float4* __restrict__ t, const float* __restrict__ scale, float4* __restrict__ out,
                             int64_t n4, int64_t cols4) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n4; i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t c = (i % cols4) * 4;
    float4 v = t[i];
    v.x = stage_scale(v.x, scale[c]);
    v.y = stage_scale(v.y, scale[c + 1]);
    v.z = stage_scale(v.z, scale[c + 2]);
    v.w = stage_scale(v.w, scale[c + 3]);
    out[i] = v;
  }
}

class BaselinePerformance : public PerformanceBase {
 public:
  void setup(aisp::Context& ctx) override {
    PerformanceBase::setup(ctx);
    const int64_t n = ctx.param("rows") * ctx.param("cols");
    tmp_ = static_cast<float4*>(ctx.scratch("t", static_cast<size_t>(n) * sizeof(float)));
  }

  void run(aisp::Context& ctx) override {
    const int64_t cols = ctx.param("cols"), n4 = ctx.param("rows") * cols / 4, cols4 = cols / 4;
    const auto* x = ctx.buffer("x").as<const float4>();
    const auto* r = ctx.buffer("residual").as<const float4>();
    auto* out = ctx.buffer("out").as<float4>();
    require_performance_shape(cols, x, out);
    const unsigned grid = performance_grid(ctx.device());
    cudaStream_t s = ctx.stream();
    affine_kernel<<<grid, 256, 0, s>>>(x, ctx.buffer("gamma").as<const float>(), ctx.buffer("beta").as<const float>(),
                                       tmp_, n4, cols4);
    AISP_LAUNCH_CHECK();
    gelu_kernel<<<grid, 256, 0, s>>>(tmp_, n4);
    AISP_LAUNCH_CHECK();
    residual_kernel<<<grid, 256, 0, s>>>(tmp_, r, n4);
    AISP_LAUNCH_CHECK();
    scale_kernel<<<grid, 256, 0, s>>>(tmp_, ctx.buffer("layer_scale").as<const float>(), out, n4, cols4);
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "4 elementwise kernels, intermediates in global memory"; }

 private:
  float4* tmp_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(BaselinePerformance)
