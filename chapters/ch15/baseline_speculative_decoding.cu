// ch15 speculative_decoding, baseline: plain greedy decode (speculative_decoding.cuh): one persistent
// cooperative kernel, one target pass per token (W streamed from HBM every time), 128 passes.
// Expected on H100: ~25 us per token, ~3.3 ms. Measured (H100 80GB HBM3, 2026-11-28,
// docs/measurements/ch15_ch16_h100_20261128.md): 3.902 ms (30.5 us per pass) with the earlier pass code; the current code
// (docs/measurements/closing_calls_20261128.md): H100 3.248 ms (25.4 us per pass), H200 2.387 ms (18.6 us per pass).
#include "speculative_decoding.cuh"

namespace {

__global__ void __launch_bounds__(kSpecThreads, 2)
    plain_decode(const int* __restrict__ prompt, const __nv_bfloat16* __restrict__ w, const __nv_bfloat16* __restrict__ e,
                 unsigned long long* partial, int* __restrict__ out) {
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();
  __shared__ __align__(16) __nv_bfloat16 q[kSpecDim];
  __shared__ unsigned long long warp_best[kSpecThreads / 32][1];
  __shared__ int tok[1];
  int last = *prompt;
  for (int step = 0; step < kSpecTokens; ++step) {
    spec::load_query(e, last, q);
    __syncthreads();
    // Alternate partial buffers: a block still reducing step s's partials is never overwritten by step s+1.
    spec::target_pass<1>(w, q, partial + (step % 2) * gridDim.x, warp_best, tok, grid);
    last = tok[0];
    if (blockIdx.x == 0 && threadIdx.x == 0) out[step] = last;
    __syncthreads();  // tok and q are rewritten next step
  }
}

class PlainDecode : public SpeculativeDecodingBase {
 public:
  std::string technique() const override { return "plain greedy decode: one target pass per token"; }
  void run(aisp::Context& ctx) override {
    const int* prompt = ctx.buffer("prompt").as<const int>();
    const __nv_bfloat16* w = ctx.buffer("w").as<const __nv_bfloat16>();
    const __nv_bfloat16* e = ctx.buffer("e").as<const __nv_bfloat16>();
    int* out = ctx.buffer("tokens").as<int>();
    void* args[] = {&prompt, &w, &e, &partial_, &out};
    AISP_CUDA_CHECK(
        cudaLaunchCooperativeKernel(reinterpret_cast<void*>(plain_decode), grid_, kSpecThreads, args, 0, ctx.stream()));
  }

 protected:
  void prepare(aisp::Context& ctx) override {
    grid_ = cooperative_grid(ctx, plain_decode);
    partial_ = static_cast<unsigned long long*>(ctx.scratch("partial", 2 * size_t(grid_) * sizeof(unsigned long long)));
  }

 private:
  int grid_ = 0;
  unsigned long long* partial_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(PlainDecode)
