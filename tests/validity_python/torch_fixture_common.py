"""Shared pieces of the Python validity fixtures (tests/validity_python): an elementwise add and an fp32
matmul, each with an honest eager implementation the baselines use. Each optimized_cheat_* file cheats
in one PyTorch-specific way; tests/e2e/gpu_python_pairs.sh holds what each must be flagged with."""

import torch

import aisp

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
