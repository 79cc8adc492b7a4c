"""ch14 swiglu_torch, baseline: torch.mul(F.silu(g), u, out=y).

Technique: two eager kernels: silu writes a 256 MiB temporary, the multiply reads it back with u.
Why it is slower: 5 passes of 256 MiB over HBM (g in, temporary out, temporary in, u in, y out) where 3 do.
Expected on Hopper: ~0.45 ms (1.34 GB at ~3 TB/s).
Measured 2026-11-28 (docs/measurements/closing_calls_20261128.md, all checks passed): H200 315.0 us; H100 80GB
HBM3 444.0 us."""

import torch
import torch.nn.functional as F

from swiglu_torch_common import SwigluTorchBase


class BaselineSwigluTorch(SwigluTorchBase):
    def benchmark_fn(self):
        torch.mul(F.silu(self.g), self.u, out=self.y)

    def technique(self):
        return "F.silu then a multiply: two eager kernels, a temporary in HBM"


def get_benchmark():
    return BaselineSwigluTorch()
