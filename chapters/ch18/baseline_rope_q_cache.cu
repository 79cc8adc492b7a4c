// ch18 rope_q_cache, baseline: RoPE and the cache write as two kernels (vLLM's unfused path).
//
// Technique: rotary_kernel, one CTA of 256 threads per token: each thread rotates one (head, 8-pair chunk)
// of q and one of k (16-byte loads of dims c*8.. and 64+c*8..), writing q_rot and a temporary k_rot.
// reshape_and_cache, one CTA per token: copies k_rot[t] and v[t] to cache slot slot_mapping[t].
// Why it is slower: the rotated K makes a round trip through HBM (written by the first kernel, read by the
// second): per token 3 x 8 KB of extra traffic on top of 6 x 8 KB, plus a second launch and its tail.
// Expected on Hopper: 8 x 16.8 MB = 134 MB at ~2.6-2.9 TB/s: ~50 us.
// Measured (H100 SXM, harness cold mode, 2026-11-28, 14 checks passed): 47.5 us.
#include "rope_q_cache.cuh"

namespace {

using namespace rope;

__global__ void __launch_bounds__(256)
    rotary_kernel(const __nv_bfloat16* __restrict__ q, const __nv_bfloat16* __restrict__ k,
                  const int32_t* __restrict__ positions, const float* __restrict__ cos_sin, int heads,
                  __nv_bfloat16* __restrict__ q_rot, __nv_bfloat16* __restrict__ k_rot) {
  const int64_t t = blockIdx.x;
  const float* cs = cos_sin + static_cast<int64_t>(positions[t]) * kD;
  for (int job = threadIdx.x; job < heads * 8; job += blockDim.x) {
    const int h = job / 8, c = job % 8;
    const int64_t base = (t * heads + h) * kD + c * 8;
    uint4 q1 = *reinterpret_cast<const uint4*>(q + base), q2 = *reinterpret_cast<const uint4*>(q + base + kHalf);
    uint4 k1 = *reinterpret_cast<const uint4*>(k + base), k2 = *reinterpret_cast<const uint4*>(k + base + kHalf);
    rope_pair(q1, q2, cs, c);
    rope_pair(k1, k2, cs, c);
    *reinterpret_cast<uint4*>(q_rot + base) = q1;
    *reinterpret_cast<uint4*>(q_rot + base + kHalf) = q2;
    *reinterpret_cast<uint4*>(k_rot + base) = k1;
    *reinterpret_cast<uint4*>(k_rot + base + kHalf) = k2;
  }
}

__global__ void __launch_bounds__(256)
    reshape_and_cache(const __nv_bfloat16* __restrict__ k_rot, const __nv_bfloat16* __restrict__ v,
                      const int32_t* __restrict__ slots, int heads, __nv_bfloat16* __restrict__ k_cache,
                      __nv_bfloat16* __restrict__ v_cache) {
  const int64_t t = blockIdx.x, slot = slots[t], row = static_cast<int64_t>(heads) * kD / 8;  // 16-B chunks per token
  const uint4* ks = reinterpret_cast<const uint4*>(k_rot) + t * row;
  const uint4* vs = reinterpret_cast<const uint4*>(v) + t * row;
  uint4* kd = reinterpret_cast<uint4*>(k_cache) + slot * row;
  uint4* vd = reinterpret_cast<uint4*>(v_cache) + slot * row;
  for (int64_t i = threadIdx.x; i < row; i += blockDim.x) {
    kd[i] = ks[i];
    vd[i] = vs[i];
  }
}

class BaselineRopeQCache : public RopeQCacheBase {
 public:
  std::string technique() const override { return "rotary kernel (q, k -> q_rot, k_rot) then reshape_and_cache"; }
  void run(aisp::Context& ctx) override {
    const unsigned tokens = static_cast<unsigned>(ctx.param("tokens"));
    const int heads = static_cast<int>(ctx.param("heads"));
    rotary_kernel<<<tokens, 256, 0, ctx.stream()>>>(
        ctx.buffer("q").as<const __nv_bfloat16>(), ctx.buffer("k").as<const __nv_bfloat16>(),
        ctx.buffer("positions").as<const int32_t>(), ctx.buffer("cos_sin").as<const float>(), heads,
        ctx.buffer("q_rot").as<__nv_bfloat16>(), k_rot_);
    AISP_LAUNCH_CHECK();
    reshape_and_cache<<<tokens, 256, 0, ctx.stream()>>>(
        k_rot_, ctx.buffer("v").as<const __nv_bfloat16>(), ctx.buffer("slot_mapping").as<const int32_t>(), heads,
        ctx.buffer("k_cache").as<__nv_bfloat16>(), ctx.buffer("v_cache").as<__nv_bfloat16>());
    AISP_LAUNCH_CHECK();
  }

 protected:
  void prepare(aisp::Context& ctx) override {
    k_rot_ = static_cast<__nv_bfloat16*>(
        ctx.scratch("k_rot", static_cast<size_t>(ctx.param("tokens") * ctx.param("heads") * kD) * 2));
  }

 private:
  __nv_bfloat16* k_rot_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(BaselineRopeQCache)
