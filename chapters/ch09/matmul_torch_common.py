"""matmul_torch: c = a @ b in BF16 with FP32 accumulation, a: 4096 x 4096, b: 4096 x 4096 (row-major, b a
static weight), c: 4096 x 4096 BF16. Shared by baseline_matmul_torch.py (a Triton GEMM: the tiled
tensor-core kernel a user writes in ~30 lines) and optimized_matmul_torch_cublas.py (torch.matmul: cuBLAS's
tuned kernel for the shape).

Tolerance (the argument of cublaslt_gemm.cuh): both accumulate the same products in FP32 in different
orders and round once to BF16, so a sum next to a rounding boundary may land one BF16 ulp away, at most 2^-7
of the value (rtol 2^-7 + 1%). Near-zero outputs see the FP32 order difference (~sqrt(k) 2^-24 |partial
sums| ~ 1e-5) and, if cuBLAS picks a split-K kernel, BF16 partial sums (torch's default allows reduced-
precision reductions): ~2^-8 of ~10; atol 0.1 is ~1/200 of the outputs' rms (sqrt(k / 9) ~ 21)."""

import math

import aisp

M = N = K = 4096


class MatmulTorchBase(aisp.Benchmark):
    def workload(self):
        m, n, k = float(M), float(N), float(K)
        return aisp.Workload(params={"m": M, "n": N, "k": K}, precision="bf16", bytes=2.0 * (m * k + k * n + m * n),
                             flops=2.0 * m * n * k, items=m, item_unit="rows")

    def tolerance(self):
        return aisp.Tolerance.loosened(
            math.ldexp(1.0, -7) * 1.01, 0.1,
            "FP32 sums in a different order rounded once to BF16: 1 ulp (<= 2^-7 rel); atol 0.1 (~1/200 of rms |c|) "
            "for near-zero outputs and BF16 split-K partial sums")

    def setup(self):
        m, n, k = self.param("m"), self.param("n"), self.param("k")
        self.a = self.input("a", "bf16", (m, k))
        self.b = self.input("b", "bf16", (k, n), role="static")
        self.c = self.output("c", "bf16", (m, n))
