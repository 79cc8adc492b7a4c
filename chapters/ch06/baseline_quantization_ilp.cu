// ch06 quantization_ilp, baseline: the textbook per-row quantizer, one element per thread per step.
//
// Technique: one 256-thread block per row (16384 blocks). Pass 1: each thread walks the row with stride
// 256, one 4-byte load per step, folding |x| into a running max. A shared-memory tree reduction (8
// halving steps, a __syncthreads after each) combines the 256 partial maxima. Pass 2: the threads walk the
// row again, reload each element (4-byte loads, now L1/L2 hits), quantize it and store one byte.
// Why it is slow: a thread has one 4-byte load outstanding at a time - each step's load waits for the
// previous one's DRAM round trip (~600-800 ns) - so even with 8 blocks (2048 threads) on every SM only
// 132 x 2048 x 4 B = 1.08 MB is in flight, about half of what Little's law asks of HBM3 (3.35 TB/s x
// ~600 ns ~ 2 MB). A block then spends the reduction's 9 barriers and all of pass 2 with no DRAM read in
// flight at all; pass 2 re-reads the 16 KiB row through L1/L2 (16 more load instructions per thread) and
// writes 1-byte stores, a quarter of a line per warp instruction. DRAM traffic is already the minimum (the
// re-read hits cache); what is missing is bytes in flight.
// The loops are kept rolled (#pragma unroll 1) so the code does what it says, one element per step:
// left alone, nvcc unrolls pass 1 by 4 and so hands the baseline part of the ILP this pair is about
// (measured on the H100 in a plain event-timed loop, L2 flushed, median of 30: 120.7 us unrolled by the
// compiler, 190.2 us rolled, 116.5 us for the optimized kernel - the compiler's unrolling is the same
// technique, applied for you when the loop allows it).
// Expected on Hopper: ~1.7-1.9 TB/s read + write, ~180-200 us for the 320 MiB moved on H100 SXM.
#include "quantization_ilp.cuh"

namespace {

constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads)
quantize_rows_naive(const float* __restrict__ x, signed char* __restrict__ q, float* __restrict__ scale, int cols) {
  __shared__ float partial_max[kThreads];
  const float* row = x + static_cast<int64_t>(blockIdx.x) * cols;
  signed char* q_row = q + static_cast<int64_t>(blockIdx.x) * cols;

  // Pass 1: this thread's share of max|x|, one element per step.
  float amax = 0.0f;
#pragma unroll 1
  for (int i = threadIdx.x; i < cols; i += kThreads) amax = fmaxf(amax, fabsf(row[i]));

  // Tree reduction in shared memory: 128, 64, ..., 1 active threads, a full-block barrier per level.
  partial_max[threadIdx.x] = amax;
  __syncthreads();
  for (int active = kThreads / 2; active > 0; active /= 2) {
    if (threadIdx.x < active)
      partial_max[threadIdx.x] = fmaxf(partial_max[threadIdx.x], partial_max[threadIdx.x + active]);
    __syncthreads();
  }
  const float row_max = partial_max[0];
  const float inverse_scale = quant_inverse_scale(row_max);

  // Pass 2: read the row again and write one byte per element.
#pragma unroll 1
  for (int i = threadIdx.x; i < cols; i += kThreads) q_row[i] = quantize_element(row[i], inverse_scale);
  if (threadIdx.x == 0) scale[blockIdx.x] = quant_scale(row_max);
}

class BaselineQuantizationIlp : public QuantizationIlpBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t rows = ctx.param("rows"), cols = ctx.param("cols");
    quantize_rows_naive<<<static_cast<unsigned>(rows), kThreads, 0, ctx.stream()>>>(
        ctx.buffer("x").as<const float>(), ctx.buffer("q").as<signed char>(), ctx.buffer("scale").as<float>(),
        static_cast<int>(cols));
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "one element per thread per step, smem tree reduction, 2 passes"; }
};

}  // namespace

AISP_BENCHMARK(BaselineQuantizationIlp)
