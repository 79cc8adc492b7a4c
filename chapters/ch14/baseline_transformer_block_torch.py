"""ch14 transformer_block_torch, baseline: the block in eager PyTorch.

Technique: one kernel per op: LayerNorm, the QKV GEMM, the flash attention kernel, the output projection, the
residual add, LayerNorm again, the MLP's two GEMMs with GELU between, the last residual add written into the
output (torch.add(..., out=y)). Every intermediate makes a round trip through HBM in BF16.
Why it is slower: ~8 memory-bound elementwise/normalization kernels, each reading and writing 16-64 MiB,
around 4 GEMMs and the attention, plus one host dispatch per op.
Expected on Hopper: ~0.5 ms: ~220 GFLOP of GEMM/attention at ~600 TFLOP/s is ~0.37 ms, the rest is the
elementwise traffic (~0.5 GB at ~3 TB/s).
Measured 2026-11-28 (docs/measurements/closing_calls_20261128.md, all checks passed): H200 450.4 us; H100 not
reached (suite timeout)."""

import torch

from transformer_block_torch_common import TransformerBlockTorchBase, block_parts


class BaselineTransformerBlockTorch(TransformerBlockTorchBase):
    def benchmark_fn(self):
        x1, mlp = block_parts(self.x, self.wqkv, self.wo, self.w1, self.w2, self.heads)
        torch.add(x1, mlp, out=self.y)

    def technique(self):
        return "eager PyTorch: one kernel per op, BF16 intermediates in HBM"


def get_benchmark():
    return BaselineTransformerBlockTorch()
