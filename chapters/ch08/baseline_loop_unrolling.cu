// ch08 loop_unrolling, baseline: the row loop kept rolled (#pragma unroll 1).
//
// Technique: `for (r = 0; r < rows; ++r) sum += in[r * cols + c];` with the unroll count pinned to 1
// (nvcc would unroll this small loop by 4 on its own; pinning it shows the rolled loop the source
// describes, as it runs when the body is too large for the compiler's heuristics).
// Why it is slow: each iteration issues one load and immediately needs its value for the add, so a thread
// has exactly one 4-byte load in flight and waits a full HBM round trip (~0.6 us under load) per row.
// With 16384 threads, 16384 x 4 B = 64 KB is in flight for the whole GPU - Little's law then allows
// ~0.1 TB/s, a few percent of HBM3's 3.35 TB/s. The loop overhead (compare, branch, pointer bump)
// is irrelevant next to that.
// Expected on Hopper: ~2048 rows x ~0.4-0.6 us ~ 0.8-1.2 ms per run (measured on an H100 SXM: 0.78 ms,
// i.e. ~0.38 us per row - near the idle HBM latency, since the memory system is nearly empty).
#include "loop_unrolling.cuh"

namespace {

__global__ void column_sum_rolled_kernel(const float* __restrict__ in, float* __restrict__ out, int64_t rows,
                                         int64_t cols) {
  const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  float sum = 0.0f;
#pragma unroll 1
  for (int64_t r = 0; r < rows; ++r) sum += in[r * cols + c];
  out[c] = sum;
}

class BaselineLoopUnrolling : public LoopUnrollingBase {
 public:
  void run(aisp::Context& ctx) override { launch_column_sum(ctx, column_sum_rolled_kernel); }

  std::string technique() const override { return "rolled loop: one load in flight per thread"; }
};

}  // namespace

AISP_BENCHMARK(BaselineLoopUnrolling)
