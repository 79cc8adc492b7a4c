// ch07 lookup, optimized (read-only path): the same gathers through __ldg (ld.global.nc).
//
// Technique: identical to the baseline except that every table read is __ldg(&table[i]), i.e.
// ld.global.nc: the non-coherent, read-only load the pre-Volta "texture cache" path was made for. On
// Hopper the read-only path and L1 share one 256 KiB array per SM, but a non-coherent load may be
// served without the generic path's coherence handling, and the compiler may reorder it freely.
// Why it could be faster: scattered read-only loads are the case the texture path was designed for,
// and .nc lets the compiler batch the 32 independent gathers of a thread without alias barriers
// against the output stores.
// Expected on Hopper: somewhere between the generic-path baseline and the shared-memory variant;
// this variant exists to measure, not to assume, what `__ldg` still buys on sm_90.
#include "lookup.cuh"

namespace {

struct ReadOnlyGather {
  const float* table;
  __device__ float operator()(uint32_t i) const { return __ldg(table + i); }
};

__global__ void __launch_bounds__(kLookupThreads)
    lookup_ldg_kernel(const float* table, const int32_t* ids, float* out, int64_t n) {
  lookup_stream(ReadOnlyGather{table}, ids, out, n);
}

class OptimizedLookupLdg : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return lookup_workload(); }
  void setup(aisp::Context& ctx) override { declare_lookup_buffers(ctx); }

  void run(aisp::Context& ctx) override {
    const int32_t* ids = ctx.buffer("ids").as<const int32_t>();
    float* out = ctx.buffer("out").as<float>();
    check_lookup_shape(ctx, ids, out);
    lookup_ldg_kernel<<<lookup_grid(ctx), kLookupThreads, 0, ctx.stream()>>>(ctx.buffer("table").as<const float>(),
                                                                             ids, out, ctx.param("n"));
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "8 hashed gathers per id through __ldg (read-only path)"; }
};

}  // namespace

AISP_BENCHMARK(OptimizedLookupLdg)
