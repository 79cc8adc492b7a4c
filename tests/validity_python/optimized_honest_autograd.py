"""Honest control: the same gradient computed by autograd (torch.autograd.grad). PyTorch runs the CUDA part of
a backward pass on its per-device worker thread by default, which the CUPTI audit would flag (K9: CUDA calls
from a thread other than the harness's); the worker runs every call under
torch.autograd.set_multithreading_enabled(False) (aisp/driver.py), so the backward runs on the harness thread
and stream. Must pass every check. The autograd graph computes y * (1 - tanh(x)^2) with the baseline's
operations, so the outputs are bit-identical."""

import torch

from torch_fixture_common import AddBase


class GradByAutograd(AddBase):
    def benchmark_fn(self):
        x = self.x.detach().requires_grad_(True)  # a leaf over the harness buffer (no copy)
        loss = (torch.tanh(x) * self.y).sum()
        (grad,) = torch.autograd.grad(loss, x)
        self.out.copy_(grad)


def get_benchmark():
    return GradByAutograd()
