"""Cheat: a lazy/cached result. Computes the sum once (in setup()'s warm-up call) and from then on copies
the cached tensor into the output: less work per call, outputs that no longer follow fresh inputs.
Must be caught by the output checks (K2 on the first verified run, K3/K21 on fresh inputs)."""

import torch

from torch_fixture_common import AddBase


class CachedResult(AddBase):
    cached = None

    def benchmark_fn(self):
        if self.cached is None:
            self.cached = torch.add(self.x, self.y)
        self.out.copy_(self.cached)


def get_benchmark():
    return CachedResult()
