"""ch14 transformer_block_torch, baseline: the Llama-style block in eager PyTorch.

Technique: one kernel per op: RMSNorm (F.rms_norm), the QKV GEMM, RoPE on q and k as Hugging Face's eager code
writes it (x * cos, the rotate_half negation and concatenation, x' * sin, the sum: 5 kernels each), the flash
attention kernel, the output projection, the residual add, RMSNorm again, the gate+up GEMM, silu, the gate
product, the down GEMM, the last residual add written into the output (torch.add(..., out=y)). Every
intermediate makes a round trip through HBM in BF16.
Why it is slower: 16 memory-bound elementwise/normalization kernels, each reading and writing 8-92 MB, around
4 GEMMs and the attention (~85 d bytes per token of non-GEMM traffic; transformer_block_torch_common.py).
Expected on Hopper: ~0.6 ms: ~230 GFLOP of GEMM/attention at ~650 TFLOP/s is ~0.35 ms, the rest is the
elementwise traffic (~0.7 GB at ~2.5-3 TB/s).
Measured 2026-11-28 on an NVIDIA H200 (`aisp bench run -t ch14:transformer_block_torch ch14:layer_stack_torch --time-limit 5 --update-expectations --accept-regressions --no-db`; docs/measurements/session_20261128b.md, helper "torch"), every check passed: 799.8 us
(`aisp profile torch` on one run: 784 us of GPU time: the 4 GEMMs 292 us, cuDNN's flash attention 58 us, and 16
elementwise/normalization kernels 434 us: RoPE's muls on strided q/k views 164 us, its cats 72 us, silu 67 us;
F.rms_norm is one fused kernel in eager, 24 us for both). The GPT-2-style block this pair had before measured 450.4 us."""

import torch

from transformer_block_torch_common import TransformerBlockTorchBase, block_parts


class BaselineTransformerBlockTorch(TransformerBlockTorchBase):
    def benchmark_fn(self):
        x1, mlp = block_parts(self.x, self.w, self.heads, self.cos, self.sin)
        torch.add(x1, mlp, out=self.y)

    def technique(self):
        return "eager PyTorch: one kernel per op (RoPE 5 per tensor, SwiGLU 2), BF16 intermediates in HBM"


def get_benchmark():
    return BaselineTransformerBlockTorch()
