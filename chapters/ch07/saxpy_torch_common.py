"""saxpy_torch: out = 2 * x + y over n floats in PyTorch/Triton, the Python counterpart of float4_vector
(the same stream shape: two vectors in, one out). Shared by baseline_saxpy_torch.py (eager, two ops) and
the optimized_saxpy_torch_* variants (one pass over memory).

a = 2.0 on purpose: a power of two makes a * x exact, so the fused form (one FMA-contracted kernel) and the
eager form (a rounded product, then a rounded sum) produce identical bits, and verification compares
with the default fp32 tolerance, no loosening."""

import aisp

N = (1 << 24) + 1  # 64 MiB per vector (3.8x H100's 50 MB L2), off a multiple of 4 like float4_vector
A = 2.0


class SaxpyTorchBase(aisp.Benchmark):
    """The pair's workload and buffers; each variant adds only benchmark_fn() (and its own setup extras)."""

    def workload(self):
        # Minimum traffic: x and y read once, out written once.
        return aisp.Workload(params={"n": N}, precision="f32", bytes=3.0 * 4 * N, flops=2.0 * N, items=float(N),
                             item_unit="elements")

    def setup(self):
        n = self.param("n")
        self.x = self.input("x", "f32", (n,))
        self.y = self.input("y", "f32", (n,))
        self.out = self.output("out", "f32", (n,))
