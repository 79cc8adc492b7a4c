// ch12 graph_conditional, baseline: the host drives the loop: launch one iteration, copy the continue flag
// to pinned host memory, synchronize, test it, repeat.
//
// Technique: a data-dependent loop with the decision on the host, the usual way before device-side
// control flow (a while loop around a kernel and a .item()).
// Why it is slow: every iteration is a full round trip: the launch (~3 us), the kernel (~3 us), the 4-byte
// D2H copy (~2 us), the host waking from the synchronize (~5-10 us in a VM) and deciding, while the GPU
// sits idle in between. 43-66 iterations of ~15-20 us.
// Expected on Hopper: ~0.8-1.2 ms on an H100 VM.
// Measured (H100 80GB HBM3 VM, 2026-11-25, chapter README): 852.3 us (median).
#include "graph_conditional.cuh"

namespace {

__global__ void cond_step_flag(float* __restrict__ y, const float* __restrict__ rate, int* __restrict__ iterations,
                               int* __restrict__ go_on, int n) {
  const bool more = cond_iteration(y, rate, iterations, n);
  if (threadIdx.x == 0) *go_on = more ? 1 : 0;
}

class BaselineGraphConditional : public GraphConditionalBase {
 public:
  void setup(aisp::Context& ctx) override {
    GraphConditionalBase::setup(ctx);
    flag_dev_ = static_cast<int*>(ctx.scratch("go_on", sizeof(int)));
    AISP_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&flag_host_), sizeof(int), cudaHostAllocDefault));
  }

  void run(aisp::Context& ctx) override {
    cudaStream_t s = ctx.stream();
    host_window::open_eager(s, "graph_conditional (host-driven loop)");
    init(ctx, s);
    float* y = ctx.buffer("y").as<float>();
    const float* rate = ctx.buffer("rate").as<const float>();
    int* iterations = ctx.buffer("iterations").as<int>();
    const int n = static_cast<int>(ctx.param("n"));
    do {
      cond_step_flag<<<1, kCondThreads, 0, s>>>(y, rate, iterations, flag_dev_, n);
      AISP_LAUNCH_CHECK();
      AISP_CUDA_CHECK(cudaMemcpyAsync(flag_host_, flag_dev_, sizeof(int), cudaMemcpyDeviceToHost, s));
      AISP_CUDA_CHECK(cudaStreamSynchronize(s));
    } while (*flag_host_ != 0);
  }

  void teardown(aisp::Context&) override {
    if (flag_host_) cudaFreeHost(flag_host_);
    flag_host_ = nullptr;
  }

  std::string technique() const override { return "host loop: launch, copy the flag back, synchronize, test"; }

 private:
  int* flag_dev_ = nullptr;
  int* flag_host_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(BaselineGraphConditional)
