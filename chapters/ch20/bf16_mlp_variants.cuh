// bf16_mlp_variants: the two MLP pipelines of the bf16_mlp pair over bf16_mlp_gemm.cuh's kernel, as templates on
// the kernel's schedule (kPP: ping-pong or cooperative; kCluster: 1, or 2 with B multicast), so that the
// baseline and the fused variants run the same GEMM code and differ only in the fusion:
//   UnfusedMlp  gate GEMM, up GEMM (plain stores), SwiGLU kernel, down GEMM, residual kernel (5 launches)
//   FusedMlp    one GEMM over the packed gate/up weights whose epilogue writes silu(gate) * up, the down GEMM
//               whose epilogue adds the residual (2 launches)
// Both permute their static weights' rows once in setup() (bf16_mlp_gemm.cuh: 16-byte-run epilogues).
// UnfusedMlp's pointwise kernels and launch sequence are bf16_mlp_pointwise.cuh's (run_unfused), shared with
// the ch10-GEMM control (optimized_bf16_mlp_unfused_ch10.cu).
#pragma once
#include "bf16_mlp.cuh"
#include "bf16_mlp_gemm.cuh"
#include "bf16_mlp_pointwise.cuh"

namespace bf16_mlp {

using namespace block;

// silu as block::silu (same expression on both sides of the pair), as a functor for RowSwiGlu.
struct Silu {
  __device__ __forceinline__ float operator()(float x) const { return silu(x); }
};

inline const char* schedule_name(bool pp, int cluster) {
  return pp ? (cluster > 1 ? "ping-pong, 2-CTA B multicast" : "ping-pong") : "cooperative";
}

template <bool kPP, int kCluster>
class UnfusedMlp : public Bf16MlpBase {
 public:
  void run(aisp::Context& ctx) override {
    run_unfused<mlp_gemm::RowStore>(ctx.stream(), gate_, up_, down_, ctx.buffer("x").as<const __nv_bfloat16>(), wg_, wu_, w2_,
                                    g_, u_, d_, ctx.buffer("y").as<__nv_bfloat16>(), ctx.param("tokens"), ctx.param("dim"),
                                    ctx.param("ffn"));
  }
  std::string technique() const override {
    return std::string("gate GEMM, up GEMM, SwiGLU kernel, down GEMM, residual kernel (") + schedule_name(kPP, kCluster) +
           " wgmma GEMM)";
  }

 protected:
  void prepare(aisp::Context& ctx) override {
    const int64_t t = ctx.param("tokens"), d = ctx.param("dim"), f = ctx.param("ffn");
    g_ = scratch(ctx, "gate", t * f);
    u_ = scratch(ctx, "up", t * f);
    d_ = scratch(ctx, "down", t * d);
    wg_ = scratch(ctx, "wg_perm", f * d);
    wu_ = scratch(ctx, "wu_perm", f * d);
    w2_ = scratch(ctx, "w2_perm", d * f);
    mlp_gemm::launch_permute_rows(ctx.stream(), ctx.buffer("wg").as<const __nv_bfloat16>(), nullptr, f, static_cast<int>(d),
                                  wg_);
    mlp_gemm::launch_permute_rows(ctx.stream(), ctx.buffer("wu").as<const __nv_bfloat16>(), nullptr, f, static_cast<int>(d),
                                  wu_);
    mlp_gemm::launch_permute_rows(ctx.stream(), ctx.buffer("w2").as<const __nv_bfloat16>(), nullptr, d, static_cast<int>(f),
                                  w2_);
    AISP_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    gate_.prepare(ctx.device(), t, f, d);
    up_.prepare(ctx.device(), t, f, d);
    down_.prepare(ctx.device(), t, d, f);
  }

 private:
  mlp_gemm::Gemm<kPP, kCluster, mlp_gemm::RowStore> gate_, up_, down_;
  __nv_bfloat16 *g_ = nullptr, *u_ = nullptr, *d_ = nullptr, *wg_ = nullptr, *wu_ = nullptr, *w2_ = nullptr;
};

template <bool kPP, int kCluster>
class FusedMlp : public Bf16MlpBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t t = ctx.param("tokens"), d = ctx.param("dim"), f = ctx.param("ffn");
    cudaStream_t st = ctx.stream();
    gate_up_.launch(st, ctx.buffer("x").data, wgu_, mlp_gemm::RowSwiGlu<Silu>{h_, static_cast<int>(f)}, t, 2 * f, d);
    down_.launch(st, h_, w2_,
                 mlp_gemm::RowResidual{ctx.buffer("y").as<__nv_bfloat16>(), ctx.buffer("x").as<const __nv_bfloat16>(),
                                       static_cast<int>(d)},
                 t, d, f);
  }
  std::string technique() const override {
    return std::string("packed gate/up GEMM with SwiGLU epilogue; residual in down GEMM (") + schedule_name(kPP, kCluster) +
           " wgmma GEMM)";
  }

 protected:
  void prepare(aisp::Context& ctx) override {
    const int64_t t = ctx.param("tokens"), d = ctx.param("dim"), f = ctx.param("ffn");
    h_ = scratch(ctx, "h", t * f);
    wgu_ = scratch(ctx, "w_gate_up", 2 * f * d);
    w2_ = scratch(ctx, "w2_perm", d * f);
    mlp_gemm::launch_permute_rows(ctx.stream(), ctx.buffer("wg").as<const __nv_bfloat16>(),
                                  ctx.buffer("wu").as<const __nv_bfloat16>(), 2 * f, static_cast<int>(d), wgu_);
    mlp_gemm::launch_permute_rows(ctx.stream(), ctx.buffer("w2").as<const __nv_bfloat16>(), nullptr, d, static_cast<int>(f),
                                  w2_);
    AISP_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    gate_up_.prepare(ctx.device(), t, 2 * f, d);
    down_.prepare(ctx.device(), t, d, f);
  }

 private:
  mlp_gemm::Gemm<kPP, kCluster, mlp_gemm::RowSwiGlu<Silu>> gate_up_;
  mlp_gemm::Gemm<kPP, kCluster, mlp_gemm::RowResidual> down_;
  __nv_bfloat16 *h_ = nullptr, *wgu_ = nullptr, *w2_ = nullptr;
};

}  // namespace bf16_mlp
