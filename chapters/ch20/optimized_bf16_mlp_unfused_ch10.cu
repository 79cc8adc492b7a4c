// ch20 bf16_mlp, CONTROL (not a fusion): the pair's baseline before 2026-11-28 (b), kept to show the current
// baseline is not slower: the same unfused pipeline on ch10's GEMM (gemm_ws_kernel.cuh, cooperative, its
// two-column epilogue: 64 warp-wide 4-byte stores per thread and tile, each touching 8 rows).
// Measured as the baseline (H200, 2026-11-28 09:31, `aisp bench run -t ch20 --time-limit 5`): 1.114 ms; as this
// control (H200, harness cold mode, 2026-11-28 (b), `aisp bench run -t ch20:bf16_mlp --time-limit 5 --update-expectations`,
// first run / confirmation run, 19 checks passed each): 1.108 / 1.129 ms against the new baseline's 972.6 / 990.9 us (0.878x):
// the 16-byte-run epilogues alone made the unfused pipeline 12% faster.
#include "../ch10/gemm_ws_kernel.cuh"
#include "bf16_mlp_pointwise.cuh"

namespace {

using namespace block;
using Gemm = ws_gemm::WsGemm</*persistent=*/true, /*cluster=*/1, ws_gemm::StoreC>;

class OptimizedBf16MlpUnfusedCh10 : public Bf16MlpBase {
 public:
  void run(aisp::Context& ctx) override {
    bf16_mlp::run_unfused<ws_gemm::StoreC>(ctx.stream(), gate_, up_, down_, ctx.buffer("x").as<const __nv_bfloat16>(),
                                           ctx.buffer("wg").data, ctx.buffer("wu").data, ctx.buffer("w2").data, g_, u_, d_,
                                           ctx.buffer("y").as<__nv_bfloat16>(), ctx.param("tokens"), ctx.param("dim"),
                                           ctx.param("ffn"));
  }
  std::string technique() const override {
    return "gate GEMM, up GEMM, SwiGLU kernel, down GEMM, residual kernel (ch10 GEMM, two-column epilogue: control)";
  }

 protected:
  void prepare(aisp::Context& ctx) override {
    const int64_t t = ctx.param("tokens"), d = ctx.param("dim"), f = ctx.param("ffn");
    g_ = scratch(ctx, "gate", t * f);
    u_ = scratch(ctx, "up", t * f);
    d_ = scratch(ctx, "down", t * d);
    gate_.prepare(ctx.device(), t, f, d);
    up_.prepare(ctx.device(), t, f, d);
    down_.prepare(ctx.device(), t, d, f);
  }

 private:
  Gemm gate_, up_, down_;
  __nv_bfloat16 *g_ = nullptr, *u_ = nullptr, *d_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(OptimizedBf16MlpUnfusedCh10)
