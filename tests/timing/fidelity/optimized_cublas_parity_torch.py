"""fidelity cublas_parity (was ch09:cublas_parity), the Python variant: the baseline's cuBLAS GEMM called through torch.matmul.

Technique: torch.matmul(a, b, out=c) on harness tensors, on the harness stream (torch's current stream inside
benchmark_fn). For row-major operands torch computes c^T = b^T a^T in cuBLAS's column-major terms, the call the
C++ baseline makes (cublasGemmEx, no transposes, m and n swapped), BF16 in and out, FP32 compute.
Why it is here: not an optimization. Same kernel, so the verdict should be SAME and the medians within ~1%;
the ratio is the Python worker's overhead (a ctypes callback and torch's dispatch per call, host time that
the harness's blocking kernel keeps out of the window) plus any difference in cuBLAS's kernel choice (torch
sets its own cuBLAS workspace; the kernel names in the CUPTI audit of both variants tell).
Expected on Hopper: ~1.5 ms for both (1.1 TFLOP at ~700 TFLOP/s), speedup 1.00 +- 0.01.
Measured 2026-11-28 (docs/measurements/closing_calls_20261128.md, all checks passed): H200 1.240 ms, 0.999x
[0.981, 1.017] SAME; H100 80GB HBM3 1.230 ms, 1.009x [0.977, 1.028] SAME."""

import torch

from cublas_parity_common import CublasParityBase


class OptimizedCublasParityTorch(CublasParityBase):
    def benchmark_fn(self):
        torch.matmul(self.a, self.b, out=self.c)

    def technique(self):
        return "the same cuBLAS BF16 GEMM launched from Python (torch.matmul on the harness stream)"


def get_benchmark():
    return OptimizedCublasParityTorch()
