"""ch09 matmul_torch, baseline: a hand-written Triton GEMM.

Technique: the textbook Triton matmul: 128 x 128 output tiles, k in steps of 64, tl.dot on BF16 tiles with
an FP32 accumulator (Triton lowers it to Hopper's wgmma), 3 software-pipelined stages, programs grouped 8 rows
of tiles at a time so neighbouring programs share a and b tiles in L2. No autotuning: one configuration,
chosen for this square shape. The shape is a multiple of every tile size (checked in setup), so no masks.
Why it is slower than cuBLAS: no TMA loads, no warp specialization, no persistent scheduling or split
epilogue; cuBLAS picks among kernels tuned per shape and architecture.
Expected on Hopper: ~0.25-0.35 ms (400-550 TFLOP/s) for 137 GFLOP.
Measured 2026-11-28 (docs/measurements/closing_calls_20261128.md, all checks passed): H200 211.7 us; H100 80GB
HBM3 218.8 us."""

import triton
import triton.language as tl

from matmul_torch_common import MatmulTorchBase

BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M = 128, 128, 64, 8


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    tiles_m, tiles_n = M // BLOCK_M, N // BLOCK_N
    # Grouped order: GROUP_M tile rows are walked column by column, so the b tiles they share stay in L2.
    group = pid // (GROUP_M * tiles_n)
    first_m = group * GROUP_M
    rows_in_group = min(tiles_m - first_m, GROUP_M)
    tile_m = first_m + (pid % (GROUP_M * tiles_n)) % rows_in_group
    tile_n = (pid % (GROUP_M * tiles_n)) // rows_in_group
    rm = tile_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tile_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_tile = a_ptr + rm[:, None].to(tl.int64) * K + rk[None, :]
    b_tile = b_ptr + rk[:, None].to(tl.int64) * N + rn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, K, BLOCK_K):
        acc = tl.dot(tl.load(a_tile), tl.load(b_tile), acc)
        a_tile += BLOCK_K
        b_tile += BLOCK_K * N
    c_tile = c_ptr + rm[:, None].to(tl.int64) * N + rn[None, :]
    tl.store(c_tile, acc.to(tl.bfloat16))


class BaselineMatmulTorch(MatmulTorchBase):
    def setup(self):
        super().setup()
        m, n, k = self.c.shape[0], self.c.shape[1], self.a.shape[1]
        if m % BLOCK_M or n % BLOCK_N or k % BLOCK_K:
            raise ValueError("matmul_torch: m, n, k must be multiples of %d, %d, %d" % (BLOCK_M, BLOCK_N, BLOCK_K))

    def benchmark_fn(self):
        m, k = self.a.shape
        n = self.c.shape[1]
        grid = ((m // BLOCK_M) * (n // BLOCK_N),)
        matmul_kernel[grid](self.a, self.b, self.c, m, n, k, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
                            GROUP_M=GROUP_M, num_warps=8, num_stages=3)

    def technique(self):
        return "Triton GEMM: 128x128x64 tiles, tl.dot (wgmma), 3 stages, grouped tile order"


def get_benchmark():
    return BaselineMatmulTorch()
