"""ch14 add_rmsnorm_torch, optimized: one Triton kernel replaces the six torch ops.

Technique: a @triton.jit kernel, one program per row: load the 4096 floats of x and r (16-byte vector
loads), add, reduce the squares in registers, one rsqrt, scale by w, store. h never leaves the SM.
Compiled in setup()'s warm-up call.
Why it is faster: x and r are read once and y written once (384 MiB instead of ~1.3 GB), one launch
instead of six.
Expected on Hopper: ~0.14 ms (384 MiB at ~2.9 TB/s), ~3x over the baseline.
Measured 2026-11-28 (docs/measurements/closing_calls_20261128.md, all checks passed): H200 92.4 us, 4.291x
[4.214, 4.370] FASTER; H100 80GB HBM3 128.6 us, 3.911x [3.841, 3.983] FASTER."""

import torch
import triton
import triton.language as tl

from add_rmsnorm_torch_common import EPS, AddRmsnormTorchBase


@triton.jit
def add_rmsnorm_kernel(x_ptr, r_ptr, w_ptr, y_ptr, cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offsets = tl.arange(0, BLOCK)
    mask = offsets < cols
    base = row * cols
    h = tl.load(x_ptr + base + offsets, mask=mask, other=0.0) + tl.load(r_ptr + base + offsets, mask=mask, other=0.0)
    inv = tl.math.rsqrt(tl.sum(h * h, axis=0) / cols + eps)
    w = tl.load(w_ptr + offsets, mask=mask, other=0.0)
    tl.store(y_ptr + base + offsets, h * inv * w, mask=mask)


class OptimizedAddRmsnormTorchTriton(AddRmsnormTorchBase):
    def benchmark_fn(self):
        rows, cols = self.y.shape
        add_rmsnorm_kernel[(rows,)](self.x, self.r, self.w, self.y, cols, EPS, BLOCK=triton.next_power_of_2(cols),
                                    num_warps=16)

    def technique(self):
        return "one Triton kernel per row: add, sum of squares, rsqrt and scale in registers"


def get_benchmark():
    return OptimizedAddRmsnormTorchTriton()
