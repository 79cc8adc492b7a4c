"""ch07 saxpy_torch, baseline: eager PyTorch as it is usually written, `a * x + y`.

Technique: none; two eager kernels. `A * x` materializes a temporary (served by the caching allocator
after the first call), then the add reads it back with y and writes out.
Why it is slow: 5 streams of n floats cross HBM (x, tmp write, tmp read, y, out) where 3 would do, and two
launches instead of one.
Expected on Hopper: ~5/3 of the fused time, ~0.11-0.12 ms on H100 SXM for 2 x 64 MiB in, 64 MiB out.
Measured (H100 80GB HBM3, 2026-11-25, `aisp bench run --targets ch07:saxpy_torch`): 113.3 and 113.4 us in
two runs (docs/measurements/python_worker_h100.md)."""

import torch

from saxpy_torch_common import A, SaxpyTorchBase


class BaselineSaxpyTorch(SaxpyTorchBase):
    def benchmark_fn(self):
        torch.add(self.x * A, self.y, out=self.out)

    def technique(self):
        return "eager a * x + y (two kernels, one temporary)"


def get_benchmark():
    return BaselineSaxpyTorch()
