"""ch18 attention_torch, baseline: attention as three eager ops with the score matrix in HBM.

Technique: s = (q @ k^T) * scale (a batched cuBLAS GEMM, 64 heads x 2048 x 2048 BF16 scores = 512 MiB),
p = softmax(s) (another 512 MiB), o = p @ v (a second batched GEMM into the output).
Why it is slow: the scores are written and read twice (~2 GiB of traffic against 64 MiB of q, k, v, o),
and the softmax is a separate memory-bound pass: the GEMMs' 69 GFLOP are not what limits it.
Expected on Hopper: ~1 ms (dominated by ~2 GiB of score traffic at ~3 TB/s).
Measured 2026-11-28 (docs/measurements/closing_calls_20261128.md, all checks passed): H200 1.145 ms; H100 not
reached (suite timeout)."""

import torch

from attention_torch_common import AttentionTorchBase


class BaselineAttentionTorch(AttentionTorchBase):
    def benchmark_fn(self):
        scores = torch.matmul(self.q, self.k.transpose(-2, -1)) * self.scale
        torch.matmul(torch.softmax(scores, dim=-1), self.v, out=self.o)

    def technique(self):
        return "q k^T, softmax, p v as three eager ops; scores materialized in BF16"


def get_benchmark():
    return BaselineAttentionTorch()
