"""Cheat: precision downgrade through PyTorch's flags. Turns TF32 on for fp32 matmuls in setup(), which
makes the "fp32" matmul run on tensor cores with a 10-bit mantissa. Must be refused by the worker's
precision-flag guard (aisp/guards.py), and the outputs miss the fp32 tolerance (K2)."""

import torch

from torch_fixture_common import MatmulBase


class Tf32(MatmulBase):
    def setup(self):
        super().setup()
        torch.backends.cuda.matmul.allow_tf32 = True

    def benchmark_fn(self):
        torch.matmul(self.a, self.b, out=self.out)


def get_benchmark():
    return Tf32()
