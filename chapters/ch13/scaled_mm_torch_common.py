"""scaled_mm_torch: an FP8 GEMM in PyTorch, c = a @ b^T with a: m x k and b: n x k in e4m3 (b in nn.Linear
layout, a static weight), c: m x n in BF16, m = n = k = 8192. The pair *declares* FP8 precision: its inputs
are e4m3 codes (filled by the harness from uniform(-1, 1)), and both variants compute the exact products of
those codes with FP32 accumulation. Shared by baseline_scaled_mm_torch.py (dequantize to BF16, then a BF16
GEMM: what code without an FP8 GEMM does) and optimized_scaled_mm_torch.py (torch._scaled_mm on the FP8
tensor cores, per-tensor scales of 1).

Tolerance. An e4m3 code has a 4-bit significand, so the product of two codes has at most 8 significant bits:
exact in BF16 and in FP32. Both variants therefore sum the same exact products in FP32, in different orders,
and round once to BF16: a sum next to a rounding boundary may land on the adjacent BF16 value, one ulp, at most
2^-7 of the value (rtol 2^-7 + 1%). Near-zero outputs see only the FP32 order difference (~sqrt(k) 2^-24 x
|partial sums| ~ 1e-4 here); torch's default allows cuBLAS reduced-precision (BF16) reductions in split-K
schemes, whose partial sums round to 2^-8 of ~15: atol 0.25 covers that and is ~1/120 of the outputs' rms
(sqrt(k) x 0.58^2 ~ 30 for codes from uniform(-1, 1), rms 0.58), far below a wrong or missing term."""

import math

import aisp

M = N = K = 8192


class ScaledMmTorchBase(aisp.Benchmark):
    def workload(self):
        m, n, k = float(M), float(N), float(K)
        # a and b read once (1 B per code), c written once (2 B).
        return aisp.Workload(params={"m": M, "n": N, "k": K}, precision="fp8_e4m3", bytes=m * k + n * k + 2.0 * m * n,
                             flops=2.0 * m * n * k, items=m, item_unit="tokens")

    def tolerance(self):
        return aisp.Tolerance.loosened(
            math.ldexp(1.0, -7) * 1.01, 0.25,
            "exact e4m3 products summed in FP32 in different orders, rounded once to BF16: 1 BF16 ulp (<= 2^-7 rel); "
            "atol 0.25 (~1/120 of rms |c|) for near-zero outputs and BF16 split-K partial sums")

    def requirements(self):
        return aisp.Requirements(min_compute_capability=90)  # FP8 tensor cores: Hopper (sm_89 has them too)

    def setup(self):
        m, n, k = self.param("m"), self.param("n"), self.param("k")
        self.a = self.input("a", "fp8_e4m3", (m, k))
        self.b = self.input("b", "fp8_e4m3", (n, k), role="static")
        self.c = self.output("c", "bf16", (m, n))
