"""cublas_parity: one cuBLAS BF16 GEMM, c = a @ b (a, b, c: 8192 x 8192, row-major, FP32 accumulation), launched
from C++ (baseline_cublas_parity.cu, cublasGemmEx on the harness's cuBLAS handle) and from Python
(optimized_cublas_parity_torch.py, torch.matmul on the harness stream). A mixed pair measuring the Python
worker itself (issue 23: "timings within 1% of the same kernel measured as a C++ plugin"): the GPU work is
one cuBLAS kernel either way, so any difference in the medians is the cost of launching it from Python
(ctypes callback, torch dispatch) or a different kernel choice, which the CUPTI audit's kernel names show.

The inputs are small integers (int_range(-4, 4), exact in BF16), so every product and every partial sum
(|sum| <= 8192 x 16 < 2^24) is exact in FP32: whatever kernel or summation order either side uses, the FP32
result is the same and rounds to the same BF16 value. The default BF16 tolerance applies, and a pass means
bit-identical outputs.

This module declares the Python side; the C++ variant repeats the workload, buffers and fills exactly (the
harness refuses a pair whose variants declare different workloads, and K23 different tolerances)."""

import aisp
from aisp.declarations import int_range

M = N = K = 8192


class CublasParityBase(aisp.Benchmark):
    def workload(self):
        m, n, k = float(M), float(N), float(K)
        return aisp.Workload(params={"m": M, "n": N, "k": K}, precision="bf16", bytes=2.0 * (m * k + k * n + m * n),
                             flops=2.0 * m * n * k, items=m, item_unit="rows")

    def setup(self):
        m, n, k = self.param("m"), self.param("n"), self.param("k")
        self.a = self.input("a", "bf16", (m, k), fill=int_range(-4, 4))
        self.b = self.input("b", "bf16", (k, n), fill=int_range(-4, 4), role="static")
        self.c = self.output("c", "bf16", (m, n))
