// ch07 lookup, baseline: gather straight from the table in global memory.
//
// Technique: `out[i] = table[idx[i]]` with `const float* __restrict__ table`, which already lets nvcc use
// the read-only path (LDG.E.CONSTANT, what `__ldg` asks for). On Hopper that path and L1 are one and the
// same 256 KiB cache per SM, so `__ldg` changes nothing here: the table (64 KiB) stays L1/L2-resident and
// the cost is not DRAM but how L1 serves a divergent gather.
// Why it is slow: L1 serves a warp's load one 128 B line per wavefront (one tag lookup per cycle). 32
// random indices into a 512-line table land on ~31 distinct lines, so each warp gather costs ~31 L1
// cycles where a coalesced load costs 1. 2^24 lookups = 2^19 warp gathers x ~31 = 16 M wavefronts, or
// ~123 k cycles per SM, ~70 us at 1.75 GHz - longer than the ~45 us the 128 MiB index/output stream needs
// at HBM speed. The streaming loads and stores also queue behind the gathers in the same L1 pipeline, and
// each streamed line evicts table lines that the next gather then refetches from L2.
// Expected on Hopper: L1-wavefront-bound, ~80-110 us per run on H100 SXM (~1.2-1.7 TB/s of useful bytes).
#include "lookup.cuh"

namespace {

__global__ void __launch_bounds__(kLookupThreads)
    lookup_global_kernel(const float* __restrict__ table, const int32_t* __restrict__ idx,
                         float* __restrict__ out, int64_t n) {
  lookup_stream(table, idx, out, n);
}

class BaselineLookup : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return lookup_workload(); }
  void setup(aisp::Context& ctx) override { declare_lookup_buffers(ctx); }

  void run(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    const int32_t* idx = ctx.buffer("idx").as<const int32_t>();
    float* out = ctx.buffer("out").as<float>();
    check_lookup_shape(n, idx, out);
    lookup_global_kernel<<<lookup_grid(ctx), kLookupThreads, 0, ctx.stream()>>>(
        ctx.buffer("table").as<const float>(), idx, out, n);
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "gather from global memory (L1 / read-only path)"; }
};

}  // namespace

AISP_BENCHMARK(BaselineLookup)
