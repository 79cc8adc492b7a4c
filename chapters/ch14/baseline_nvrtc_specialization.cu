// ch14 nvrtc_specialization, baseline: a generic permute kernel, shape and strides as arguments.
//
// Technique: none; the kernel a library ships once for every shape: one element per thread, the output
// index decomposed by a loop over the (runtime) rank with 64-bit division and modulo by runtime extents
// (a tensor may exceed 2^31 elements, so a generic kernel cannot assume 32-bit indices), then one 4-byte
// gather. The division by a value unknown at compile time is a multi-instruction software routine.
// Expected on Hopper: index math, not HBM, bounds it: ~1.5-2x the 66 us that 201 MB of traffic needs.
// (A generic kernel with host-precomputed magic-number dividers, PyTorch's IntDivider, closes part of the
// index-math gap but still cannot vectorize without knowing the layout.)
// Measured (H100 SXM VM, 2026-11-25, cold mode, every check passed): 463.1 us (0.43 TB/s: the index math, not HBM,
// bounds it).
#include "nvrtc_specialization.cuh"

namespace {

__global__ void permute_generic(const float* __restrict__ in, float* __restrict__ out, int64_t n, PermuteGeometry g) {
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  int64_t idx = i, off = 0;
  for (int d = g.rank - 1; d >= 0; --d) {
    off += (idx % g.out_dims[d]) * g.in_strides[d];
    idx /= g.out_dims[d];
  }
  out[i] = in[off];
}

class BaselineNvrtcSpecialization : public NvrtcSpecializationBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    permute_generic<<<static_cast<unsigned>((n + 255) / 256), 256, 0, ctx.stream()>>>(
        ctx.buffer("x").as<const float>(), ctx.buffer("y").as<float>(), n, permute_geometry());
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "generic permute: runtime rank/dims/strides, 64-bit index math"; }
};

}  // namespace

AISP_BENCHMARK(BaselineNvrtcSpecialization)
