"""ch12 cuda_graph_torch, optimized: the chain captured once with torch.cuda.graph, replayed per call.

Technique: setup() runs the chain once eagerly (lazy initialization out of the way), then captures it with
torch.cuda.graph into a torch.cuda.CUDAGraph; benchmark_fn() calls graph.replay() on the harness stream. The
graph reads x and writes y at their harness addresses, which never move, so every replay follows the inputs
the harness refilled (K3/K21 verify it like any other call).
Why it is faster: one cudaGraphLaunch instead of 200 dispatches; the GPU walks the prebuilt chain at its own
pace (~1-2 us per node).
Expected on Hopper: ~0.3-0.4 ms per call, ~3-5x over the baseline (the C++ pair ch12 cuda_graphs: 3.1x). A replay
cannot be captured into the harness's own graph, so K10 is not applicable to this variant.
Measured 2026-11-28 (docs/measurements/closing_calls_20261128.md, all checks passed): H200 515.7 us, 4.432x
[4.213, 5.095] FASTER; H100 80GB HBM3 529.2 us, 5.743x [5.597, 5.998] FASTER."""

import torch

from cuda_graph_torch_common import CudaGraphTorchBase, open_host_window


class OptimizedCudaGraphTorch(CudaGraphTorchBase):
    def setup(self):
        super().setup()
        self.chain()  # eager once before capture
        self.graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self.graph):
            self.chain()

    def benchmark_fn(self):
        open_host_window(self.stream, can_capture=False, pair="cuda_graph_torch optimized")
        self.graph.replay()

    def technique(self):
        return "torch.cuda.graph: the 200 launches captured in setup(), one replay per call"


def get_benchmark():
    return OptimizedCudaGraphTorch()
