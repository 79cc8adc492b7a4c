"""ch18 gqa_decode_torch, optimized: scaled_dot_product_attention with enable_gqa=True.

Technique: F.scaled_dot_product_attention(q, k, v, enable_gqa=True) on the flash backend: the kernel maps query
head h to KV head h // 4 itself, so the 8 KV heads are read where they are, once per group.
Why it is faster: only the cache's 64 MiB (plus q and o) cross HBM, instead of the expanded 256 MiB twice over.
Expected on Hopper: ~0.03-0.05 ms (64 MiB at ~2.5-3 TB/s, plus launch), ~8x over the baseline.
Measured 2026-11-28 (docs/measurements/closing_calls_20261128.md, all checks passed): H200 45.6 us, 16.448x
[16.151, 16.750] FASTER; H100 not reached (suite timeout)."""

import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

from gqa_decode_torch_common import GqaDecodeTorchBase


class OptimizedGqaDecodeTorchSdpa(GqaDecodeTorchBase):
    def benchmark_fn(self):
        with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
            self.o.copy_(F.scaled_dot_product_attention(self.q, self.k, self.v, enable_gqa=True))

    def technique(self):
        return "flash SDPA with enable_gqa=True: KV heads shared by their query groups, never expanded"


def get_benchmark():
    return OptimizedGqaDecodeTorchSdpa()
