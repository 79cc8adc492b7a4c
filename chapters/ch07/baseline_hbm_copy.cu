// ch07 hbm_copy, baseline: every thread copies its own contiguous chunk of 64 floats.
//
// Technique: the partitioning a CPU programmer writes first - worker t copies elements [64 t, 64 t + 64)
// with a short scalar loop - launched as 2^19 threads.
// Why it is slow: at each loop step the 32 lanes of a warp touch addresses 256 B apart, so one warp
// instruction spans 8 KiB and 32 different 128 B lines: 32 sectors requested to deliver 128 useful bytes
// (4 per sector). Loads lean on L1 to catch the 7 later reuses of each sector, but 64 warps x 32 lines
// x 128 B = 256 KiB of live lines per SM is the whole L1, so part of every line is refetched from L2.
// Stores are worse: L1 is write-through, so each warp store is 32 partial-sector writes to L2 (4 of 32 B),
// 2^25 L2 write requests per run, which L2 must merge into full lines before writing HBM. The limit is
// L1/L2 request throughput, not DRAM.
// Expected on Hopper: a small fraction of HBM bandwidth, ~0.3-0.7 ms per run on H100 SXM (0.4-0.9 TB/s).
#include "hbm_copy.cuh"

namespace {

constexpr int kChunk = 64;  // floats per thread (256 B)

__global__ void chunked_copy_kernel(const float* __restrict__ in, float* __restrict__ out, int64_t n) {
  const int64_t begin = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) * kChunk;
  const int64_t end = begin + kChunk < n ? begin + kChunk : n;
  for (int64_t i = begin; i < end; ++i) out[i] = in[i];
}

class BaselineHbmCopy : public HbmCopyBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    constexpr int kThreads = 256;
    const int64_t threads = (n + kChunk - 1) / kChunk;
    chunked_copy_kernel<<<static_cast<unsigned>((threads + kThreads - 1) / kThreads), kThreads, 0, ctx.stream()>>>(
        ctx.buffer("in").as<const float>(), ctx.buffer("out").as<float>(), n);
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "per-thread contiguous chunks (CPU-style), 4-byte accesses"; }
};

}  // namespace

AISP_BENCHMARK(BaselineHbmCopy)
