// ch19 kv_prefetch_overlap, baseline: each KV tile is loaded, then computed; nothing in flight meanwhile.
//
// Technique: per tile, every thread issues its 8 16-byte loads (4 of K, 4 of V: the whole 16 KiB tile in
// one go, registers as the staging area), stores them to shared memory, barrier, then the 4 warps score
// their 8 tokens each and fold them into the online softmax, barrier. A fair, not naive, tile loop: all
// loads of a tile are issued before the first is waited on.
// Why it is slow: with one 128-thread CTA per SM, 16 KiB per SM is in flight for one HBM round trip
// (~1 us under load) and then nothing while the tile is computed: per SM ~16 KiB / (latency + compute),
// about half of what the 3.35 TB/s HBM needs (Little's law: ~25 KiB per SM in flight at all times).
// Expected on Hopper: ~1.5-2 TB/s effective.
// Measured (H100 SXM, harness cold mode, 2026-11-25, 14 checks passed): 193.2 us,
// 1.39 TB/s.
#include "kv_prefetch_overlap.cuh"

namespace {

using namespace kv_prefetch;

__global__ void __launch_bounds__(decode::kThreads)
    decode_tiles_sync(const __nv_bfloat16* __restrict__ q, const __nv_bfloat16* __restrict__ k,
                      const __nv_bfloat16* __restrict__ v, int64_t len, float q_scale, float* part_o,
                      float2* part_ml) {
  __shared__ __align__(16) __nv_bfloat16 sk[kTile * decode::kD], sv[kTile * decode::kD];
  const int head = blockIdx.y, split = blockIdx.x;
  const int64_t chunk = len / kSplits, first = head * len + split * chunk;
  const uint4* gk = reinterpret_cast<const uint4*>(k + first * decode::kD);
  const uint4* gv = reinterpret_cast<const uint4*>(v + first * decode::kD);
  const float4 qv = decode::load_q(q + head * decode::kD, q_scale);
  decode::WarpState st;
  const int tiles = static_cast<int>(chunk / kTile), per_tile = kTileBytes / 16;
  for (int j = 0; j < tiles; ++j) {
    uint4 rk[kChunksPerThread], rv[kChunksPerThread];
#pragma unroll
    for (int i = 0; i < kChunksPerThread; ++i) {
      const int c = i * decode::kThreads + threadIdx.x;
      rk[i] = gk[int64_t(j) * per_tile + c];
      rv[i] = gv[int64_t(j) * per_tile + c];
    }
    __syncthreads();  // the previous tile has been computed: its slot may be overwritten
#pragma unroll
    for (int i = 0; i < kChunksPerThread; ++i) {
      const int c = i * decode::kThreads + threadIdx.x;
      reinterpret_cast<uint4*>(sk)[c] = rk[i];
      reinterpret_cast<uint4*>(sv)[c] = rv[i];
    }
    __syncthreads();
    compute_tile(sk, sv, qv, st);
  }
  decode::write_split_partial(st, part_o, part_ml, int64_t(head) * kSplits + split);
}

class BaselineKvPrefetchOverlap : public KvPrefetchOverlapBase {
 public:
  void run(aisp::Context& ctx) override {
    const dim3 grid(kSplits, static_cast<unsigned>(ctx.param("heads")));
    decode_tiles_sync<<<grid, decode::kThreads, 0, ctx.stream()>>>(
        ctx.buffer("q").as<const __nv_bfloat16>(), ctx.buffer("k").as<const __nv_bfloat16>(),
        ctx.buffer("v").as<const __nv_bfloat16>(), ctx.param("context"), decode::q_scale_log2(), ws_.part_o,
        ws_.part_ml);
    AISP_LAUNCH_CHECK();
    combine(ctx);
  }
  std::string technique() const override { return "KV tile loaded to shared memory, then computed (no prefetch)"; }
};

}  // namespace

AISP_BENCHMARK(BaselineKvPrefetchOverlap)
