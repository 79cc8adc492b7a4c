"""Shared pieces of the Python validity fixtures (tests/validity_python): an elementwise add, an fp32
matmul and a row-wise dot product, each with an honest eager implementation the baselines use. Each optimized_cheat_* file cheats
in one PyTorch-specific way; tests/e2e/gpu_python_pairs.sh holds what each must be flagged with."""

import torch

import aisp
from aisp.declarations import int_range

N = 1 << 22
M = 1024


class AddBase(aisp.Benchmark):
    def workload(self):
        return aisp.Workload(params={"n": N}, precision="f32", bytes=3.0 * 4 * N, flops=float(N), items=float(N),
                             item_unit="elements")

    def setup(self):
        n = self.param("n")
        self.x = self.input("x", "f32", (n,))
        self.y = self.input("y", "f32", (n,))
        self.out = self.output("out", "f32", (n,))


class HonestAdd(AddBase):
    def benchmark_fn(self):
        torch.add(self.x, self.y, out=self.out)


class MatmulBase(aisp.Benchmark):
    def workload(self):
        return aisp.Workload(params={"m": M}, precision="f32", bytes=3.0 * 4 * M * M, flops=2.0 * M ** 3,
                             items=float(M * M), item_unit="elements")

    def setup(self):
        m = self.param("m")
        self.a = self.input("a", "f32", (m, m))
        self.b = self.input("b", "f32", (m, m))
        self.out = self.output("out", "f32", (m, m))


class HonestMatmul(MatmulBase):
    def benchmark_fn(self):
        torch.matmul(self.a, self.b, out=self.out)


# Row-wise dot products of two integer-valued fp32 matrices: every product (|x*y| <= 64) and every partial sum
# (|sum| <= 4096 * 64 < 2^24) is exact in fp32, so a host computation in any summation order gives the GPU's
# bits exactly, and only where the work ran can tell the variants apart.
ROWS, COLS = 4096, 4096


class RowDotBase(aisp.Benchmark):
    def workload(self):
        return aisp.Workload(params={"rows": ROWS, "cols": COLS}, precision="f32", bytes=2.0 * 4 * ROWS * COLS + 4 * ROWS,
                             flops=2.0 * ROWS * COLS, items=float(ROWS), item_unit="rows")

    def setup(self):
        rows, cols = self.param("rows"), self.param("cols")
        self.x = self.input("x", "f32", (rows, cols), fill=int_range(-8, 8))
        self.y = self.input("y", "f32", (rows, cols), fill=int_range(-8, 8))
        self.out = self.output("out", "f32", (rows,))


class HonestRowDot(RowDotBase):
    def benchmark_fn(self):
        torch.sum(self.x * self.y, dim=1, out=self.out)


class HostRowDot(RowDotBase):
    """The row dots computed by PyTorch's CPU kernels on the host from pinned copies of the inputs, the result
    copied back into the output. Where the copies run decides whether the host work is timed (see the two
    fixtures). CPU torch, not numpy: numpy is not guaranteed beside torch on the GPU machines."""

    def setup(self):
        super().setup()
        self.x_host = torch.empty(self.x.shape, dtype=torch.float32, pin_memory=True)
        self.y_host = torch.empty(self.y.shape, dtype=torch.float32, pin_memory=True)
        self.out_host = torch.empty(self.out.shape, dtype=torch.float32, pin_memory=True)

    def host_compute(self):
        torch.sum(self.x_host * self.y_host, dim=1, out=self.out_host)
