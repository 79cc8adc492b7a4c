// ch10 double_buffered_pipeline, baseline: tensor-core GEMM with synchronous, single-buffered tile loads.
//
// Technique: gemm_mma_sync.cuh with one slot and no cp.async: per 32-wide K-tile each thread loads 2 x 16 B
// of A and of B into registers, stores them to shared memory, the block meets at a barrier, runs the
// mma.sync loop, and meets again before the slot can be overwritten.
// Why it is slow: load and compute never overlap inside a block: every K-tile starts with a full global
// memory round trip (~600-800 ns from L2/HBM) that only other resident blocks (2 per SM here, 40 KiB each)
// can cover (2 per SM: 128 registers per thread x 256 threads), and with 128 x 128 x 32 tiles the MMAs
// between two loads are short.
// Expected on Hopper: ~150-250 TFLOP/s at 4096^3 on H100 SXM. Measured (H100 SXM, harness cold mode,
// 2026-11-25, 14 checks passed): 701.2 us, 196.0 TFLOP/s.
#include "double_buffered_pipeline.cuh"

namespace {

using Gemm = mma_gemm::MmaGemm</*stages=*/1, /*async=*/false>;

class BaselineDoubleBufferedPipeline : public DoubleBufferedPipelineBase {
 public:
  void run(aisp::Context& ctx) override {
    Gemm::launch(ctx.stream(), ctx.buffer("a").data, ctx.buffer("b").data, ctx.buffer("c").data, ctx.param("m"),
                 ctx.param("n"), ctx.param("k"));
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "mma.sync GEMM, synchronous single-buffered shared-memory tiles"; }

 protected:
  void prepare() override { Gemm::prepare(); }
};

}  // namespace

AISP_BENCHMARK(BaselineDoubleBufferedPipeline)
