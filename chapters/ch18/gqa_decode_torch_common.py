"""gqa_decode_torch: one decode step of grouped-query attention in PyTorch, BF16: 8 sequences, 32 query heads
sharing 8 key/value heads (groups of 4), a 4096-token KV cache, head dim 128, one new query token per sequence.
Shared by baseline_gqa_decode_torch.py (the KV heads expanded to 32 with repeat_interleave, then attention: what
code written for multi-head attention does with a GQA model) and optimized_gqa_decode_torch_sdpa.py
(scaled_dot_product_attention with enable_gqa=True: each KV head read once for its 4 query heads). Both pin the
flash backend.

Tolerance. Both run the flash kernel over the same keys and values with FP32 softmax state; only the order in
which tiles meet and the final BF16 rounding can differ: 1 BF16 ulp (<= 2^-7 relative), plus ~1e-4 absolute
for outputs near zero (each output is a weighted mean of 4096 values in (-1, 1), rms ~0.01). rtol 2^-7 + 1%
and atol 1e-3; a wrong group mapping (a query head reading another group's KV head) moves outputs by ~1e-2."""

import math

import aisp

BATCH, Q_HEADS, KV_HEADS, CACHE, HEAD_DIM = 8, 32, 8, 4096, 128


class GqaDecodeTorchBase(aisp.Benchmark):
    def workload(self):
        b, hq, hkv, s, d = float(BATCH), float(Q_HEADS), float(KV_HEADS), float(CACHE), float(HEAD_DIM)
        # The KV cache read once (k and v), q read and o written once; QK^T and PV: 2 x 2 x s x d per query head.
        return aisp.Workload(params={"batch": BATCH, "q_heads": Q_HEADS, "kv_heads": KV_HEADS, "cache": CACHE,
                                     "head_dim": HEAD_DIM}, precision="bf16",
                             bytes=2.0 * (2.0 * b * hkv * s * d + 2.0 * b * hq * d), flops=4.0 * b * hq * s * d,
                             items=b, item_unit="tokens")

    def tolerance(self):
        return aisp.Tolerance.loosened(
            math.ldexp(1.0, -7) * 1.01, 1e-3,
            "the same flash kernel with FP32 softmax state, tiles met in another order: 1 BF16 ulp (<= 2^-7 rel) on "
            "the output; atol 1e-3 (~1/10 of rms |o|) for near-zero outputs")

    def setup(self):
        b, hq, hkv = self.param("batch"), self.param("q_heads"), self.param("kv_heads")
        s, d = self.param("cache"), self.param("head_dim")
        self.q = self.input("q", "bf16", (b, hq, 1, d))
        self.k = self.input("k", "bf16", (b, hkv, s, d))
        self.v = self.input("v", "bf16", (b, hkv, s, d))
        self.o = self.output("o", "bf16", (b, hq, 1, d))
        self.group = hq // hkv
