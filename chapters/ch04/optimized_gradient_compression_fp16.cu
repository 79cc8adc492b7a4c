// gradient_compression_fp16 optimized: cast to fp16, all-reduce in place in fp16 (2 bytes per element on the
// link), cast the sum back to fp32. See gradient_compression_fp16.cuh for the tolerance.
#include "gradient_compression_fp16.cuh"

__global__ void to_half(const float* __restrict__ in, __half* __restrict__ out, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    out[i] = __float2half_rn(in[i]);
}
__global__ void to_float(const __half* __restrict__ in, float* __restrict__ out, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    out[i] = __half2float(in[i]);
}

struct Optimized : gradient_compression_fp16::Base {
  void setup(aisp::Context& ctx) override {
    Base::setup(ctx);
    wire_ = static_cast<__half*>(ctx.scratch("wire_fp16", gradient_compression_fp16::kN * sizeof(__half)));
  }
  void run(aisp::Context& ctx) override {
    constexpr int64_t n = gradient_compression_fp16::kN;
    const int blocks = 132 * 8;
    to_half<<<blocks, 256, 0, ctx.stream()>>>(ctx.buffer("grad").as<float>(), wire_, n);
    AISP_LAUNCH_CHECK();
    nccl().check(nccl().all_reduce(wire_, wire_, n, ncclHalf, ncclSum, comm_, ctx.stream()), "ncclAllReduce(fp16)");
    to_float<<<blocks, 256, 0, ctx.stream()>>>(wire_, ctx.buffer("reduced").as<float>(), n);
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "fp16 compression: cast, all-reduce half the bytes, cast back"; }

 private:
  __half* wire_ = nullptr;
};

AISP_BENCHMARK(Optimized)
