"""ch09 matmul_torch, optimized: cuBLAS through torch.matmul.

Technique: torch.matmul(a, b, out=c): cuBLAS's heuristics pick a kernel tuned for a 4096^3 BF16 GEMM on sm_90
(TMA loads, warp-specialized wgmma pipelines, persistent tile scheduling), written straight into the
harness output.
Why it is faster: what the Triton baseline leaves out (see its header) is what the library kernels spend
their engineering on.
Expected on Hopper: ~0.2 ms (~650-750 TFLOP/s), ~1.2-1.5x over the Triton baseline.
Measured 2026-11-28 (docs/measurements/closing_calls_20261128.md, all checks passed): H200 177.3 us, 1.194x
[1.172, 1.216] FASTER; H100 80GB HBM3 177.2 us, 1.235x [1.212, 1.257] FASTER."""

import torch

from matmul_torch_common import MatmulTorchBase


class OptimizedMatmulTorchCublas(MatmulTorchBase):
    def benchmark_fn(self):
        torch.matmul(self.a, self.b, out=self.c)

    def technique(self):
        return "torch.matmul: cuBLAS BF16 GEMM, FP32 accumulation"


def get_benchmark():
    return OptimizedMatmulTorchCublas()
