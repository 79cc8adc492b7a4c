"""What the worker does in each callback, apart from ctypes (so CI tests it with a stand-in harness):
create the benchmark, attach the harness (its stream as torch's current stream), run setup() and the
warm-up calls, run benchmark_fn(), and apply the torch guards (guards.py) after each: their findings go to
the harness (aisp_host_finding) with their check ids."""

import contextlib

from .declarations import declarations_json
from .guards import TorchGuard
from .loader import load_benchmark
from .torch_profile import TorchProfiler, requested


class Driver:
    def __init__(self, path, torch=None):
        self.path = path
        self.torch = torch
        self.guard = TorchGuard(torch)  # process defaults, before the benchmark module is imported
        self.bench = None
        self.stream = None
        self.stream_handle = 0
        # `aisp profile torch` ($AISP_TORCH_PROFILE): the first run() after setup, the check request's, runs
        # under torch.profiler (torch_profile.py). Refused here, as a load error, when torch is missing.
        prefix = requested()
        self.profiler = TorchProfiler(torch, prefix) if prefix else None

    def create(self):
        """Imports the file and returns its declarations as JSON text."""
        self.bench = load_benchmark(self.path)
        return declarations_json(self.bench)

    def _bind(self, harness):
        if self.stream is None:
            self.stream_handle = harness.stream_handle()
            # The harness stream as torch sees it; created once, in setup() (torch's lazy CUDA state is set up
            # there, where the worker expects library state to appear).
            self.stream = (self.torch.cuda.ExternalStream(self.stream_handle) if self.torch is not None
                           else self.stream_handle)
        self.bench._attach(harness, self.torch, self.stream)

    def _on_stream(self):
        """The context of every benchmark call: the harness stream as torch's current stream, and autograd's
        backward pass on this thread. By default PyTorch runs the CUDA part of a backward pass on a per-device
        worker thread; CUDA calls from a thread other than the harness's are K9, so a training step with
        loss.backward() would be INVALID for where it ran, not for what it did."""
        stack = contextlib.ExitStack()
        if self.torch is None:
            return stack
        stack.enter_context(self.torch.cuda.stream(self.stream))
        single_threaded = getattr(getattr(self.torch, "autograd", None), "set_multithreading_enabled", None)
        if single_threaded is not None:  # torch >= 2.0
            stack.enter_context(single_threaded(False))
        return stack

    def _call(self, fn, actor):
        with self._on_stream():
            fn()
            # Still inside the harness stream's `with`: the call must not have moved torch's current stream.
            self.guard.check_stream(self.stream_handle, actor)

    @staticmethod
    def _report(harness, findings):
        for check, detail in findings:
            harness.finding(check, detail)

    def setup(self, harness):
        self._bind(harness)
        self._call(self.bench.setup, "setup()")
        for _ in range(int(self.bench.warmup_calls)):
            self._call(self.bench.benchmark_fn, "a warm-up benchmark_fn() call")
        # Reported with the setup reply: a flag changed by loading, setup() or the warm-up is process state
        # the benchmark changed (K16), as a static constructor's is for a plugin.
        self._report(harness, self.guard.check_flags("setup()"))
        self.guard.settle_compiles()

    def run(self, harness):
        self._bind(harness)
        if self.profiler is not None:
            self.profiler.profile_once(lambda: self._call(self.bench.benchmark_fn, "benchmark_fn()"))
        else:
            self._call(self.bench.benchmark_fn, "benchmark_fn()")
        self._report(harness, self.guard.check_flags("benchmark_fn()"))
        self._report(harness, self.guard.check_compiles("benchmark_fn()"))

    def teardown(self, harness):
        self._bind(harness)
        self._call(self.bench.teardown, "teardown()")
