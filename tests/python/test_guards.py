"""aisp.guards with a stand-in torch: precision flags changed (a K16 finding), graphs compiled after warm-up
(a K24 finding) and the current stream left elsewhere (an error) are each reported with what changed."""

import sys
import types
import unittest

from aisp.guards import GuardViolation, TorchGuard


def fake_torch():
    t = types.SimpleNamespace()
    t.backends = types.SimpleNamespace(
        cuda=types.SimpleNamespace(matmul=types.SimpleNamespace(allow_tf32=False, allow_fp16_reduced_precision_reduction=True,
                                                                allow_bf16_reduced_precision_reduction=True)),
        cudnn=types.SimpleNamespace(allow_tf32=True, benchmark=False))
    t.precision = "highest"
    t.get_float32_matmul_precision = lambda: t.precision
    t.are_deterministic_algorithms_enabled = lambda: False
    t.current = 0x10
    t.cuda = types.SimpleNamespace(current_stream=lambda: types.SimpleNamespace(cuda_stream=t.current))
    return t


class GuardTest(unittest.TestCase):
    def test_precision_flags_changed_after_the_defaults_were_taken(self):
        torch = fake_torch()
        g = TorchGuard(torch)
        self.assertEqual(g.check_flags("setup()"), [])
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.precision = "high"
        findings = g.check_flags("setup()")
        self.assertEqual([c for c, _ in findings], ["K16"])
        self.assertRegex(findings[0][1], r"^setup\(\) changed PyTorch precision flags.*allow_tf32: False -> True.*"
                                         r"float32_matmul_precision\(\): 'highest' -> 'high'")
        # The same change seen after every later call is one finding, not one per call.
        self.assertEqual(g.check_flags("benchmark_fn()"), [])
        # A further change is a new finding; going back to the defaults is none.
        torch.backends.cudnn.benchmark = True
        self.assertEqual([c for c, _ in g.check_flags("benchmark_fn()")], ["K16"])
        torch.backends.cuda.matmul.allow_tf32, torch.precision, torch.backends.cudnn.benchmark = False, "highest", False
        self.assertEqual(g.check_flags("benchmark_fn()"), [])

    def test_graphs_compiled_after_warmup(self):
        counters = {"stats": {"unique_graphs": 1}, "frames": {"total": 1}}
        sys.modules["torch._dynamo.utils"] = types.SimpleNamespace(counters=counters)
        self.addCleanup(sys.modules.pop, "torch._dynamo.utils")
        g = TorchGuard(fake_torch())
        self.assertEqual(g.check_compiles("benchmark_fn()"), [])  # not settled yet: warm-up may compile
        g.settle_compiles()
        self.assertEqual(g.check_compiles("benchmark_fn()"), [])
        counters["stats"]["unique_graphs"] = 2
        counters["frames"]["total"] = 2
        findings = g.check_compiles("benchmark_fn()")
        self.assertEqual(len(findings), 1)
        self.assertEqual(findings[0][0], "K24")
        self.assertIn("unique_graphs 1 -> 2, frames 1 -> 2", findings[0][1])
        self.assertEqual(g.check_compiles("benchmark_fn()"), [])  # reported once
        counters["frames"]["total"] = 3  # a frame recompiled again (a new guard set): reported again
        self.assertEqual([c for c, _ in g.check_compiles("benchmark_fn()")], ["K24"])

    def test_current_stream_left_elsewhere(self):
        torch = fake_torch()
        g = TorchGuard(torch)
        g.check_stream(0x10, "benchmark_fn()")
        torch.current = 0x20
        with self.assertRaisesRegex(GuardViolation, "0x20 instead of the harness stream 0x10"):
            g.check_stream(0x10, "benchmark_fn()")

    def test_without_torch_nothing_is_checked(self):
        g = TorchGuard(None)
        self.assertEqual(g.check_flags("setup()"), [])
        g.settle_compiles()
        self.assertEqual(g.check_compiles("benchmark_fn()"), [])
        g.check_stream(1, "benchmark_fn()")


if __name__ == "__main__":
    unittest.main()
