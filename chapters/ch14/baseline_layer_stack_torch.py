"""ch14 layer_stack_torch, baseline: 4 Llama-style layers in eager PyTorch.

Technique: the layers one after another, each op its own kernel (transformer_block_torch's eager block, RoPE
as Hugging Face writes it, SwiGLU as silu then product); the last residual add writes into the output.
Why it is slower: every elementwise step between the GEMMs is a round trip through HBM in BF16 (~85 d bytes of
non-GEMM traffic per token per layer).
Expected on Hopper: ~1.3 ms (4 x ~0.33 ms; half the tokens of transformer_block_torch per layer).
Measured 2026-11-28 on an NVIDIA H200 (`aisp bench run -t ch14:transformer_block_torch ch14:layer_stack_torch --time-limit 5 --update-expectations --accept-regressions --no-db`; docs/measurements/session_20261128b.md, helper "torch"), every check passed: 1.745 ms."""

import torch

from layer_stack_torch_common import LayerStackTorchBase
from transformer_block_torch_common import block_parts


class BaselineLayerStackTorch(LayerStackTorchBase):
    def benchmark_fn(self):
        h = self.x
        for i, w in enumerate(self.layers):
            x1, mlp = block_parts(h, w, self.heads, self.cos, self.sin)
            h = torch.add(x1, mlp, out=self.y) if i == len(self.layers) - 1 else x1 + mlp

    def technique(self):
        return "eager PyTorch: 4 layers, one kernel per op"


def get_benchmark():
    return BaselineLayerStackTorch()
