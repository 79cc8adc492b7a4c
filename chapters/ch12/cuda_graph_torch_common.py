"""cuda_graph_torch: a launch-bound chain in PyTorch, the Python counterpart of ch12 cuda_graphs. 100 steps of
a = sin(w_i * a + b_i) over 64 Ki floats (256 KiB: each kernel runs for ~2 us), two kernels per step, 200 in
all, the last writing the harness output. Shared by baseline_cuda_graph_torch.py (200 eager launches from the
Python loop) and optimized_cuda_graph_torch.py (the same launches captured once with torch.cuda.graph in
setup(), one replay per call).

Both variants launch the same kernels on the same data in the same order: identical bits, fp32 default
tolerance. The subject is host-side launch cost, which the harness's blocking kernel would hide, so both open
the timed window on the host (the chapter's rule, "How host-side costs are timed" in the README): a
synchronize on the harness stream at the start of benchmark_fn()."""

import torch

import aisp

N = 1 << 16
STEPS = 100


def open_host_window(stream, can_capture, pair):
    """The chapter's host-window rule (chapters/common/host_window.hpp) from Python: wait for the harness
    stream so the harness drops its blocking kernel; skipped while the harness captures benchmark_fn() (K10),
    or refused there when the call cannot be captured."""
    if torch.cuda.is_current_stream_capturing():
        if not can_capture:
            raise RuntimeError("%s: replaying a torch CUDA graph cannot be captured into the harness's graph" % pair)
        return
    stream.synchronize()


class CudaGraphTorchBase(aisp.Benchmark):
    def workload(self):
        # Minimum traffic: x read, y written once; the chain itself could live in registers (ch12 kernel_fusion).
        return aisp.Workload(params={"n": N, "steps": STEPS}, precision="f32", bytes=2.0 * 4 * N,
                             flops=3.0 * STEPS * N, items=float(STEPS), item_unit="steps")

    def setup(self):
        n, steps = self.param("n"), self.param("steps")
        self.x = self.input("x", "f32", (n,))
        self.coef = self.input("coef", "f32", (2 * steps,), role="static")
        self.y = self.output("y", "f32", (n,))
        self.work = torch.empty((n,), dtype=torch.float32, device=self.device)
        self.steps = steps

    def chain(self):
        """The 200 launches: in place in a workspace allocated in setup(), the last step into y."""
        a = self.x
        for i in range(self.steps):
            out = self.y if i == self.steps - 1 else self.work
            torch.addcmul(self.coef[2 * i + 1], a, self.coef[2 * i], out=out)
            out.sin_()
            a = out
