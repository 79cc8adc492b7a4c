// labs/kv_cache, baseline: the paged cache in bf16.
//
// Technique: ch18's WMMA projection tile (kv_cache_fp8.cuh) writes every token's K and V in bf16 through
// the block table into the pool ([page][K|V][head][16][128]: a page of one head is 4 KB contiguous), then
// split-KV decode attention over each sequence's pages (block-table slice in shared memory, 16-byte loads)
// and the merge. The pool: 16384 tokens x 4 KB = 67 MB, the step's largest allocation by far.
// Expected on Hopper: peak device memory of the worker ~72 MB (pool 67 MB + x 4 MB + the rest); time
// ~60-80 us (67 MB written and read at HBM speed plus the projection).
// Measured (2026-11-28, docs/measurements/closing_calls_20261128.md, all checks passed): H100 80GB HBM3 265.9
// us (call B), H200 263.4 us (call C); peak 74 MiB.
#include "kv_cache.cuh"

namespace {

using namespace kv_lab;

// Projection with a bf16 epilogue: 32 tokens x 128 dims of group g, 16 bytes (8 dims) per store.
__global__ void __launch_bounds__(128)
    project_bf16(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ w, const int32_t* __restrict__ table,
                 int64_t len, __nv_bfloat16* __restrict__ pool) {
  __shared__ float acc[kTileT][kAccLd];
  const int64_t t0 = int64_t(blockIdx.x) * kTileT;
  const int g = blockIdx.y;
  kv_fp8::project_tile(x, w, t0, g, acc);
  int64_t page[2];
  tile_pages(table, t0, len, page);
  for (int i = threadIdx.x; i < kTileT * (ch18::kD / 8); i += blockDim.x) {
    const int r = i / (ch18::kD / 8), c = (i % (ch18::kD / 8)) * 8;
    __nv_bfloat162 h[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) h[j] = __floats2bfloat162_rn(acc[r][c + 2 * j], acc[r][c + 2 * j + 1]);
    *reinterpret_cast<uint4*>(pool + page_offset(page[r / kBlock], g, r % kBlock) + c) = *reinterpret_cast<const uint4*>(h);
  }
}

struct PagedBf16Pool {
  const __nv_bfloat16* pool;
  const int32_t* table = nullptr;  // set per CTA by paged_attend
  int64_t first_block = 0;
  int head = 0;
  struct Raw {
    uint4 k, v;
  };
  __device__ __forceinline__ Raw fetch(int64_t t) const {
    const int64_t page = table[t / kBlock - first_block];
    const int slot = static_cast<int>(t % kBlock), lane8 = 8 * (threadIdx.x % 16);
    return {__ldg(reinterpret_cast<const uint4*>(pool + page_offset(page, head, slot) + lane8)),
            __ldg(reinterpret_cast<const uint4*>(pool + page_offset(page, kHeads + head, slot) + lane8))};
  }
  __device__ __forceinline__ void convert(const Raw& r, int64_t, float (&kf)[8], float (&vf)[8]) const {
    ch18::bf16x8_to_float(r.k, kf);
    ch18::bf16x8_to_float(r.v, vf);
  }
};

class BaselineKvCache : public KvCacheLabBase {
 public:
  std::string technique() const override { return "paged bf16 KV cache (4 KB per token)"; }
  void run(aisp::Context& ctx) override { step(ctx, project_bf16, PagedBf16Pool{pool_}, pool_); }

 protected:
  void prepare(aisp::Context& ctx) override {
    const int64_t pages = kBatch * ctx.param("context") / kBlock;
    pool_ = static_cast<__nv_bfloat16*>(ctx.scratch("kv_pool_bf16", static_cast<size_t>(pages * kBlockElems) * 2));
    prepare_attention(ctx, paged_attend<PagedBf16Pool>);
  }

 private:
  __nv_bfloat16* pool_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(BaselineKvCache)
