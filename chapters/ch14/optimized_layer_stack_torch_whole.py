"""ch14 layer_stack_torch, optimized: the whole stack under torch.compile (the reference for regional compile).

Technique: torch.compile(fullgraph=True, dynamic=False) on the model's forward: Dynamo unrolls the loop over the
4 layers into one graph, Inductor compiles it (4 copies of the layer's kernels' call sites; the Triton kernels
themselves are shared by content), fusing each layer's last residual add with the next layer's RMSNorm and the
final one with the copy into the output.
Why it is faster than eager: the fusions of transformer_block_torch's compiled variant in every layer, plus the
layer boundaries. Its cost is compile time, which grows with the depth (printed to the worker log by setup():
the "aisp-compile:" line; compare it with the regional variant's).
Expected on Hopper: ~1.3x over eager, equal to or a little faster than regional compile.
Measured 2026-11-28 on an NVIDIA H200 (`aisp bench run -t ch14:transformer_block_torch ch14:layer_stack_torch --time-limit 5 --update-expectations --accept-regressions --no-db`; docs/measurements/session_20261128b.md, helper "torch"), all 20 checks passed: 993.7 us,
1.756x [1.724, 1.789] FASTER; regional compile 995.7 us. Compile (first call): 8.9 s, 1 Dynamo graph (after the
regional variant had filled the Triton cache; regional: 8.5 s with cold caches)."""

import torch

from layer_stack_torch_common import LayerStackTorchBase, time_first_call
from transformer_block_torch_common import block_parts


@torch.compile(fullgraph=True, dynamic=False)
def stack_into(x, layers, heads, cos, sin, out):
    h = x
    for w in layers:
        x1, mlp = block_parts(h, w, heads, cos, sin)
        h = x1 + mlp
    out.copy_(h)


class OptimizedLayerStackTorchWhole(LayerStackTorchBase):
    def setup(self):
        super().setup()
        time_first_call(self, "whole stack (4 layers in one graph)")

    def benchmark_fn(self):
        stack_into(self.x, self.layers, self.heads, self.cos, self.sin, self.y)

    def technique(self):
        return "whole-model torch.compile: the 4 layers unrolled into one graph"


def get_benchmark():
    return OptimizedLayerStackTorchWhole()
