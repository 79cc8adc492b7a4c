"""transformer_block_torch: one Llama-style decoder block in PyTorch, BF16, 8 sequences x 1024 tokens, model
width 1024, 16 heads of 64, SwiGLU MLP of width 2816 (~8/3 d, a multiple of 256), causal attention with rotary
position embeddings (RoPE):
    h = RMSNorm(x); q, k, v = Wqkv . h; q, k = rope(q), rope(k); x1 = x + Wo . attn(q, k, v)
    g, u = W13 . RMSNorm(x1);  y = x1 + W2 . (silu(g) * u)
Shared by baseline_transformer_block_torch.py (eager: every op its own kernel, every intermediate written to
memory in BF16) and optimized_transformer_block_torch_compiled.py (torch.compile: Inductor fuses the
elementwise and normalization work around the GEMMs and the attention kernel).

Why this block (changed 2026-11-28 from a GPT-2-style block: LayerNorm, GELU MLP of 4096). The GPT block
measured 1.053x INCONCLUSIVE under torch.compile on the H200 because it leaves Inductor almost nothing to fuse:
in eager every step between its GEMMs is already ONE kernel (F.layer_norm, F.gelu, the residual adds), and in
default mode Inductor cannot fuse into the cuBLAS GEMMs. Counting HBM bytes per token (BF16, d = 1024): eager
moves ~40 d of non-GEMM traffic, compiled ~38 d (only the residual add + LayerNorm pair fuses); the 2.6 GB of
GEMM/attention work is untouched, so ~5 % was the ceiling. A Llama-style block (the decoder most models compile
today) has the elementwise chains torch.compile exists to fuse: RoPE written as in Hugging Face's eager code
(x * cos + rotate_half(x) * sin: 5 kernels and 4 temporaries per q and k, since torch has no fused RoPE op) and
SwiGLU (silu, then the product: a temporary of the MLP's width). Per token eager moves ~85 d of non-GEMM bytes
and compiled ~45 d (RoPE 40 d -> 8 d, SwiGLU 27 d -> 16 d). The GEMM FLOPs per token are the same as the GPT
block's (4 d^2 + 3 d x 2816 ~ 4 d^2 + 2 d x 4096). RMSNorm is F.rms_norm, whatever eager torch does for it.

Weights are static inputs (uniform(+-1/sqrt(fan_in)); the RMSNorm gains uniform(0.5, 1.5)), so activations stay
O(1); x is dynamic. The RoPE tables (cos, sin of position x frequency) depend on positions only and are built
once in setup(), as models cache them.

Tolerance. Both variants run the same GEMMs (cuBLAS) and the same attention kernel; they differ in where
intermediates are rounded to BF16: eager rounds after every op (RoPE's products and sum, silu, the gate product,
the residual sum), Inductor keeps a fused chain in FP32 registers and rounds once. Each rounding is <= 2^-8
relative; on q and k that moves attention scores by ~1e-3, and through the MLP's 2816-term sums the
differences average out to ~2e-3 on outputs of rms ~0.6; the residual sum rounded once vs twice differs by at
most 1 BF16 ulp (2^-7 relative). rtol 2e-2 and atol 3e-2 cover that with margin; a wrong head, mask, rotation
or missing residual moves outputs by ~0.1-1."""

import math

import torch
import torch.nn.functional as F

import aisp

BATCH, SEQ, DIM, HEADS, HIDDEN = 8, 1024, 1024, 16, 2816
EPS = 1e-6
ROPE_BASE = 10000.0


def rope_tables(seq, head_dim, device):
    """cos and sin of position x inverse frequency, (seq, head_dim) in BF16, Hugging Face's layout (the
    frequencies repeated over both halves)."""
    inv = 1.0 / (ROPE_BASE ** (torch.arange(0, head_dim, 2, device=device, dtype=torch.float32) / head_dim))
    freqs = torch.outer(torch.arange(seq, device=device, dtype=torch.float32), inv)
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos().to(torch.bfloat16), emb.sin().to(torch.bfloat16)


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def apply_rope(x, cos, sin):
    """x (batch, heads, seq, head_dim); cos, sin (seq, head_dim)."""
    return x * cos + rotate_half(x) * sin


def block_parts(x, w, heads, cos, sin):
    """The block up to its last residual add: returns (x1, mlp) with y = x1 + mlp. `w` holds the layer's
    weights: norm1, wqkv, wo, norm2, w13, w2."""
    b, s, d = x.shape
    h = F.rms_norm(x, (d,), w["norm1"], EPS)
    qkv = F.linear(h, w["wqkv"]).view(b, s, 3, heads, d // heads).permute(2, 0, 3, 1, 4)
    q, k = apply_rope(qkv[0], cos, sin), apply_rope(qkv[1], cos, sin)
    attn = F.scaled_dot_product_attention(q, k, qkv[2], is_causal=True)
    x1 = x + F.linear(attn.transpose(1, 2).reshape(b, s, d), w["wo"])
    g, u = F.linear(F.rms_norm(x1, (d,), w["norm2"], EPS), w["w13"]).chunk(2, dim=-1)
    mlp = F.linear(F.silu(g) * u, w["w2"])
    return x1, mlp


def block_workload(tokens, sequences, seq, d, hidden, layers=1):
    """FLOPs, minimum bytes: GEMMs (qkv 3 d^2, out-projection d^2, gate+up 2 d hidden, down d hidden) x 2 FLOP per
    multiply-add per token; causal attention: QK^T and PV over half the S x S scores, 2 x 2 x S^2/2 x d per
    sequence. Bytes: the weights once, x read and y written once (BF16)."""
    flops = layers * (2.0 * tokens * (4.0 * d * d + 3.0 * d * hidden) + sequences * 2.0 * seq * seq * d)
    weights = layers * 2.0 * (4.0 * d * d + 3.0 * d * hidden + 2.0 * d)
    return flops, weights + 2.0 * 2.0 * tokens * d


def declare_layer(bench, prefix, d, hidden):
    """One layer's weights as static inputs named <prefix>norm1, <prefix>wqkv, ..."""
    def weight(name, rows, fan_in):
        bound = 1.0 / math.sqrt(fan_in)
        return bench.input(prefix + name, "bf16", (rows, fan_in), fill=aisp.declarations.uniform(-bound, bound),
                           role="static")

    def gain(name):
        return bench.input(prefix + name, "bf16", (d,), fill=aisp.declarations.uniform(0.5, 1.5), role="static")
    return {"norm1": gain("norm1"), "wqkv": weight("wqkv", 3 * d, d), "wo": weight("wo", d, d),
            "norm2": gain("norm2"), "w13": weight("w13", 2 * hidden, d), "w2": weight("w2", d, hidden)}


BF16_BLOCK_TOLERANCE = (2e-2, 3e-2, "BF16 intermediates rounded after every eager op (RoPE, SwiGLU, residual) vs "
                        "once per fused Inductor chain: ~2e-3 rms on outputs of rms ~0.6, 1 BF16 ulp on the residual "
                        "sum; margin for the max over millions of outputs")


class TransformerBlockTorchBase(aisp.Benchmark):
    """The block's workload, tolerance and declarations. LAYERS = 0: one block, weights unprefixed in self.w (this
    pair); LAYERS = n > 0: n such layers, each with its own weights ("l<i>_" prefixes) in self.layers and a
    "layers" workload key (layer_stack_torch_common.py). The shapes are class attributes so the stack can set its
    own batch."""
    LAYERS = 0
    BATCH, SEQ, DIM, HEADS, HIDDEN = BATCH, SEQ, DIM, HEADS, HIDDEN

    def workload(self):
        flops, nbytes = block_workload(self.BATCH * self.SEQ, self.BATCH, self.SEQ, float(self.DIM),
                                       float(self.HIDDEN), layers=max(self.LAYERS, 1))
        params = {"layers": self.LAYERS} if self.LAYERS else {}
        params.update({"batch": self.BATCH, "seq": self.SEQ, "dim": self.DIM, "heads": self.HEADS,
                       "hidden": self.HIDDEN})
        return aisp.Workload(params=params, precision="bf16", bytes=nbytes, flops=flops,
                             items=float(self.BATCH * self.SEQ), item_unit="tokens")

    def tolerance(self):
        return aisp.Tolerance.loosened(*BF16_BLOCK_TOLERANCE)

    def setup(self):
        b, s, d = self.param("batch"), self.param("seq"), self.param("dim")
        self.heads = self.param("heads")
        self.x = self.input("x", "bf16", (b, s, d))
        if self.LAYERS:
            self.layers = [declare_layer(self, "l%d_" % i, d, self.param("hidden"))
                           for i in range(self.param("layers"))]
        else:
            self.w = declare_layer(self, "", d, self.param("hidden"))
        self.cos, self.sin = rope_tables(s, d // self.heads, self.x.device)
        self.y = self.output("y", "bf16", (b, s, d))
