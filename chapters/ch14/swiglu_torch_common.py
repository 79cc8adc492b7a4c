"""swiglu_torch: the gated activation of a Llama-style MLP, y = silu(g) * u with silu(g) = g / (1 + e^-g), over
8192 tokens x 8192 hidden units in FP32 (g and u are the gate and up projections' outputs). Shared by
baseline_swiglu_torch.py (F.silu(g) * u: two eager kernels and a temporary) and
optimized_swiglu_torch_triton.py (one Triton kernel).

Tolerance: the fp32 default. The operations are the same; the exponential differs (CUDA's expf in torch,
Triton's exp through ex2 with a log2(e) scaling): a few 1e-7 relative for the |g| < ~8 the uniform(-8, 8) fill
gives, and silu(g) ~ g/2 near zero keeps the error relative there too."""

import aisp
from aisp.declarations import uniform

TOKENS, HIDDEN = 8192, 8192


class SwigluTorchBase(aisp.Benchmark):
    def workload(self):
        n = float(TOKENS * HIDDEN)
        # g and u read once, y written once.
        return aisp.Workload(params={"tokens": TOKENS, "hidden": HIDDEN}, precision="f32", bytes=3.0 * 4 * n,
                             flops=5.0 * n, items=float(TOKENS), item_unit="tokens")

    def setup(self):
        shape = (self.param("tokens"), self.param("hidden"))
        self.g = self.input("g", "f32", shape, fill=uniform(-8, 8))  # pre-activations span silu's curve
        self.u = self.input("u", "f32", shape)
        self.y = self.output("y", "f32", shape)
