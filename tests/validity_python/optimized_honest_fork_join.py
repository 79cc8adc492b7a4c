"""Honest control: forks the add onto a side stream and joins it back to the harness stream (wait_stream
both ways). Must pass every check."""

import torch

from torch_fixture_common import AddBase


class ForkJoin(AddBase):
    def setup(self):
        super().setup()
        self.side = torch.cuda.Stream()

    def benchmark_fn(self):
        main = torch.cuda.current_stream()
        self.side.wait_stream(main)
        with torch.cuda.stream(self.side):
            torch.add(self.x, self.y, out=self.out)
        main.wait_stream(self.side)


def get_benchmark():
    return ForkJoin()
