"""ch09 matmul_torch, optimized: cuBLAS through torch.matmul.

Technique: torch.matmul(a, b, out=c): cuBLAS's heuristics pick a kernel tuned for a 4096^3 BF16 GEMM on sm_90
(TMA loads, warp-specialized wgmma pipelines, persistent tile scheduling), written straight into the
harness output.
Why it is faster: what the Triton baseline leaves out (see its header) is what the library kernels spend
their engineering on.
Expected on Hopper: ~0.2 ms (~650-750 TFLOP/s), ~1.2-1.5x over the Triton baseline. Not measured yet."""

import torch

from matmul_torch_common import MatmulTorchBase


class OptimizedMatmulTorchCublas(MatmulTorchBase):
    def benchmark_fn(self):
        torch.matmul(self.a, self.b, out=self.c)

    def technique(self):
        return "torch.matmul: cuBLAS BF16 GEMM, FP32 accumulation"


def get_benchmark():
    return OptimizedMatmulTorchCublas()
