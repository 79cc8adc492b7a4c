// ch13 fused_adamw, baseline: one AdamW kernel per parameter tensor (148 launches per step).
//
// Technique: none; the for-each-parameter optimizer (torch.optim.AdamW with foreach=False). Each launch
// costs the host ~3-5 us to issue and the GPU ~1-2 us to start, and 140 of the 148 tensors have fewer
// than 600 K elements, so most launches finish before the next one is issued.
// Expected on Hopper: ~148 x ~4 us of issue = ~0.6 ms, against ~0.33 ms of HBM traffic (951 MB).
// Measured (H100 SXM VM, 2026-11-25, cold mode, every check passed): 915.6 us per step.
#include "fused_adamw.cuh"

namespace {

__global__ void adamw_tensor_kernel(AdamWState s, int64_t offset, int64_t len, AdamWHyper h, float bc1, float bc2) {
  for (int64_t j = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; j < len; j += int64_t(gridDim.x) * blockDim.x)
    adamw_update(s, offset + j, h.lr, h.beta1, h.beta2, h.eps, h.weight_decay, bc1, bc2);
}

class BaselineFusedAdamW : public FusedAdamWBase {
 public:
  void run(aisp::Context& ctx) override {
    host_window::open(ctx.stream());
    const AdamWState s = state(ctx);
    int64_t offset = 0;
    for (int64_t len : adamw_tensor_sizes()) {
      const unsigned blocks = static_cast<unsigned>(std::min<int64_t>((len + 255) / 256, 4096));
      adamw_tensor_kernel<<<blocks, 256, 0, ctx.stream()>>>(s, offset, len, hyper_, hyper_.bc1(), hyper_.bc2());
      AISP_LAUNCH_CHECK();
      offset += len;
    }
  }
  std::string technique() const override { return "one AdamW kernel per tensor (148 launches)"; }
};

}  // namespace

AISP_BENCHMARK(BaselineFusedAdamW)
