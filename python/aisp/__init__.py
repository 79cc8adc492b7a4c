"""aisp for Python benchmarks: PyTorch/Triton pairs under the same worker, timing engine and checks as
the CUDA C++ plugins. The measurement runtime stays C++ (libaisp_worker.so, loaded with ctypes by
aisp.worker); this package only adapts a benchmark object to it. Pure Python >= 3.9, torch optional
(imported only when present)."""

from .benchmark import Benchmark
from .declarations import DTYPES, Requirements, Tolerance, Workload

__all__ = ["Benchmark", "DTYPES", "Requirements", "Tolerance", "Workload"]
