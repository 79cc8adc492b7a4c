// ch08 hbm, baseline: one bf16 per thread - 2-byte loads and stores.
//
// Technique: the obvious elementwise kernel over a bf16 tensor, 2^25 threads in 131072 blocks of 256,
// thread i loads x[i] (LDG.U16), computes, stores y[i] (STG.U16).
// Why it is slow: a warp instruction moves only 64 bytes (two sectors), and each thread has 2 bytes in
// flight. At full occupancy the GPU holds 132 x 2048 threads x 2 B = 0.54 MB of loads in flight, a
// quarter of the ~2 MB that Little's law asks of HBM3 (3.35 TB/s x ~0.6 us), and block churn (each thread
// does one element and retires) keeps it below that. The DRAM is idle most of the time: the kernel is
// bound by bytes in flight, not by bandwidth.
// Expected on Hopper: ~1.2-1.8 TB/s read + write (~75-110 us for the 128 MiB), ~40-60% of HBM peak.
#include "hbm.cuh"

namespace {

__global__ void affine_bf16_scalar_kernel(const __nv_bfloat16* __restrict__ x, __nv_bfloat16* __restrict__ y,
                                          int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = hbm_affine(x[i]);
}

class BaselineHbm : public HbmBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    constexpr int kThreads = 256;
    affine_bf16_scalar_kernel<<<static_cast<unsigned>((n + kThreads - 1) / kThreads), kThreads, 0, ctx.stream()>>>(
        ctx.buffer("x").as<const __nv_bfloat16>(), ctx.buffer("y").as<__nv_bfloat16>(), n);
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "one bf16 (2-byte access) per thread"; }
};

}  // namespace

AISP_BENCHMARK(BaselineHbm)
