"""Cheat: the work runs on a torch side stream that is never joined back to the harness stream, so the
harness's timing events close before it finishes. Must be caught by the CUPTI audit (K7/K8)."""

import torch

from torch_fixture_common import AddBase


class SideStream(AddBase):
    def setup(self):
        super().setup()
        self.side = torch.cuda.Stream()

    def benchmark_fn(self):
        with torch.cuda.stream(self.side):
            torch.add(self.x, self.y, out=self.out)


def get_benchmark():
    return SideStream()
