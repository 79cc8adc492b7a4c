"""aisp.declarations: what a Python benchmark declares, checked and written in the runtime's strict JSON."""

import json
import unittest

import aisp
from aisp.declarations import DeclarationError, declarations_json


class Declared(aisp.Benchmark):
    def workload(self):
        return aisp.Workload(params={"n": 8}, precision="bf16", bytes=48, flops=8, items=8, item_unit="elements")

    def tolerance(self):
        return aisp.Tolerance.loosened(1e-2, 1e-3, "bf16 accumulation order")

    def goal(self):
        return "memory"

    def technique(self):
        return "fused"


class DeclarationsTest(unittest.TestCase):
    def test_every_field_the_runtime_requires_is_written(self):
        d = json.loads(declarations_json(Declared()))
        self.assertEqual(set(d), {"workload", "tolerance", "goal", "requirements", "min_speedup", "technique",
                                  "informational", "latency_percentile"})
        self.assertEqual(d["workload"], {"params": {"n": 8}, "precision": "bf16", "bytes": 48.0, "flops": 8.0,
                                         "items": 8.0, "item_unit": "elements"})
        self.assertEqual(d["tolerance"], {"rtol": 0.01, "atol": 0.001, "justification": "bf16 accumulation order"})
        self.assertEqual(d["requirements"], {"min_compute_capability": 0, "gpus": 1, "min_memory_bytes": 0})
        self.assertEqual((d["goal"], d["min_speedup"], d["technique"]), ("memory", 0.0, "fused"))

    def test_defaults_are_the_cpp_apis(self):
        class Minimal(aisp.Benchmark):
            def workload(self):
                return aisp.Workload(params={"n": 1})
        d = json.loads(declarations_json(Minimal()))
        self.assertEqual(d["tolerance"], {"rtol": -1.0, "atol": -1.0, "justification": ""})
        self.assertEqual(d["goal"], "speed")

    def test_mistakes_are_errors_naming_the_field(self):
        cases = {
            "precision": aisp.Workload(precision="float32"),
            "params": aisp.Workload(params={"n": 2.5}),
            "bytes": aisp.Workload(bytes=float("nan")),
        }
        for what, declared in cases.items():
            class Bad(aisp.Benchmark):
                def workload(self, w=declared):
                    return w
            with self.assertRaises(DeclarationError, msg=what):
                declarations_json(Bad())
        with self.assertRaises(NotImplementedError):
            declarations_json(aisp.Benchmark())

    def test_goal_and_tolerance_are_checked(self):
        class BadGoal(Declared):
            def goal(self):
                return "fast"
        with self.assertRaises(DeclarationError):
            declarations_json(BadGoal())
        with self.assertRaises(DeclarationError):
            aisp.Tolerance.loosened(1e-2, 1e-3, "")


if __name__ == "__main__":
    unittest.main()
