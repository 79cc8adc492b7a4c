"""ch13 allocator_torch, baseline: every step's 11 activations come from cudaMalloc.

Technique: after each step the step's tensors are dropped and torch.cuda.empty_cache() returns every cached
block to the driver, so the next step finds an empty cache: 11 cudaMalloc calls while it runs and 11
cudaFree calls (each a device-wide synchronization) at its end. This is what a framework without a caching
allocator pays, and what PyTorch pays after an empty_cache() in a training loop.
Why it is slow: cudaMalloc of 8 MiB costs tens of microseconds of driver time and cudaFree waits for the
whole device; the GPU work itself (12 elementwise passes over 8 MiB, ~0.1 ms) is the same as optimized's.
Expected on Hopper: several times slower than the optimized variant (the C++ pair, ch13 caching_allocator,
expects 5-15x).
Measured 2026-11-28 (docs/measurements/closing_calls_20261128.md, all checks passed): H200 1.596 ms; H100 80GB
HBM3 1.883 ms."""

import torch

from allocator_torch_common import AllocatorTorchBase, open_host_window


class BaselineAllocatorTorch(AllocatorTorchBase):
    def benchmark_fn(self):
        open_host_window(self.stream, can_capture=False, pair="allocator_torch baseline")
        kept = self.step()
        del kept
        torch.cuda.empty_cache()

    def technique(self):
        return "torch.cuda.empty_cache() after every step: 11 cudaMalloc + 11 cudaFree per step"


def get_benchmark():
    return BaselineAllocatorTorch()
