"""ch13 allocator_torch, optimized: the same step served by PyTorch's caching allocator.

Technique: nothing but leaving the allocator alone. The warm-up call in setup() allocates the step's 11
blocks once; when the step's tensors die their blocks go back to the allocator's free lists for this
stream, and the next step gets them back without a driver call or a device-wide sync.
Why it is faster: no cudaMalloc/cudaFree per step; what remains is the host's launch work and the GPU's 12
elementwise passes.
Expected on Hopper: ~5-15x over the baseline, like the C++ pair (ch13 caching_allocator). The cached 88 MiB
stay allocated between steps: the memory a caching allocator holds is its price.
Measured 2026-11-28 (docs/measurements/closing_calls_20261128.md, all checks passed): H200 566.7 us, 2.815x
[2.747, 2.907] FASTER; H100 80GB HBM3 495.4 us, 3.802x [3.504, 4.124] FASTER."""

from allocator_torch_common import AllocatorTorchBase, open_host_window


class OptimizedAllocatorTorch(AllocatorTorchBase):
    def benchmark_fn(self):
        open_host_window(self.stream, can_capture=True, pair="allocator_torch optimized")
        kept = self.step()
        del kept

    def technique(self):
        return "PyTorch's caching allocator: the step's blocks reused from its free lists"


def get_benchmark():
    return OptimizedAllocatorTorch()
