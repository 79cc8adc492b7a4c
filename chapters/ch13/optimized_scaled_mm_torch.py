"""ch13 scaled_mm_torch, optimized: torch._scaled_mm on the FP8 operands directly.

Technique: torch._scaled_mm(a, b.t(), scale_a, scale_b, out_dtype=bfloat16): cuBLASLt's FP8 GEMM (e4m3 x
e4m3, FP32 accumulation, use_fast_accum off), per-tensor scales of 1 (the codes are the values: the pair
declares FP8 inputs, so there is nothing to rescale). b.t() of the n x k weight is the column-major k x n
operand the FP8 GEMM requires, without a copy. The result is written straight into the harness output
(the op's out= overload); if this torch lacks it, setup() finds out and the call copies instead.
Why it is faster: twice the tensor-core rate of BF16 on Hopper, half the operand bytes, no widening pass.
Expected on Hopper: ~1.6-1.9x over the baseline (`aisp hw tc` measured 1437 TFLOP/s for e4m3 with BF16 output
at 8192^3 on the H100).
Measured 2026-11-28 (docs/measurements/closing_calls_20261128.md, all checks passed): H200 738.6 us, 2.020x
[1.972, 2.057] FASTER; H100 80GB HBM3 740.2 us, 1.999x [1.963, 2.035] FASTER."""

import torch

from scaled_mm_torch_common import ScaledMmTorchBase


class OptimizedScaledMmTorch(ScaledMmTorchBase):
    def setup(self):
        super().setup()
        self.one = torch.ones((), dtype=torch.float32, device=self.device)
        self.b_t = self.b.t()
        try:  # before the warm-up call: decides which form every call uses
            torch._scaled_mm(self.a, self.b_t, self.one, self.one, out_dtype=torch.bfloat16, out=self.c)
            self.into_output = True
        except (TypeError, RuntimeError):
            self.into_output = False

    def benchmark_fn(self):
        if self.into_output:
            torch._scaled_mm(self.a, self.b_t, self.one, self.one, out_dtype=torch.bfloat16, out=self.c)
        else:
            self.c.copy_(torch._scaled_mm(self.a, self.b_t, self.one, self.one, out_dtype=torch.bfloat16))

    def technique(self):
        return "torch._scaled_mm: e4m3 x e4m3 on the FP8 tensor cores, FP32 accumulation, BF16 output"


def get_benchmark():
    return OptimizedScaledMmTorch()
