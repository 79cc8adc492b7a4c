// ch07 async_prefetch, baseline: synchronous global -> shared staging, one tile at a time.
//
// Technique: a persistent block (one per SM, 512 threads) loops over tiles: every thread loads its float4
// of the tile's input span into registers and stores it to shared memory, __syncthreads, computes its 4
// outputs from shared memory, stores them, __syncthreads, next tile.
// Why it is slow: loads for tile t+1 are not issued until tile t is computed and stored, so each SM has
// only one tile (8 KiB) of reads in flight, and none at all during the compute/store phase. Device-wide
// that is 132 x 8 KiB = 1.08 MB outstanding at best, half of what Little's law asks of HBM3
// (3.35 TB/s x ~600 ns loaded latency ~ 2 MB), and the SM idles on every load round trip.
// Expected on Hopper: latency-bound at ~1.3-1.8 TB/s counted read + write, ~75-100 us per run on H100 SXM.
#include "async_prefetch.cuh"

namespace {

__global__ void __launch_bounds__(kPrefetchThreads)
    stencil_sync_kernel(const float* __restrict__ in, float* __restrict__ out, int64_t n) {
  __shared__ float4 span4[kPrefetchSpan4];
  const float4* in4 = reinterpret_cast<const float4*>(in);
  const int64_t n4 = n / 4, tiles = n / kPrefetchTile;
  for (int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const int64_t start4 = prefetch_span_start4(tile);
    for (int j = threadIdx.x; j < kPrefetchSpan4; j += blockDim.x) {
      const int64_t g = start4 + j;
      span4[j] = (g >= 0 && g < n4) ? in4[g] : make_float4(0.f, 0.f, 0.f, 0.f);  // zero halo at the ends
    }
    __syncthreads();  // the tile is complete
    prefetch_compute_store(reinterpret_cast<const float*>(span4), out, tile);
    __syncthreads();  // everyone is done reading before the next tile overwrites it
  }
}

class BaselineAsyncPrefetch : public AsyncPrefetchBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    check_async_prefetch_shape(n);
    stencil_sync_kernel<<<async_prefetch_grid(ctx), kPrefetchThreads, 0, ctx.stream()>>>(
        ctx.buffer("in").as<const float>(), ctx.buffer("out").as<float>(), n);
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "synchronous global->shared tile loads"; }
};

}  // namespace

AISP_BENCHMARK(BaselineAsyncPrefetch)
