// ch20 bf16_mlp, optimized: SwiGLU and the residual fused into the GEMM epilogues.
//
// Technique: setup() interleaves the static gate and up weights row by row into one [2 x 8960][1536]
// matrix (row 2j = Wg[j], row 2j+1 = Wu[j]). ch10's GEMM hands its epilogue two neighbouring columns of
// one row, (col, col+1) with col even, so for column pair j it receives gate_j and up_j of the same token
// in fp32 and writes h[token][j] = silu(gate_j) * up_j: one GEMM (n = 17920) replaces two plus the SwiGLU
// pass, and neither gate nor up is ever stored. The down GEMM's epilogue adds the residual x.
// Why it is faster: removes ~0.6 GB of HBM traffic (gate and up written and read back, h and d passes) and
// three launches; one wide GEMM also has one tail instead of two. Its cost: the SwiGLU math runs in the
// epilogue, which (in this kernel) does not overlap the tensor cores, so silu is the fast-math one (two
// MUFU ops; the IEEE division of the earlier version cost ~20 instructions per pair).
// Expected on Hopper: ~1.1x over the unfused MLP at this shape (1.5B-class hidden size 1536; the saved share
// goes as 1 / hidden, see bf16_mlp.cuh).
// Earlier version (Llama-3-8B's 4096 -> 14336, 2048 tokens, IEEE-division silu): H100 1.022 vs 1.050 ms,
// 1.027x [1.009, 1.047]; H200 1.004 vs 1.026 ms, 1.022x [1.003, 1.040]: SAME both times.
// Measured (this version; H200, harness cold mode, 2026-11-28, `aisp bench run -t ch20 --time-limit 5
// --update-expectations`, 19 checks passed): 1.072 ms vs 1.114 ms, 1.040x [1.021, 1.059]: INCONCLUSIVE (band
// 1.05x); 631 TFLOP/s, 71.5% of the bf16 wgmma ceiling. 0.043 ms saved of the ~0.12 ms expected: this variant
// draws more power (566 vs 471 W mean) and is held harder at the power cap (block medians 1.055-1.094 ms vs the
// baseline's steady 1.11), and its SwiGLU math sits in an epilogue the tensor cores wait for (K = 1536: ~15 us
// of MMA per tile). The next step is an epilogue overlapped with the next tile's main loop (README).
// Re-measured 2026-11-28 (b) (H200, same command, first run / confirmation run): 1.071 / 1.082 ms, now 0.908x
// SLOWER than the new baseline (972.6 / 990.9 us: the unfused pipeline with 16-byte-run epilogues). What held
// this variant back was the store pattern of its epilogue (64 warp-wide 2-byte stores per thread and tile, 8
// rows each), not the overlap: optimized_bf16_mlp_rowstore.cu, the same fusion with 16-byte runs, is 1.094x
// FASTER. Kept as the step of the ladder that shows it.
#include "../ch10/gemm_ws_kernel.cuh"
#include "bf16_mlp_interleave.cuh"

namespace {

using namespace block;

// (col, col + 1) = (gate_j, up_j) for j = col / 2 of the interleaved weights; one bf16 out per pair.
struct SwiGluStore {
  __nv_bfloat16* h;
  int ld;  // ffn
  __device__ __forceinline__ void operator()(int row, int col, float gate, float up) const {
    h[static_cast<int64_t>(row) * ld + col / 2] = __float2bfloat16_rn(silu(gate) * up);
  }
};

class OptimizedBf16Mlp : public Bf16MlpBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t t = ctx.param("tokens"), d = ctx.param("dim"), f = ctx.param("ffn");
    cudaStream_t st = ctx.stream();
    gate_up_.launch(st, ctx.buffer("x").data, wgu_, SwiGluStore{h_, static_cast<int>(f)}, t, 2 * f, d);
    down_.launch(st, h_, ctx.buffer("w2").data,
                 StoreResidual{ctx.buffer("y").as<__nv_bfloat16>(), ctx.buffer("x").as<const __nv_bfloat16>(),
                               static_cast<int>(d)},
                 t, d, f);
  }
  std::string technique() const override { return "interleaved gate/up GEMM with SwiGLU epilogue; residual in down GEMM"; }

 protected:
  void prepare(aisp::Context& ctx) override {
    const int64_t t = ctx.param("tokens"), d = ctx.param("dim"), f = ctx.param("ffn");
    bf16_mlp::prepare_interleaved_gate_up(ctx, t, d, f, h_, wgu_);
    gate_up_.prepare(ctx.device(), t, 2 * f, d);
    down_.prepare(ctx.device(), t, d, f);
  }

 private:
  ws_gemm::WsGemm<true, 1, SwiGluStore> gate_up_;
  ws_gemm::WsGemm<true, 1, StoreResidual> down_;
  __nv_bfloat16 *h_ = nullptr, *wgu_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(OptimizedBf16Mlp)
