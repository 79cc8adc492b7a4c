// ch12 cuda_graphs, optimized variant `pdl`: the 200 launches captured into a CUDA graph as programmatic
// dependent launches (Hopper PDL), so the graph's edges are programmatic edges.
//
// Technique: a CUDA graph (see optimized_cuda_graphs.cu: captured once in setup(), one cudaGraphLaunch per
// run()) combined with ch12 programmatic_dependent_launch: every link is launched with
// cudaLaunchAttributeProgrammaticStreamSerialization during the capture, and each link executes
// `griddepcontrol.launch_dependents` then `griddepcontrol.wait` (launch_chain.cuh), so link l+1's grid is
// launched and resident while link l still runs and starts its work the moment l's writes are visible.
// Why it is faster than the plain graph: the plain graph still pays a full kernel-to-kernel launch latency
// per node (~1.8 us measured); with programmatic edges the launch of the next node overlaps the current
// one and only the dependency resolution remains.
// Expected on Hopper: ~200 x ~1 us + one launch, ~1.5x over the plain graph, >= 3x over the host loop.
// Measured (H100 80GB HBM3 VM, 2026-11-25, chapter README): 1.116 ms -> 247.8 us, 4.50x [4.40, 4.61].
#include "graph_splice.cuh"
#include "launch_chain.cuh"

namespace {

class OptimizedCudaGraphsPdl : public LaunchChainBase {
 public:
  void setup(aisp::Context& ctx) override {
    LaunchChainBase::setup(ctx);
    graph_.capture(ctx, [&](cudaStream_t s) {
      launch_chain_pdl(s, ctx.buffer("x").as<const float>(), ctx.buffer("y").as<float>(), ctx.buffer("coef").as<const float>(),
                       ctx.param("n"), ctx.param("links"));
    });
  }

  void run(aisp::Context& ctx) override {
    host_window::open(ctx.stream());
    graph_.launch(ctx.stream());
  }

  void teardown(aisp::Context&) override {
    cudaDeviceSynchronize();
    graph_.destroy();
  }

  std::string technique() const override { return "CUDA graph of programmatic dependent launches (Hopper PDL edges)"; }

 private:
  graph_splice::CapturedGraph graph_;
};

}  // namespace

AISP_BENCHMARK(OptimizedCudaGraphsPdl)
