"""ch18 gqa_decode_torch, baseline: the KV heads expanded to every query head, then attention.

Technique: k.repeat_interleave(4, dim=1) and the same for v (the cache materialized 4 times over: 2 x 256
MiB written and read back), then F.scaled_dot_product_attention on the flash backend as if the model were
multi-head.
Why it is slow: decode attention is bound by reading the KV cache (64 MiB of k and v here); the expansion
writes and re-reads 8x that.
Expected on Hopper: ~0.4 ms (~1.2 GB of traffic at ~3 TB/s).
Measured 2026-11-28 (docs/measurements/closing_calls_20261128.md, all checks passed): H200 750.0 us; H100 not
reached (suite timeout)."""

import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

from gqa_decode_torch_common import GqaDecodeTorchBase


class BaselineGqaDecodeTorch(GqaDecodeTorchBase):
    def benchmark_fn(self):
        k = self.k.repeat_interleave(self.group, dim=1)
        v = self.v.repeat_interleave(self.group, dim=1)
        with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
            self.o.copy_(F.scaled_dot_product_attention(self.q, k, v))

    def technique(self):
        return "repeat_interleave the KV heads to 32, then flash SDPA"


def get_benchmark():
    return BaselineGqaDecodeTorch()
