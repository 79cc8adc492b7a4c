// ch10 dsmem_histogram, baseline: one global atomicAdd per key.
//
// Technique: zero the 256 KiB output, then a grid-stride kernel reads 4 keys per 16-byte load and issues
// atomicAdd(&counts[key], 1) for each (RED.ADD to global memory, executed in the L2 slice owning the
// address). What a kernel falls back to when the bins do not fit a block's shared memory.
// Why it is slow: each key costs an L2 atomic, a read-modify-write in the L2 slice that owns the counter;
// 32 Mi of them are bound by the L2's atomic throughput, not by the 128 MiB of keys (~45 us of HBM time).
// Expected on Hopper: a few hundred microseconds (L2 atomic rate, order 100 G/s on random addresses).
// Measured: see the README.
#include "dsmem_histogram.cuh"

namespace {

using namespace dsmem_histogram;

__global__ void histogram_global_kernel(const int4* __restrict__ keys, int* __restrict__ counts, int64_t n4) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n4; i += int64_t(gridDim.x) * blockDim.x) {
    const int4 k = keys[i];
    atomicAdd(&counts[k.x], 1);
    atomicAdd(&counts[k.y], 1);
    atomicAdd(&counts[k.z], 1);
    atomicAdd(&counts[k.w], 1);
  }
}

class BaselineDsmemHistogram : public Pair {
 public:
  void run(aisp::Context& ctx) override {
    int* counts = ctx.buffer("counts").as<int>();
    AISP_CUDA_CHECK(cudaMemsetAsync(counts, 0, kBins * sizeof(int), ctx.stream()));
    const unsigned blocks = static_cast<unsigned>(ctx.device().sm_count * 4);
    histogram_global_kernel<<<blocks, 512, 0, ctx.stream()>>>(ctx.buffer("keys").as<const int4>(), counts, kKeys / 4);
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "one global atomicAdd (L2 atomic) per key"; }
};

}  // namespace

AISP_BENCHMARK(BaselineDsmemHistogram)
