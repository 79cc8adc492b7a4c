// ch06 add, baseline: one GPU thread adds the whole array, element after element.
//
// Technique: the CPU loop moved to the GPU unchanged - a <<<1, 1>>> launch whose single thread runs
// `for (i = 0; i < n; ++i) c[i] = a[i] + b[i]`.
// Why it is slow: an H100 SXM has 132 SMs x 4 schedulers; this uses one lane of one warp on one of
// them (1/16896 of the GPU's thread slots, 1/4224 of its schedulers). The single thread can only overlap
// the few independent loads the compiler hoists out of its unrolled loop, so every 128 B line of a and b
// costs one HBM round trip (~350 ns idle latency) and every element several L1-hit latencies (~32
// cycles each). Nothing else on the GPU hides that latency.
// Expected on Hopper: ~30-60 ns per element, ~0.5-1 ms for the 16 Ki elements; bandwidth in the tens
// of MB/s, i.e. ~0.001% of HBM3's 3.35 TB/s.
#include "add.cuh"

namespace {

__global__ void add_serial_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                                  int64_t n) {
  // Launched with exactly one thread: it owns every element.
  for (int64_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
}

class BaselineAdd : public AddBase {
 public:
  void run(aisp::Context& ctx) override {
    add_serial_kernel<<<1, 1, 0, ctx.stream()>>>(ctx.buffer("a").as<const float>(), ctx.buffer("b").as<const float>(),
                                                 ctx.buffer("c").as<float>(), ctx.param("n"));
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "serial: one thread loops over all elements"; }
};

}  // namespace

AISP_BENCHMARK(BaselineAdd)
