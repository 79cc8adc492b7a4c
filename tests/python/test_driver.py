"""aisp.driver / aisp.worker without a GPU: a benchmark file loaded, its declarations read, setup() with
its warm-up calls, benchmark_fn(), teardown() against a stand-in harness, and failures turned into the
messages the worker reports. Torch-free benchmarks run as they would in the worker."""

import contextlib
import json
import os
import sys
import tempfile
import textwrap
import types
import unittest

from aisp import worker
from aisp.buffers import DeviceBuffer
from aisp.driver import Driver
from aisp.loader import LoadError


class StandInHarness:
    """The C++ Context as the driver sees it: declarations recorded, memory as Python lists."""

    def _buffer(self, name, dtype, shape):
        self.memory[name] = [0.0] * (shape[0] if shape else 1)
        return DeviceBuffer(name, 0x1000 * (len(self.memory)), dtype, shape)

    def input(self, name, dtype, shape, fill, role):
        self.declared.append(("input", name, dtype, shape, fill.kind, role))
        return self._buffer(name, dtype, shape)

    def output(self, name, dtype, shape):
        self.declared.append(("output", name, dtype, shape))
        return self._buffer(name, dtype, shape)

    def scratch(self, name, nbytes):
        return DeviceBuffer(name, 0x9000, "u8", (nbytes,))

    def param(self, name):
        return {"n": 4}[name]

    def stream_handle(self):
        return 0xABC

    def finding(self, check, detail):
        self.findings.append((check, detail))

    findings = None

    def __init__(self):
        self.declared = []
        self.memory = {}
        self.findings = []


BENCH = """
    import aisp
    from aisp.declarations import int_range
    from helper_for_test import SCALE  # a module beside the benchmark file

    class Scale(aisp.Benchmark):
        warmup_calls = 2
        def __init__(self):
            self.calls = []
        def workload(self):
            return aisp.Workload(params={"n": 4}, precision="i32", bytes=32, items=4)
        def setup(self):
            n = self.param("n")
            self.x = self.input("x", "i32", (n,), fill=int_range(0, 9))
            self.out = self.output("out", "i32", (n,))
            self.calls.append(("setup", self.stream))
        def benchmark_fn(self):
            self.calls.append("run")
            if self.fail:
                raise ValueError("boom")
        fail = False
        def teardown(self):
            self.calls.append("teardown")

    def get_benchmark():
        return Scale()
"""


class DriverTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        with open(os.path.join(self.dir.name, "helper_for_test.py"), "w") as f:
            f.write("SCALE = 3\n")
        self.path = self.write("optimized_scale.py", BENCH)

    def write(self, name, text):
        path = os.path.join(self.dir.name, name)
        with open(path, "w") as f:
            f.write(textwrap.dedent(text))
        return path

    def test_create_setup_run_teardown(self):
        d = Driver(self.path)
        decl = json.loads(d.create())
        self.assertEqual(decl["workload"]["precision"], "i32")
        h = StandInHarness()
        d.setup(h)
        self.assertEqual(h.declared, [("input", "x", "i32", (4,), "int_range", "dynamic"), ("output", "out", "i32", (4,))])
        # setup() then its two warm-up calls, all with the harness stream (a raw handle without torch).
        self.assertEqual(d.bench.calls, [("setup", 0xABC), "run", "run"])
        self.assertIsInstance(d.bench.out, DeviceBuffer)  # no torch here: the description itself
        d.run(h)
        d.teardown(h)
        self.assertEqual(d.bench.calls[-2:], ["run", "teardown"])

    def test_files_that_are_not_benchmarks(self):
        cases = {"no_factory.py": "x = 1\n", "wrong_type.py": "def get_benchmark():\n    return object()\n"}
        for name, text in cases.items():
            with self.assertRaises(LoadError, msg=name):
                Driver(self.write(name, text)).create()
        with self.assertRaises(LoadError):
            Driver(os.path.join(self.dir.name, "missing.py")).create()


def fake_torch(counters):
    """Enough of torch for the driver: flags, streams, tensors over harness buffers, dynamo's counters."""
    t = types.SimpleNamespace()
    t.backends = types.SimpleNamespace(
        cuda=types.SimpleNamespace(matmul=types.SimpleNamespace(allow_tf32=False)),
        cudnn=types.SimpleNamespace(allow_tf32=True, benchmark=False))
    t.get_float32_matmul_precision = lambda: "highest"
    t.are_deterministic_algorithms_enabled = lambda: False
    state = {"current": types.SimpleNamespace(cuda_stream=0)}

    @contextlib.contextmanager
    def stream(s):
        before, state["current"] = state["current"], s
        try:
            yield
        finally:
            state["current"] = before
    t.cuda = types.SimpleNamespace(ExternalStream=lambda h: types.SimpleNamespace(cuda_stream=h), stream=stream,
                                   current_stream=lambda: state["current"])
    t.as_tensor = lambda buf, device: types.SimpleNamespace(data_ptr=lambda: buf.data, buf=buf)
    t.multithreaded_backward = [True]

    @contextlib.contextmanager
    def set_multithreading_enabled(mode):
        t.multithreaded_backward.append(mode)
        try:
            yield
        finally:
            t.multithreaded_backward.pop()
    t.autograd = types.SimpleNamespace(set_multithreading_enabled=set_multithreading_enabled)
    sys.modules["torch._dynamo.utils"] = types.SimpleNamespace(counters=counters)
    return t


GUARDED = """
    import sys
    import aisp

    class Guarded(aisp.Benchmark):
        warmup_calls = 2
        mode = None
        def __init__(self):
            self.seen = []
        def workload(self):
            return aisp.Workload(params={"n": 4}, precision="f32", bytes=32, items=4)
        def setup(self):
            self.out = self.output("out", "f32", (4,))
            if self.mode == "tf32":
                self.torch_module.backends.cuda.matmul.allow_tf32 = True
        def benchmark_fn(self):
            self.seen.append((self.torch_module.cuda.current_stream().cuda_stream,
                              self.torch_module.multithreaded_backward[-1]))
            # Stands for a torch.compile guard on a call counter: every call compiles a new graph.
            if self.mode == "recompile":
                c = sys.modules["torch._dynamo.utils"].counters
                c["stats"]["unique_graphs"] += 1
                c["frames"]["total"] += 1

    def get_benchmark():
        return Guarded()
"""


class GuardFindingsTest(unittest.TestCase):
    """The torch guards' findings reach the harness as check ids (K16, K24) from the calls where they
    happen, and an honest benchmark reports none."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        self.path = os.path.join(self.dir.name, "optimized_guarded.py")
        with open(self.path, "w") as f:
            f.write(textwrap.dedent(GUARDED))
        self.counters = {"stats": {"unique_graphs": 0}, "frames": {"total": 0}}
        real = sys.modules.get("torch._dynamo.utils")  # present where real torch ran torch.compile
        self.torch = fake_torch(self.counters)
        if real is not None:
            self.addCleanup(sys.modules.__setitem__, "torch._dynamo.utils", real)
        else:
            self.addCleanup(sys.modules.pop, "torch._dynamo.utils", None)

    def driver(self, mode):
        d = Driver(self.path, self.torch)
        d.create()
        d.bench.mode = mode
        d.bench.torch_module = self.torch
        return d

    def test_honest(self):
        d, h = self.driver(None), StandInHarness()
        d.setup(h)
        for _ in range(3):
            d.run(h)
        self.assertEqual(h.findings, [])
        # Every call ran on the harness stream with autograd's backward on the calling thread (K9 otherwise),
        # and both were restored afterwards.
        self.assertEqual(d.bench.seen, [(0xABC, False)] * 5)
        self.assertEqual(self.torch.cuda.current_stream().cuda_stream, 0)
        self.assertEqual(self.torch.multithreaded_backward, [True])

    def test_precision_flag_changed_in_setup_is_a_K16_finding_of_the_setup_request(self):
        d, h = self.driver("tf32"), StandInHarness()
        d.setup(h)
        self.assertEqual([c for c, _ in h.findings], ["K16"])
        self.assertIn("torch.backends.cuda.matmul.allow_tf32: False -> True", h.findings[0][1])
        d.run(h)
        d.run(h)
        self.assertEqual(len(h.findings), 1)  # still changed, not reported again

    def test_recompiles_after_warmup_are_K24_findings_and_warmup_compiles_are_not(self):
        d, h = self.driver("recompile"), StandInHarness()
        d.setup(h)  # two warm-up calls compile two graphs: allowed
        self.assertEqual(h.findings, [])
        d.run(h)
        self.assertEqual([c for c, _ in h.findings], ["K24"])
        self.assertIn("unique_graphs 2 -> 3, frames 2 -> 3", h.findings[0][1])
        d.run(h)
        self.assertEqual([c for c, _ in h.findings], ["K24", "K24"])


class FakeLib:
    def __init__(self):
        self.errors = []

    def aisp_set_error(self, message):
        self.errors.append(message.decode())


class NoDriver:
    setup = run = teardown = create = None


class CallbackTableTest(unittest.TestCase):
    def test_an_exception_in_a_callback_is_a_nonzero_return_with_its_message(self):
        lib = FakeLib()
        table = worker.CallbackTable(lib, NoDriver())

        def failing(harness):
            raise ZeroDivisionError("division by zero")
        stderr, sys.stderr = sys.stderr, open(os.devnull, "w")
        try:
            rc = table._host_call(failing)(None, 0)
        finally:
            sys.stderr.close()
            sys.stderr = stderr
        self.assertEqual(rc, 1)
        self.assertEqual(len(lib.errors), 1)
        self.assertRegex(lib.errors[0], r"^ZeroDivisionError: division by zero \(test_driver.py:\d+ in failing\)$")

    def test_a_successful_callback_returns_zero(self):
        table = worker.CallbackTable(FakeLib(), NoDriver())
        seen = []
        self.assertEqual(table._host_call(seen.append)(None, 0), 0)
        self.assertEqual(len(seen), 1)

    def test_arguments(self):
        a = worker.parse_args(["--benchmark", "ch07/baseline_x.py", "--validity", "off"])
        self.assertEqual((a.benchmark, a.validity, a.in_fd, a.out_fd), ("ch07/baseline_x.py", "off", 3, 4))


if __name__ == "__main__":
    unittest.main()


class LoadFailureTest(unittest.TestCase):
    def test_a_missing_runtime_library_is_the_protocols_first_message(self):
        import subprocess
        here = os.path.dirname(os.path.abspath(__file__))
        package = os.path.join(here, "..", "..", "python")
        r, w = os.pipe()
        env = dict(os.environ, PYTHONPATH=package)
        proc = subprocess.run([sys.executable, "-m", "aisp.worker", "--benchmark", "x.py", "--library",
                               "/nonexistent/libaisp_worker.so", "--out-fd", str(w)],
                              pass_fds=(w,), env=env, capture_output=True, timeout=60)
        os.close(w)
        with os.fdopen(r) as f:
            message = json.loads(f.readline())
        self.assertEqual(proc.returncode, 3)
        self.assertEqual((message["event"], message["kind"]), ("error", "load"))
        self.assertIn("libaisp_worker.so", message["error"])
