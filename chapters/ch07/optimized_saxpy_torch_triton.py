"""ch07 saxpy_torch, optimized: a Triton kernel, one pass over x and y.

Technique: a 1-D Triton kernel, BLOCK elements per program, masked tail; a * x + y compiles to one FMA
per element (exact here: a = 2). Compiled in setup()'s warm-up call, outside every measured run.
Why it is faster: 3 streams of n floats instead of the baseline's 5, like the fused torch op; Triton
vectorizes to 16-byte accesses, as float4_vector does by hand in CUDA C++.
Expected on Hopper: ~0.07 ms on H100 SXM, ~1.6x over the baseline, level with the fused torch op.
Measured (H100, 2026-11-25): 66.1 / 66.3 us, 1.713x / 1.711x over the baseline in two runs, every check passed
(docs/measurements/python_worker_h100.md)."""

import torch
import triton
import triton.language as tl

from saxpy_torch_common import A, SaxpyTorchBase

BLOCK = 4096


@triton.jit
def saxpy_kernel(x_ptr, y_ptr, out_ptr, a, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, a * x + y, mask=mask)


class OptimizedSaxpyTorchTriton(SaxpyTorchBase):
    def benchmark_fn(self):
        n = self.out.numel()
        saxpy_kernel[(triton.cdiv(n, BLOCK),)](self.x, self.y, self.out, A, n, BLOCK=BLOCK, num_warps=8)

    def technique(self):
        return "Triton kernel, 4096 elements per program"


def get_benchmark():
    return OptimizedSaxpyTorchTriton()
