// ch18 mla_latent_kv, baseline: full heads. K and V of all 16 heads are cached and read every step.
//
// Technique: setup() expands the static latent cache into per-head K and V, [16][16384][128] bf16 each
// (K_h = c w_uk_h, fp32 sums rounded to bf16: what an engine without MLA caches). run() is the split-KV
// decode attention of decode_split.cuh (16-byte loads, ~2 waves of 4-warp CTAs) and the split merge.
// Why it is slow: every step reads 2 x 16 heads x 256 B = 8 KB per cached token, 134 MB at 16384 tokens;
// the kernel is already near the HBM roofline, so only fewer bytes can help.
// Expected on Hopper: ~134 MB / ~2.8 TB/s = ~48 us.
// Measured (H100 SXM, harness cold mode, 2026-11-28, 14 checks passed, first version of the split merge): 69.2 us;
// with the current split merge (docs/measurements/closing_calls_20261128.md): H100 59.4 us, H200 46.6 us.
#include <stdexcept>

#include "mla_latent_kv.cuh"

namespace {

using namespace mla;

// One thread per (token, head, dim): out[h][t][d] = bf16(sum_j c[t][j] w[h][j][d]).
__global__ void expand_heads(const __nv_bfloat16* __restrict__ c, const __nv_bfloat16* __restrict__ w, int64_t len,
                             __nv_bfloat16* __restrict__ out) {
  const int64_t t = blockIdx.x;
  const int h = blockIdx.y, d = threadIdx.x;
  float acc = 0.0f;
  for (int j = 0; j < kLatent; ++j)
    acc = fmaf(__bfloat162float(c[t * kLatent + j]), __bfloat162float(w[(int64_t(h) * kLatent + j) * ch18::kD + d]), acc);
  out[(int64_t(h) * len + t) * ch18::kD + d] = __float2bfloat16_rn(acc);
}

// Attention over the per-head K and V: decode_split.cuh's split-KV kernel over a contiguous cache, 4 warps.
constexpr auto attend_heads = ch18::split_kv_contiguous<4, 4>;

class BaselineMlaFullHeads : public MlaLatentKvBase {
 public:
  std::string technique() const override { return "full heads: per-head K and V cached (8 KB per token)"; }
  void run(aisp::Context& ctx) override {
    const int64_t len = ctx.param("context");
    attend_heads<<<dim3(splits_, kHeads), 128, 0, ctx.stream()>>>(
        ctx.buffer("q").as<const __nv_bfloat16>(), ch18::ContiguousBf16{k_, v_, 0}, len, ch18::q_scale_log2(), splits_, part_);
    AISP_LAUNCH_CHECK();
    ch18::combine(ctx.stream(), part_, splits_, kHeads, ctx.buffer("o").as<__nv_bfloat16>());
    AISP_LAUNCH_CHECK();
  }

 protected:
  void prepare(aisp::Context& ctx) override {
    const int64_t len = ctx.param("context");
    const size_t bytes = static_cast<size_t>(kHeads * len * ch18::kD) * 2;
    k_ = static_cast<__nv_bfloat16*>(ctx.scratch("k_heads", bytes));
    v_ = static_cast<__nv_bfloat16*>(ctx.scratch("v_heads", bytes));
    splits_ = ch18::choose_splits(attend_heads, 128, ctx.device().sm_count, kHeads, len);
    part_.carve(ctx.scratch("partials", ch18::Partials::bytes(kHeads, splits_)), kHeads, splits_);
    // From the static inputs only, on the harness stream after their fills.
    const dim3 grid(static_cast<unsigned>(len), kHeads);
    const auto* c = ctx.buffer("c").as<const __nv_bfloat16>();
    expand_heads<<<grid, ch18::kD, 0, ctx.stream()>>>(c, ctx.buffer("w_uk").as<const __nv_bfloat16>(), len, k_);
    AISP_LAUNCH_CHECK();
    expand_heads<<<grid, ch18::kD, 0, ctx.stream()>>>(c, ctx.buffer("w_uv").as<const __nv_bfloat16>(), len, v_);
    AISP_LAUNCH_CHECK();
    AISP_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  }

 private:
  __nv_bfloat16* k_ = nullptr;
  __nv_bfloat16* v_ = nullptr;
  int splits_ = 1;
  ch18::Partials part_;
};

}  // namespace

AISP_BENCHMARK(BaselineMlaFullHeads)
