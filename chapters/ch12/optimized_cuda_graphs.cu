// ch12 cuda_graphs, optimized: the same 200 launches captured once into a CUDA graph in setup(), and run()
// launching that graph: one API call per step.
//
// Technique: stream capture on a private stream in setup() (the buffers never move, so the graph stays
// valid), cudaGraphInstantiate + cudaGraphUpload there too; run() is a single cudaGraphLaunch on the harness
// stream (or, while the harness itself captures run(), the same graph spliced in as a child node).
// Why it is faster: the driver validated and laid out all 200 launches at instantiation; a launch submits
// the whole prebuilt work list at once (Hopper's constant-time launch for straight-line graphs), so the
// host pays ~5-10 us per step instead of ~200 x 3 us, and the GPU walks the dependent kernels with less
// inter-kernel gap than separately queued launches.
// Expected on Hopper: ~200 x ~1 us of GPU time + one launch = ~0.2-0.25 ms, ~3x over the host loop.
// Measured (H100 80GB HBM3 VM, 2026-11-25, chapter README): 1.116 ms -> 357.6 us, 3.12x [3.03, 3.23] (2.68x in
// an earlier run of the same code: the host-bound baseline varies by ~10% between processes).
#include "graph_splice.cuh"
#include "launch_chain.cuh"

namespace {

class OptimizedCudaGraphs : public LaunchChainBase {
 public:
  void setup(aisp::Context& ctx) override {
    LaunchChainBase::setup(ctx);
    graph_.capture(ctx, [&](cudaStream_t s) { launch_all(ctx, s); });
  }

  void run(aisp::Context& ctx) override {
    host_window::open(ctx.stream());
    graph_.launch(ctx.stream());
  }

  void teardown(aisp::Context&) override {
    cudaDeviceSynchronize();
    graph_.destroy();
  }

  std::string technique() const override { return "the 200 launches captured once into a CUDA graph, one launch per run"; }

 private:
  graph_splice::CapturedGraph graph_;
};

}  // namespace

AISP_BENCHMARK(OptimizedCudaGraphs)
