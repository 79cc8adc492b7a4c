// ch09 memory_bound, baseline: five elementwise kernels, one per op, through a scratch buffer.
//
// Technique: t = 1.7 x - 0.3; t = silu(t); t = t + r; t = clamp(t); out = 0.5 t - each a separate launch of
// the same float4 elementwise kernel the fused version uses, in place on a 64 MiB scratch buffer.
// Why it is slow: arithmetic intensity. Each op does ~1-5 FLOP per 8-12 bytes, so every kernel is HBM
// bound, and the chain moves 2 + 2 + 3 + 2 + 2 = 11 buffers of 64 MiB = 704 MiB for a result whose
// minimum is 192 MiB (x, r, out): 3.7x the bytes. L2 cannot carry t between kernels (64 MiB > 50 MB).
// Expected on Hopper: ~250-270 us per run on H100 SXM (each kernel at ~2.8 TB/s, plus 5 launch tails).
#include "memory_bound.cuh"

namespace {

class BaselineMemoryBound : public MemoryBoundBase {
 public:
  void setup(aisp::Context& ctx) override {
    MemoryBoundBase::setup(ctx);
    t_ = static_cast<float4*>(ctx.scratch("t", static_cast<size_t>(ctx.param("n")) * sizeof(float)));
  }

  void run(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    check_memory_bound_shape(n);
    const int64_t n4 = n / 4;
    const auto* x = ctx.buffer("x").as<const float4>();
    const auto* r = ctx.buffer("r").as<const float4>();
    auto* out = ctx.buffer("out").as<float4>();
    const unsigned blocks = memory_bound_blocks(n4);
    cudaStream_t s = ctx.stream();
    map_kernel<<<blocks, kMemoryBoundThreads, 0, s>>>(x, t_, n4, ScaleShift{});
    AISP_LAUNCH_CHECK();
    map_kernel<<<blocks, kMemoryBoundThreads, 0, s>>>(t_, t_, n4, Silu{});
    AISP_LAUNCH_CHECK();
    map2_kernel<<<blocks, kMemoryBoundThreads, 0, s>>>(t_, r, t_, n4, AddResidual{});
    AISP_LAUNCH_CHECK();
    map_kernel<<<blocks, kMemoryBoundThreads, 0, s>>>(t_, t_, n4, Clamp{});
    AISP_LAUNCH_CHECK();
    map_kernel<<<blocks, kMemoryBoundThreads, 0, s>>>(t_, out, n4, OutputScale{});
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "unfused: 5 elementwise kernels through HBM"; }

 private:
  float4* t_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(BaselineMemoryBound)
