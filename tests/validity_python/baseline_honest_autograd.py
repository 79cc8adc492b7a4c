"""Honest baseline of a Python validity fixture: the gradient of sum(tanh(x) * y) with respect to x,
y * (1 - tanh(x)^2), written out with eager ops."""

import torch

from torch_fixture_common import AddBase


class GradByHand(AddBase):
    def benchmark_fn(self):
        t = torch.tanh(self.x)
        torch.mul(self.y, 1.0 - t * t, out=self.out)


def get_benchmark():
    return GradByHand()
