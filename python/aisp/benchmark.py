"""The base class of a Python benchmark: the shape the seed's users know (get_benchmark() returning an
object with setup() and benchmark_fn()), plus the declarations verification needs. The harness owns
every input and output: setup() declares them (self.input / self.output return tensors over the
harness's memory) and benchmark_fn() writes its result into the output tensors in place.

    class SaxpyEager(aisp.Benchmark):
        def workload(self):
            return aisp.Workload(params={"n": N}, precision="f32", bytes=3 * 4 * N, flops=2 * N, items=N)
        def setup(self):
            self.x = self.input("x", "f32", (N,))
            self.y = self.input("y", "f32", (N,))
            self.out = self.output("out", "f32", (N,))
        def benchmark_fn(self):
            torch.add(self.y, self.x, alpha=2.0, out=self.out)

    def get_benchmark():
        return SaxpyEager()

benchmark_fn() runs on the harness stream (torch's current stream inside the call); work on any other
stream must be joined back to it before returning."""

from .buffers import DeviceBuffer, as_tensor
from .declarations import Fill, Requirements, Tolerance, check_dtype, uniform


class Benchmark:
    # benchmark_fn() calls at the end of setup(): torch.compile, Triton autotuning, cuBLAS workspaces and
    # lazy initialization happen there, outside every verified and timed run.
    warmup_calls = 1

    # --- declarations (override) ---
    def workload(self):
        raise NotImplementedError("a benchmark declares its workload(): return aisp.Workload(...)")

    def tolerance(self):
        return Tolerance.by_dtype()

    def goal(self):
        return "speed"

    def requirements(self):
        return Requirements()

    def latency_percentile(self):
        """goal() "latency": the percentile of request latencies judged (request traces are not yet
        reachable from Python, so this only mirrors the C++ API)."""
        return 99.0

    def min_speedup(self):
        return 0.0

    def technique(self):
        return ""

    def informational(self):
        return ""

    # --- the benchmark (override) ---
    def setup(self):
        pass

    def benchmark_fn(self):
        raise NotImplementedError("a benchmark implements benchmark_fn()")

    def teardown(self):
        pass

    # --- the harness (call from setup() and benchmark_fn()) ---
    def input(self, name, dtype, shape, fill=None, role="dynamic"):
        """A harness-filled input. role "dynamic": refilled between samples (outputs must follow it);
        "static": weights filled once before setup(). Returns a tensor (a DeviceBuffer without torch)."""
        fill = fill if fill is not None else uniform()
        if not isinstance(fill, Fill):
            raise TypeError("fill must be aisp.declarations.uniform/normal/int_range(...)")
        return self._wrap(self._harness.input(name, check_dtype(dtype), tuple(shape), fill, role))

    def output(self, name, dtype, shape):
        """A harness output: poisoned before every checked run and compared in full with the baseline's."""
        return self._wrap(self._harness.output(name, check_dtype(dtype), tuple(shape)))

    def scratch(self, name, nbytes):
        """Workspace memory (a u8 tensor): zeroed once, never verified."""
        return self._wrap(self._harness.scratch(name, int(nbytes)))

    def param(self, name):
        """A workload parameter, so the code sizes itself from the one declaration."""
        return self._harness.param(name)

    @property
    def stream(self):
        """The harness stream (a torch.cuda.ExternalStream; its raw handle without torch)."""
        return self._stream

    @property
    def device(self):
        return self._torch.device("cuda") if self._torch is not None else "cuda"

    # --- wiring, used by the worker ---
    _harness = None
    _torch = None
    _stream = None

    def _attach(self, harness, torch, stream):
        self._harness, self._torch, self._stream = harness, torch, stream

    def _wrap(self, buffer):
        if self._torch is None or not isinstance(buffer, DeviceBuffer):
            return buffer
        return as_tensor(buffer, self._torch)
