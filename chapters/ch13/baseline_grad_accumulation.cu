// ch13 grad_accumulation, baseline: cast, then add, per micro-batch (two kernels and an FP32 temporary).
//
// Technique: none; what `acc += g.float()` does eagerly: the cast materializes a 64 MiB FP32 copy of the
// gradient, and the add reads it back. Per micro-batch: read 2 B + write 4 B (cast), read 4 + 4 B and
// write 4 B (add) = 18 B per element, plus a 4 + 4 B copy of acc_in into acc before the first.
// Expected on Hopper: 16 Mi x (8 x 18 + 8) B = 2.55 GB at ~3 TB/s: ~0.85-0.95 ms.
// Measured (H100 SXM VM, 2026-11-25, cold mode, every check passed): 922.7 us (2.55 GB in 0.92 ms = 2.8 TB/s).
#include "grad_accumulation.cuh"

namespace {

__global__ void cast_bf16_to_f32(const __nv_bfloat16* __restrict__ g, float* __restrict__ out, int64_t n) {
  const int64_t i = (blockIdx.x * int64_t(blockDim.x) + threadIdx.x) * 8;
  if (i >= n) return;
  const uint4 raw = *reinterpret_cast<const uint4*>(g + i);
  const __nv_bfloat16* h = reinterpret_cast<const __nv_bfloat16*>(&raw);
  float4 lo, hi;
  lo.x = __bfloat162float(h[0]); lo.y = __bfloat162float(h[1]); lo.z = __bfloat162float(h[2]); lo.w = __bfloat162float(h[3]);
  hi.x = __bfloat162float(h[4]); hi.y = __bfloat162float(h[5]); hi.z = __bfloat162float(h[6]); hi.w = __bfloat162float(h[7]);
  reinterpret_cast<float4*>(out + i)[0] = lo;
  reinterpret_cast<float4*>(out + i)[1] = hi;
}

__global__ void add_f32(float* __restrict__ acc, const float* __restrict__ t, int64_t n) {
  const int64_t i = (blockIdx.x * int64_t(blockDim.x) + threadIdx.x) * 8;
  if (i >= n) return;
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    float4 a = reinterpret_cast<float4*>(acc + i)[h];
    const float4 b = reinterpret_cast<const float4*>(t + i)[h];
    a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w;
    reinterpret_cast<float4*>(acc + i)[h] = a;
  }
}

class BaselineGradAccumulation : public GradAccumulationBase {
 public:
  void setup(aisp::Context& ctx) override {
    GradAccumulationBase::setup(ctx);
    tmp_ = static_cast<float*>(ctx.scratch("grad_f32", ctx.param("n") * sizeof(float)));
  }
  void run(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    cudaStream_t s = ctx.stream();
    float* acc = ctx.buffer("acc").as<float>();
    AISP_CUDA_CHECK(cudaMemcpyAsync(acc, ctx.buffer("acc_in").data, n * sizeof(float), cudaMemcpyDeviceToDevice, s));
    for (int64_t i = 0; i < ctx.param("micro"); ++i) {
      cast_bf16_to_f32<<<accum_blocks(n), 256, 0, s>>>(grad(ctx, i), tmp_, n);
      AISP_LAUNCH_CHECK();
      add_f32<<<accum_blocks(n), 256, 0, s>>>(acc, tmp_, n);
      AISP_LAUNCH_CHECK();
    }
  }
  std::string technique() const override { return "cast to an FP32 temporary, then add (two kernels per micro-batch)"; }

 private:
  float* tmp_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(BaselineGradAccumulation)
