"""Cheat: torch.compile recompiling inside measured calls. A call counter passed as a Python int is a
Dynamo guard: every call compiles a new graph (until the recompile limit), so compile time would land in
timed samples. Must be refused by the worker's compile guard (aisp/guards.py) on the first call after
setup()'s warm-up."""

import torch

from torch_fixture_common import AddBase


@torch.compile(dynamic=False)
def add_into(x, y, out, step):
    out.copy_(x + y + 0 * step)


class Recompiles(AddBase):
    calls = 0

    def benchmark_fn(self):
        self.calls += 1
        add_into(self.x, self.y, self.out, self.calls)


def get_benchmark():
    return Recompiles()
