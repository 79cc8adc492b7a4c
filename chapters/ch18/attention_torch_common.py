"""attention_torch: multi-head attention o = softmax(q k^T / sqrt(d)) v in PyTorch, BF16, 4 sequences x 16
heads x 2048 tokens, head dim 64, no mask (prefill of independent sequences). Shared by
baseline_attention_torch.py (the textbook form: the 2048 x 2048 score matrix of every head materialized in
HBM, softmax, a second GEMM), optimized_attention_torch_sdpa.py (F.scaled_dot_product_attention restricted to
the flash backend) and optimized_attention_torch_flex.py (FlexAttention, compiled).

Tolerance. The fused kernels keep scores and probabilities in FP32 and round once at the end; the baseline
rounds the scores (|q.k| ~ 2.7, error ~5e-3 before the 1/8 scale) and the probabilities (2^-9 relative) to
BF16. Each output is a weighted mean of 2048 values in (-1, 1) (rms ~0.013 here, since the weights are
nearly uniform), so those roundings average to ~3e-5 absolute, ~1.5e-4 at 5 sigma of 8 M outputs; BF16
rounding of the output itself is <= 2^-7 relative. atol 1e-3 and rtol 1e-2 cover both; a wrong scale, a
missing head or a transposed operand moves outputs by ~1e-2 or more. The workload declares BF16."""

import aisp

BATCH, HEADS, SEQ, HEAD_DIM = 4, 16, 2048, 64


class AttentionTorchBase(aisp.Benchmark):
    def workload(self):
        b, h, s, d = float(BATCH), float(HEADS), float(SEQ), float(HEAD_DIM)
        # q, k, v read once, o written once (a fused kernel's minimum); QK^T and PV: 2 x 2 x s^2 x d per head.
        return aisp.Workload(params={"batch": BATCH, "heads": HEADS, "seq": SEQ, "head_dim": HEAD_DIM},
                             precision="bf16", bytes=4.0 * 2.0 * b * h * s * d, flops=4.0 * b * h * s * s * d,
                             items=b * s, item_unit="tokens")

    def tolerance(self):
        return aisp.Tolerance.loosened(
            1e-2, 1e-3, "BF16 scores and probabilities in the unfused baseline vs FP32 in the fused kernels: "
            "~3e-5 rms on outputs of rms ~0.013; 1 BF16 ulp (<= 2^-7 rel) on the output")

    def setup(self):
        shape = (self.param("batch"), self.param("heads"), self.param("seq"), self.param("head_dim"))
        self.q = self.input("q", "bf16", shape)
        self.k = self.input("k", "bf16", shape)
        self.v = self.input("v", "bf16", shape)
        self.o = self.output("o", "bf16", shape)
        self.scale = self.param("head_dim") ** -0.5
