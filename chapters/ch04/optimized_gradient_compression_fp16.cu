// gradient_compression_fp16 optimized: cast to fp16, all-reduce in place in fp16 (2 bytes per element on the
// link), cast the sum back to fp32. See gradient_compression_fp16.cuh for the tolerance.
#include "gradient_compression_fp16.cuh"

// 16-byte loads and 8-byte stores (4 elements per thread per step): the casts are memory-bound passes.
__global__ void to_half(const float4* __restrict__ in, __half2* __restrict__ out, int64_t n4) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n4; i += int64_t(gridDim.x) * blockDim.x) {
    const float4 v = in[i];
    out[2 * i] = __floats2half2_rn(v.x, v.y);
    out[2 * i + 1] = __floats2half2_rn(v.z, v.w);
  }
}
__global__ void to_float(const __half2* __restrict__ in, float4* __restrict__ out, int64_t n4) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n4; i += int64_t(gridDim.x) * blockDim.x) {
    const float2 a = __half22float2(in[2 * i]), b = __half22float2(in[2 * i + 1]);
    out[i] = make_float4(a.x, a.y, b.x, b.y);
  }
}

struct Optimized : gradient_compression_fp16::Base {
  void setup(aisp::Context& ctx) override {
    Base::setup(ctx);
    wire_ = static_cast<__half*>(ctx.scratch("wire_fp16", gradient_compression_fp16::kN * sizeof(__half)));
  }
  void run(aisp::Context& ctx) override {
    constexpr int64_t n = gradient_compression_fp16::kN;
    const int blocks = 132 * 8;
    to_half<<<blocks, 256, 0, ctx.stream()>>>(ctx.buffer("grad").as<float4>(), reinterpret_cast<__half2*>(wire_), n / 4);
    AISP_LAUNCH_CHECK();
    nccl().check(nccl().all_reduce(wire_, wire_, n, ncclHalf, ncclSum, comm_, ctx.stream()), "ncclAllReduce(fp16)");
    to_float<<<blocks, 256, 0, ctx.stream()>>>(reinterpret_cast<const __half2*>(wire_), ctx.buffer("reduced").as<float4>(), n / 4);
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "fp16 compression: cast, all-reduce half the bytes, cast back"; }

 private:
  __half* wire_ = nullptr;
};

AISP_BENCHMARK(Optimized)
