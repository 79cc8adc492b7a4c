// Cheat: the same copy with float4 loads and stores and no scalar tail: the last vector covers one float
// past the end of "out" (and of "in"). cudaMalloc rounds the allocation up, so the stray store lands in
// slack that nothing owns and every output element is still correct.
// Real-world exploit: dropping tail handling for speed; harmless here, corrupting a neighbour in a model.
// Caught by: K22 (canary guard band after the output changed, named with its offset).
#include "validity_common.cuh"

namespace {
__global__ void copy_vec4_no_tail(const float4* __restrict__ in, float4* __restrict__ out, int64_t vectors) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < vectors) out[i] = in[i];
}
}  // namespace

struct OobSlackWrite : validity::OddCopyBase {
  void run(aisp::Context& ctx) override {
    const int64_t vectors = (validity::kOdd + 3) / 4;  // rounds up: one float past the end
    copy_vec4_no_tail<<<validity::blocks_for(vectors), 256, 0, ctx.stream()>>>(
        ctx.buffer("in").as<const float4>(), ctx.buffer("out").as<float4>(), vectors);
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "validity cheat: float4 copy without tail handling"; }
};

AISP_BENCHMARK(OobSlackWrite)
