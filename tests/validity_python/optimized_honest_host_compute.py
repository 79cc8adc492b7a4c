"""Honest control: the row dots computed on the host (CPU torch) from inputs copied out on the harness stream,
the result copied back on it. The copy out waits for the harness stream, so the harness gives up its
blocking kernel for this variant and the host computation falls inside every timed window, as ch05's
host_staged_reduction does in C++. Slower than the GPU baseline, and must pass every check: host work is a
legitimate (slow) implementation when it is timed."""

from torch_fixture_common import HostRowDot


class TimedHostCompute(HostRowDot):
    def benchmark_fn(self):
        self.x_host.copy_(self.x)  # on the harness stream: waits for it, inside the window
        self.y_host.copy_(self.y)
        self.host_compute()
        self.out.copy_(self.out_host, non_blocking=True)


def get_benchmark():
    return TimedHostCompute()
