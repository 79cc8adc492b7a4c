"""aisp.torch_profile without a GPU: the rows `aisp profile torch` reads (key_averages() of the profiler, in self
device time order, torch's old and new field names), and the refusal when a profile is asked for and torch is
missing (the worker reports it as its load error)."""

import os
import types
import unittest
from unittest import mock

from aisp import torch_profile
from aisp.driver import Driver


def event(key, count, self_dev, dev, self_cpu, cpu, old_names=False, device_type="DeviceType.CPU"):
    e = types.SimpleNamespace(key=key, count=count, self_cpu_time_total=self_cpu, cpu_time_total=cpu,
                              device_type=device_type)
    if old_names:  # torch < 2.4: cuda_*
        e.self_cuda_time_total, e.cuda_time_total = self_dev, dev
    else:
        e.self_device_time_total, e.device_time_total = self_dev, dev
    return e


class TorchProfileRows(unittest.TestCase):
    def test_rows_sorted_by_self_device_time_then_cpu(self):
        rows = torch_profile.op_rows([
            event("aten::add", 2, 10.0, 10.0, 5.0, 8.0),
            event("sm90_gemm", 3, 200.0, 200.0, 0.0, 0.0, device_type="DeviceType.CUDA"),
            event("elementwise_kernel", 2, 10.0, 10.0, 0.0, 0.0, device_type="DeviceType.CUDA"),
            event("aten::view", 4, 0.0, 0.0, 7.0, 7.0),
            event("aten::mm", 3, 0.0, 200.0, 20.0, 40.0, old_names=True),
        ])
        self.assertEqual([r["name"] for r in rows],
                         ["sm90_gemm", "aten::add", "elementwise_kernel", "aten::mm", "aten::view"])
        self.assertEqual([r["kind"] for r in rows], ["gpu", "op", "gpu", "op", "op"])
        self.assertEqual(rows[3]["device_us"], 200.0)  # read from cuda_time_total
        self.assertEqual(rows[0]["calls"], 3)
        doc = torch_profile.summary(rows, "2.11.0", "/x.trace.json", 12.5)
        self.assertEqual(doc["schema"], "aisp.torch_ops/1")
        # The GPU rows only: aten::add's 10 us are elementwise_kernel's, counted once.
        self.assertEqual(doc["total_self_device_us"], 210.0)

    def test_without_device_types_every_row_counts(self):
        e = event("aten::add", 1, 5.0, 5.0, 1.0, 1.0)
        del e.device_type
        rows = torch_profile.op_rows([e])
        self.assertEqual(rows[0]["kind"], "op")
        self.assertEqual(torch_profile.summary(rows, "x", "t", 1.0)["total_self_device_us"], 5.0)

    def test_a_profile_without_torch_is_refused(self):
        with mock.patch.dict(os.environ, {torch_profile.ENV: "/tmp/prefix"}):
            with self.assertRaises(torch_profile.TorchMissing) as ctx:
                Driver("unused.py", None)
        self.assertIn("needs PyTorch", str(ctx.exception))

    def test_the_ordinary_worker_does_not_profile(self):
        with mock.patch.dict(os.environ, {}, clear=False):
            os.environ.pop(torch_profile.ENV, None)
            self.assertIsNone(Driver("unused.py", None).profiler)

    def test_only_the_first_run_is_profiled(self):
        calls = []
        p = torch_profile.TorchProfiler(object(), "/tmp/prefix")
        p.done = True  # the profiled run happened: later calls run as they are
        p.profile_once(lambda: calls.append(1))
        self.assertEqual(calls, [1])


if __name__ == "__main__":
    unittest.main()
