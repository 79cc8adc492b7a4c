// ch07 lookup, baseline: gather the 8 hashed entries straight from global memory (generic path).
//
// Technique: table[hash_h(id)] with a plain `const float*`; the output pointer may alias it as far as the
// compiler knows, so the loads are ordinary ld.global (LDG.E) through L1, not the read-only path.
// Why it is slow: L1 serves a warp's load one 128 B line per wavefront, and 32 random indices into a
// 512-line table land on ~31 distinct lines, so a warp gather costs ~31 L1 wavefronts where a coalesced
// load costs 1. 2^27 gathers = 2^22 warp gathers x ~31 = 130 M wavefronts, ~985 k per SM - hundreds of
// microseconds at one or a few lines per cycle - against ~45 us for the 128 MiB id/output stream. The
// streamed id lines also pass through the same L1 and evict table lines, which then come from L2.
// Expected on Hopper: L1-bound, several times the HBM time: ~150-400 us per run on H100 SXM.
// Measured: 183.6 us (0.73 TB/s of useful bytes, 4x the HBM time). The read-only path does not help:
// a variant reading the table with __ldg (ld.global.nc) measured 183.5 us, 1.001x [1.000, 1.001], on the
// same H100 - on sm_90 the read-only path and L1 are one cache, and a scattered gather costs the same per
// distinct line either way, so `__ldg` is not the lookup-table fix it was on Kepler/Maxwell; the variant
// was dropped, and shared memory is the fix.
#include "lookup.cuh"

namespace {

struct GlobalGather {
  const float* table;
  __device__ float operator()(uint32_t i) const { return table[i]; }
};

__global__ void __launch_bounds__(kLookupThreads)
    lookup_global_kernel(const float* table, const int32_t* ids, float* out, int64_t n) {  // no __restrict__
  lookup_stream(GlobalGather{table}, ids, out, n);
}

class BaselineLookup : public LookupBase {
 public:
  void run(aisp::Context& ctx) override {
    const int32_t* ids = ctx.buffer("ids").as<const int32_t>();
    float* out = ctx.buffer("out").as<float>();
    check_lookup_shape(ctx, ids, out);
    lookup_global_kernel<<<lookup_grid(ctx), kLookupThreads, 0, ctx.stream()>>>(
        ctx.buffer("table").as<const float>(), ids, out, ctx.param("n"));
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "8 hashed gathers per id from global memory (generic LDG)"; }
};

}  // namespace

AISP_BENCHMARK(BaselineLookup)
