// ch18 kv_cache_fp8, baseline: the prompt's KV cache in bf16.
//
// Technique: project_bf16 (grid 512 token tiles x 16 column groups, 4 warps, WMMA bf16 -> fp32 in shared
// memory, kv_cache_fp8.cuh) rounds each K/V element to bf16 and stores the tile (16-byte stores) into the
// cache [token][K|V][head][128]; attend_splits reads 256 B per token and head with the strided bf16 loader
// (16-byte loads, split-KV over ~2 waves of CTAs); combine_splits merges.
// Why it is the baseline: bf16 is what a serving engine stores by default: 4 KB per token for 8 heads,
// 67 MB for this prompt, the biggest allocation of the step.
// Expected on Hopper: peak ~72 MB (cache 67 MB + x 4 MB + w); time ~60 us (67 MB written, 67 MB read).
// Measured (H100 SXM, harness cold mode, 2026-11-28, 14 checks passed): peak 76 MiB, 300.1 us (the projection
// kernel dominates the time).
#include "kv_cache_fp8.cuh"

namespace {

using namespace kv_fp8;

__global__ void __launch_bounds__(128)
    project_bf16(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ w, __nv_bfloat16* __restrict__ cache) {
  __shared__ float acc[kTileT][kAccLd];
  const int64_t t0 = int64_t(blockIdx.x) * kTileT;
  const int g = blockIdx.y;
  project_tile(x, w, t0, g, acc);
  const int r = threadIdx.x / 4, d0 = (threadIdx.x % 4) * 32;  // 32 tokens x 4 quarters of 32 dims
  uint4* dst = reinterpret_cast<uint4*>(cache + (t0 + r) * kRow + g * ch18::kD + d0);
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    uint4 out;
    __nv_bfloat162* p = reinterpret_cast<__nv_bfloat162*>(&out);
#pragma unroll
    for (int j = 0; j < 4; ++j) p[j] = __floats2bfloat162_rn(acc[r][d0 + 8 * i + 2 * j], acc[r][d0 + 8 * i + 2 * j + 1]);
    dst[i] = out;
  }
}

// Token t of head h: K at cache[t][0][h], V at cache[t][1][h].
struct StridedBf16 {
  const __nv_bfloat16* cache;
  int head;
  struct Raw {
    uint4 k, v;
  };
  __device__ __forceinline__ Raw fetch(int64_t t) const {
    const int64_t off = t * kRow + head * ch18::kD + 8 * (threadIdx.x % 16);
    return {__ldg(reinterpret_cast<const uint4*>(cache + off)),
            __ldg(reinterpret_cast<const uint4*>(cache + off + kHeads * ch18::kD))};
  }
  __device__ __forceinline__ void convert(const Raw& r, int64_t, float (&kf)[8], float (&vf)[8]) const {
    ch18::bf16x8_to_float(r.k, kf);
    ch18::bf16x8_to_float(r.v, vf);
  }
};

class BaselineKvCacheBf16 : public KvCacheFp8Base {
 public:
  std::string technique() const override { return "bf16 KV cache (4 KB per token)"; }
  void run(aisp::Context& ctx) override {
    const int64_t len = ctx.param("context");
    project_bf16<<<dim3(static_cast<unsigned>(len / kTileT), 2 * kHeads), 128, 0, ctx.stream()>>>(
        ctx.buffer("x").as<const __nv_bfloat16>(), ctx.buffer("w_kv").as<const __nv_bfloat16>(), cache_);
    AISP_LAUNCH_CHECK();
    attend(ctx, StridedBf16{cache_, 0});
  }

 protected:
  void prepare(aisp::Context& ctx) override {
    const int64_t len = ctx.param("context");
    cache_ = static_cast<__nv_bfloat16*>(ctx.scratch("kv_cache_bf16", static_cast<size_t>(len) * kRow * 2));
    prepare_attention<StridedBf16>(ctx);
  }

 private:
  __nv_bfloat16* cache_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(BaselineKvCacheBf16)
