// labs/kv_cache: the 8-bit page formats, shared by the fp8 and int8 variants. The projection's quantizing
// epilogue is ch18's (kv_cache_fp8.cuh's quantize_tile: per (page, K|V, head): amax over its 16 tokens x 128
// dims, scale = amax / max code, codes = value / scale, saturating), writing into pages; one template here
// for the attention loader that dequantizes (8 codes = 8 bytes per lane per row, times the page's scale, in
// registers). A format is a struct with kMax, pack16 and unpack8: e4m3 is ch18's, int8 the lab's own.
#pragma once
#include "kv_cache.cuh"

namespace kv_lab {

using kv_fp8::E4m3;  // ch18 kv_cache_fp8's format (kv_cache_fp8.cuh)

struct Int8 {
  static constexpr float kMax = 127.0f;  // symmetric: -127..127 (-128 unused, so the scale is exact both ways)
  __device__ static void pack16(const float* v, float inv, uint4& out) {
    int8_t* p = reinterpret_cast<int8_t*>(&out);
#pragma unroll
    for (int j = 0; j < 16; ++j) p[j] = static_cast<int8_t>(max(-127, min(127, __float2int_rn(v[j] * inv))));
  }
  __device__ static void unpack8(const uint2& u, float s, float (&f)[8]) {
    const int8_t* p = reinterpret_cast<const int8_t*>(&u);
#pragma unroll
    for (int i = 0; i < 8; ++i) f[i] = static_cast<float>(p[i]) * s;
  }
};

// Where a projection tile's block b lives: page page[b] of the pool, column group g; its scale.
struct PagedDest {
  uint8_t* pool;
  float* scales;
  const int64_t (&page)[2];
  int g;
  __device__ __forceinline__ uint8_t* row(int b, int r) const { return pool + page_offset(page[b], g, r); }
  __device__ __forceinline__ float* scale(int b) const { return scales + page[b] * kGroups + g; }
};

// Projection + quantizing epilogue: grid (32-token tiles, 16 column groups), 128 threads: ch18's tensor-core
// tile and its epilogue (kv_cache_fp8.cuh's project_tile and quantize_tile), written into the tile's two pages.
template <class Format>
__global__ void __launch_bounds__(128)
    project_8bit(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ w, const int32_t* __restrict__ table,
                 int64_t len, uint8_t* __restrict__ pool, float* __restrict__ scales) {
  __shared__ float acc[kTileT][kAccLd];
  __shared__ float red[2][4];
  const int64_t t0 = int64_t(blockIdx.x) * kTileT;
  const int g = blockIdx.y;
  kv_fp8::project_tile(x, w, t0, g, acc);
  int64_t page[2];
  tile_pages(table, t0, len, page);
  kv_fp8::quantize_tile<Format>(acc, red, PagedDest{pool, scales, page, g});
}

// Token t of the CTA's sequence: page table[t / 16 - first_block] (shared-memory slice), K codes at group
// head, V codes at group 8 + head, and their two scales.
template <class Format>
struct Paged8 {
  const uint8_t* pool;
  const float* scales;
  const int32_t* table = nullptr;  // set per CTA by paged_attend
  int64_t first_block = 0;
  int head = 0;
  struct Raw {
    uint2 k, v;
    float sk, sv;
  };
  __device__ __forceinline__ Raw fetch(int64_t t) const {
    const int64_t page = table[t / kBlock - first_block];
    const int slot = static_cast<int>(t % kBlock), lane8 = 8 * (threadIdx.x % 16);
    const uint8_t* k = pool + page_offset(page, head, slot) + lane8;
    const uint8_t* v = pool + page_offset(page, kHeads + head, slot) + lane8;
    return {__ldg(reinterpret_cast<const uint2*>(k)), __ldg(reinterpret_cast<const uint2*>(v)),
            __ldg(scales + page * kGroups + head), __ldg(scales + page * kGroups + kHeads + head)};
  }
  __device__ __forceinline__ void convert(const Raw& r, int64_t, float (&kf)[8], float (&vf)[8]) const {
    Format::unpack8(r.k, r.sk, kf);
    Format::unpack8(r.v, r.sv, vf);
  }
};

// A variant: the pool (1 byte per element) and its scales (one fp32 per page and group) are its own memory.
template <class Format>
class Kv8BitBase : public KvCacheLabBase {
 public:
  void run(aisp::Context& ctx) override { step(ctx, project_8bit<Format>, Paged8<Format>{pool_, scales_}, pool_, scales_); }

 protected:
  void prepare(aisp::Context& ctx) override {
    const int64_t pages = kBatch * ctx.param("context") / kBlock;
    pool_ = static_cast<uint8_t*>(ctx.scratch("kv_pool_8bit", static_cast<size_t>(pages * kBlockElems)));
    scales_ = static_cast<float*>(ctx.scratch("kv_scales", static_cast<size_t>(pages) * kGroups * sizeof(float)));
    prepare_attention(ctx, paged_attend<Paged8<Format>>);
  }
  uint8_t* pool_ = nullptr;
  float* scales_ = nullptr;
};

}  // namespace kv_lab
