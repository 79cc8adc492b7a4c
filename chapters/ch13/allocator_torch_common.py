"""allocator_torch: PyTorch's caching allocator, the Python counterpart of ch13 caching_allocator. One step is
a 12-layer elementwise chain a_l = tanh(w_l * a_(l-1) + b_l) over n = 2 Mi floats that keeps every layer's
activation alive until the step ends (as a forward pass keeps them for the backward pass): 11 fresh 8 MiB
tensors per step, the last layer written into the harness output. Shared by baseline_allocator_torch.py
(every block handed back to the driver after each step: each step's tensors come from cudaMalloc) and
optimized_allocator_torch.py (the caching allocator's normal behaviour: served from its free lists).

Both variants compute with the same kernels in the same order, so outputs are bit-identical (fp32 default
tolerance). The step's cost is partly host work (driver allocation calls, cudaFree's device-wide sync), so
both variants open the timed window on the host, as chapters/common/host_window.hpp does for the C++ pair:
a synchronize on the harness stream at the start of benchmark_fn() makes the harness drop its blocking
kernel (once, ~1 s), and from then on every host cycle of a step lies inside its timed window."""

import torch

import aisp

N = 1 << 21
LAYERS = 12


def open_host_window(stream, can_capture, pair):
    """Waits for the harness stream before the step (see the module docstring). When the harness captures
    benchmark_fn() into a CUDA graph (K10) there is no window to open: a step that only enqueues stream work
    skips the wait, one that allocates from the driver refuses to be captured (K10 is then not applicable)."""
    if torch.cuda.is_current_stream_capturing():
        if not can_capture:
            raise RuntimeError("%s: the step allocates from the driver; it cannot be captured into a CUDA graph" % pair)
        return
    stream.synchronize()


class AllocatorTorchBase(aisp.Benchmark):
    def workload(self):
        # Minimum traffic: x read and y written once (the chain could be fused into one pass); the
        # temporaries are the allocator's business, not the workload's.
        return aisp.Workload(params={"n": N, "layers": LAYERS}, precision="f32", bytes=2.0 * 4 * N,
                             flops=3.0 * LAYERS * N, items=float(N), item_unit="elements")

    def setup(self):
        n, layers = self.param("n"), self.param("layers")
        self.x = self.input("x", "f32", (n,))
        # w_l, b_l as 0-d tensors on the device: no host round trip per layer, and a weight in (-1, 1)
        # keeps tanh's argument in range.
        self.coef = self.input("coef", "f32", (2 * layers,), role="static")
        self.y = self.output("y", "f32", (n,))

    def step(self):
        """One forward step: every activation kept until the end, the last written into y."""
        layers = self.param("layers")
        kept = []
        a = self.x
        for layer in range(layers - 1):
            a = torch.addcmul(self.coef[2 * layer + 1], a, self.coef[2 * layer])  # w * a + b: a fresh tensor
            a.tanh_()
            kept.append(a)
        last = layers - 1
        torch.addcmul(self.coef[2 * last + 1], a, self.coef[2 * last], out=self.y)
        self.y.tanh_()
        return kept
