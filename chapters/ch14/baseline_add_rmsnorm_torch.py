"""ch14 add_rmsnorm_torch, baseline: the torch ops as a model writes them.

Technique: h = x + r; ms = h.pow(2).mean(-1, keepdim=True); y = h * torch.rsqrt(ms + eps) * w (the last
multiply into the output): six eager kernels, h and h^2 and h * rsqrt materialized in HBM.
Why it is slower: the data moves ~5 times (x, r in; h out; h in twice; h^2 out and in; h * rsqrt out and
in; y out: ~10 passes of 128 MiB) where one pass of 3 x 128 MiB would do, plus six launches.
Expected on Hopper: ~0.45 ms (1.3 GB at ~3 TB/s).
Measured 2026-11-28 (docs/measurements/closing_calls_20261128.md, all checks passed): H200 396.4 us; H100 80GB
HBM3 503.1 us."""

import torch

from add_rmsnorm_torch_common import EPS, AddRmsnormTorchBase


class BaselineAddRmsnormTorch(AddRmsnormTorchBase):
    def benchmark_fn(self):
        h = self.x + self.r
        ms = h.pow(2).mean(-1, keepdim=True)
        torch.mul(h * torch.rsqrt(ms + EPS), self.w, out=self.y)

    def technique(self):
        return "eager torch ops: add, pow, mean, add, rsqrt, mul, mul"


def get_benchmark():
    return BaselineAddRmsnormTorch()
