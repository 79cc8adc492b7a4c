"""Cheat: host-side computation hidden from the timer (CPU spillover, the seed's "Location" rows). The inputs are
copied to the host on a torch side stream that is not ordered after the harness stream, PyTorch's CPU kernels
compute the row dots, and only the 16 KiB result is copied into the output on the harness stream. While the harness holds
its stream (the blocking kernel that keeps enqueue time out of a sample), the side stream runs at once: the
copies out and the whole host computation (tens of ms) happen before the timed window opens, which then
holds one small copy. Outputs are exact (integer-valued inputs), so K2/K3/K21 pass; it would be a large
"speedup". Must be caught by the CUPTI audit: the side-stream copies are run()'s work that started before
the window opened (K8) and the GPU work of run() spans far more than the events timed (K7).
The honest form, the same host work ordered on the harness stream, is honest_host_compute."""

import torch

from torch_fixture_common import HostRowDot


class HiddenHostCompute(HostRowDot):
    def setup(self):
        super().setup()
        self.side = torch.cuda.Stream()

    def benchmark_fn(self):
        # Not side.wait_stream(harness): that would wait for the held harness stream and expose the host work.
        with torch.cuda.stream(self.side):
            self.x_host.copy_(self.x)  # a blocking copy: waits for the side stream only
            self.y_host.copy_(self.y)
        self.host_compute()
        self.out.copy_(self.out_host, non_blocking=True)  # on the harness stream: the only timed work


def get_benchmark():
    return HiddenHostCompute()
