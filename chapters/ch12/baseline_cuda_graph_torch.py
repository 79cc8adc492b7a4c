"""ch12 cuda_graph_torch, baseline: 200 eager launches from a Python loop.

Technique: every step's two ops dispatched by PyTorch from Python: argument parsing, dispatcher, a
cudaLaunchKernel each (~5-10 us of host time per op on the H100 machines).
Why it is slow: the GPU finishes each ~2 us kernel long before the host issues the next; the chain runs at
the host's dispatch rate.
Expected on Hopper: ~1-2 ms per call (200 x 5-10 us).
Measured 2026-11-28 (docs/measurements/closing_calls_20261128.md, all checks passed): H200 2.286 ms; H100 80GB
HBM3 3.040 ms."""

from cuda_graph_torch_common import CudaGraphTorchBase, open_host_window


class BaselineCudaGraphTorch(CudaGraphTorchBase):
    def benchmark_fn(self):
        open_host_window(self.stream, can_capture=True, pair="cuda_graph_torch baseline")
        self.chain()

    def technique(self):
        return "200 eager PyTorch launches from a Python loop"


def get_benchmark():
    return BaselineCudaGraphTorch()
