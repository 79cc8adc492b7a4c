// ch18 flash_decoding, baseline: a single pass over each head's cache (FlashAttention-2's decode schedule).
//
// Technique: one CTA of 16 warps (512 threads) per head; its 32 half-warps walk the head's 32768 tokens
// (decode_split.cuh: 16-byte loads, 4 tokens per half-warp in flight), merge their online-softmax states
// in shared memory and write o. One kernel, no workspace. Not a strawman: the CTA is as large as the loop
// allows, to put as many bytes in flight per SM as one CTA can.
// Why it is slow: 32 heads = 32 CTAs, so 100 of the 132 SMs of an H100 stay idle; a single SM can pull
// only a fraction of the HBM bandwidth (its load queue and L1 bound the bytes it keeps in flight), and the
// step is nothing but a read of 537 MB.
// Expected on Hopper: a few hundred GB/s per busy SM: ~1-1.5 TB/s, ~0.4-0.5 ms.
// Measured (H100 SXM, harness cold mode, 2026-11-28, 14 checks passed): 282.5 us, 1.90 TB/s - the 16-warp CTAs
// keep more in flight per SM than expected, but 100 SMs still idle.
#include "flash_decoding.cuh"

namespace {

constexpr int kWarps = 16, kUnroll = 4;

__global__ void __launch_bounds__(kWarps * 32, 1)
    decode_single_pass(const __nv_bfloat16* __restrict__ q, ch18::ContiguousBf16 load, int64_t len, float q_scale,
                       __nv_bfloat16* __restrict__ o) {
  const int64_t row = blockIdx.x;
  load.row_base = row * len;
  float qv[8];
  ch18::load_q(q + row * ch18::kD, q_scale, qv);
  const ch18::State st = ch18::attend_range<kWarps, kUnroll>(load, 0, len, qv);
  float m, l;
  const float acc = ch18::merge_cta<kWarps>(st, m, l);
  if (threadIdx.x < ch18::kD) o[row * ch18::kD + threadIdx.x] = __float2bfloat16_rn(acc / l);
}

class BaselineFlashDecoding : public flash_decoding::FlashDecodingBase {
 public:
  std::string technique() const override { return "single pass: one 16-warp CTA per head"; }
  void run(aisp::Context& ctx) override {
    const int64_t len = ctx.param("context");
    decode_single_pass<<<static_cast<unsigned>(ctx.param("heads")), kWarps * 32, 0, ctx.stream()>>>(
        ctx.buffer("q").as<const __nv_bfloat16>(),
        ch18::ContiguousBf16{ctx.buffer("k").as<const __nv_bfloat16>(), ctx.buffer("v").as<const __nv_bfloat16>(), 0}, len,
        ch18::q_scale_log2(), ctx.buffer("o").as<__nv_bfloat16>());
    AISP_LAUNCH_CHECK();
  }
};

}  // namespace

AISP_BENCHMARK(BaselineFlashDecoding)
