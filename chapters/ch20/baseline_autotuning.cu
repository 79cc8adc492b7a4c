// ch20 autotuning, baseline: a fixed launch configuration carried over from another shape.
//
// Technique: split-KV decode attention with 8 splits per row and U = 8 rows in flight per warp: ch19's
// dynamic_quantized_cache configuration, good for 4 sequences x 32 heads (1024 CTAs). Here there are 8
// rows, so the grid has 64 CTAs of 128 threads for 132 SMs.
// Why it is slow: half the SMs get no work, and the others hold one 4-warp CTA each: ~8 x 2 KiB in flight
// per active SM, far below what covers HBM latency; each CTA walks 4096 tokens serially.
// Expected on Hopper: well under half of HBM bandwidth.
// Measured (H100 SXM, harness cold mode, 2026-11-25, 14 checks passed): 131.2 us
// (1.02 TB/s).
#include "autotuning.cuh"

namespace {

class BaselineAutotuning : public autotune::AutotuningBase {
 public:
  void run(aisp::Context& ctx) override { attend(ctx, 8, 8, ctx.buffer("o").as<__nv_bfloat16>()); }
  std::string technique() const override { return "fixed configuration: 8 splits, U = 8"; }
};

}  // namespace

AISP_BENCHMARK(BaselineAutotuning)
