"""add_rmsnorm_torch: residual add followed by RMSNorm, the step between every pair of sublayers in a
Llama-style model: h = x + r, y = h / sqrt(mean(h^2) + eps) * w, 8192 rows of 4096 in FP32. Shared by
baseline_add_rmsnorm_torch.py (the torch ops a model writes: six eager kernels) and
optimized_add_rmsnorm_torch_triton.py (one Triton kernel that replaces them, a row per program).

Tolerance: the fp32 default. The add and the products are the same operations in both variants; only the
sum of squares is accumulated in another order (a tree in registers vs torch's reduction), and rsqrt may
differ by an ulp: ~1e-7 relative on the row's scale, applied to every element of the row alike (so near-zero
outputs stay near zero), well inside rtol 1e-5."""

import aisp

ROWS, COLS = 8192, 4096
EPS = 1e-6


class AddRmsnormTorchBase(aisp.Benchmark):
    def workload(self):
        rows, cols = float(ROWS), float(COLS)
        # x and r read once, y written once, w (16 KiB) read once per row but cached.
        return aisp.Workload(params={"rows": ROWS, "cols": COLS}, precision="f32", bytes=3.0 * 4 * rows * cols + 4 * cols,
                             flops=5.0 * rows * cols, items=rows, item_unit="rows")

    def setup(self):
        rows, cols = self.param("rows"), self.param("cols")
        self.x = self.input("x", "f32", (rows, cols))
        self.r = self.input("r", "f32", (rows, cols))
        self.w = self.input("w", "f32", (cols,), role="static")
        self.y = self.output("y", "f32", (rows, cols))
