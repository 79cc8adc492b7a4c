"""activation_checkpoint_torch: the memory of a training step, in PyTorch (memory goal). Forward and backward
through a 16-layer tanh MLP, a_l = tanh(a_(l-1) W_l^T), over 4096 tokens of width 1024 in FP32 (TF32 off: the
process default), the Python counterpart of ch13 activation_recompute. The backward pass needs every layer's
output a_l: d_l = g_l (1 - a_l^2), g_(l-1) = d_l W_l. Outputs: y = a_16 and dx = g_0 for the upstream gradient
dy (an input). Each activation is 16 MiB. Shared by baseline_activation_checkpoint_torch.py (every activation
kept from the forward pass) and optimized_activation_checkpoint_torch.py (every 4th kept, the rest recomputed
segment by segment: what torch.utils.checkpoint does).

The backward pass is written out with torch ops, as in the C++ pair, so the recomputation schedule is the code
itself rather than torch.utils.checkpoint's bookkeeping. (Autograd would also do: the worker runs its backward
pass on the harness thread, see docs/python-benchmarks.md.) Recomputed activations are the same cuBLAS calls on the same data, so both variants
produce identical bits (fp32 default tolerance). The verdict is on peak device memory (the worker's
cudaMemGetInfo high-water mark, which includes what PyTorch's caching allocator reserves); the time the 12
recomputed GEMMs cost is reported beside it as the speedup (< 1)."""

import math

import torch

import aisp
from aisp.declarations import uniform

TOKENS, HIDDEN, LAYERS = 4096, 1024, 16


class ActivationCheckpointTorchBase(aisp.Benchmark):
    def workload(self):
        b, h, l = float(TOKENS), float(HIDDEN), float(LAYERS)
        # Minimum: x, dy, W read; y, dx written; one forward and one input-gradient GEMM per layer.
        return aisp.Workload(params={"tokens": TOKENS, "hidden": HIDDEN, "layers": LAYERS}, precision="f32",
                             bytes=(4.0 * b * h + l * h * h) * 4, flops=4.0 * b * h * h * l, items=b,
                             item_unit="tokens")

    def goal(self):
        return "memory"

    def setup(self):
        b, h, l = self.param("tokens"), self.param("hidden"), self.param("layers")
        bound = math.sqrt(3.0 / h)  # var(a W^T) ~ var(a): tanh stays out of saturation
        self.x = self.input("x", "f32", (b, h))
        self.dy = self.input("dy", "f32", (b, h))
        self.w = self.input("w", "f32", (l, h, h), fill=uniform(-bound, bound), role="static")
        self.y = self.output("y", "f32", (b, h))
        self.dx = self.output("dx", "f32", (b, h))
        self.layers = l

    def forward_layer(self, a_prev, layer, out=None):
        """a_layer = tanh(a_prev W_layer^T), layers numbered 1..L."""
        a = torch.matmul(a_prev, self.w[layer - 1].t(), out=out)
        return a.tanh_()

    def backward_layer(self, a, g, layer, out=None):
        """Given a_layer and g_layer = dL/da_layer: dL/da_(layer-1) = (g (1 - a^2)) W_layer."""
        return torch.matmul(g * (1.0 - a * a), self.w[layer - 1], out=out)

    def backward_range(self, hi, lo, g, activation):
        """Backward through layers hi..lo; activation(l) gives a_l (stored or recomputed). Returns
        dL/da_(lo-1), written into dx when lo == 1."""
        for layer in range(hi, lo - 1, -1):
            g = self.backward_layer(activation(layer), g, layer, out=self.dx if layer == 1 else None)
        return g
