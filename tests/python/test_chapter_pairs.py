"""Every Python pair in the repository (chapters/*, labs/*, tests/validity_python) is importable, its
get_benchmark() returns an aisp.Benchmark whose declarations the runtime accepts, and all Python variants of
a pair declare the same workload. Needs PyTorch (the pairs import it): skipped with the reason where it is
missing, as on CI's Debian python3. No GPU is touched: importing defines kernels, it does not launch them."""

import glob
import importlib.util
import json
import os
import re
import unittest

from aisp.declarations import declarations_json
from aisp.loader import load_benchmark

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
HAVE_TORCH = all(importlib.util.find_spec(m) is not None for m in ("torch", "triton"))


def python_variants():
    pattern = re.compile(r"^(baseline|optimized)_.+\.py$")
    folders = glob.glob(os.path.join(ROOT, "chapters", "*")) + glob.glob(os.path.join(ROOT, "labs", "*")) + [
        os.path.join(ROOT, "tests", "validity_python")]
    return sorted(p for f in folders for p in glob.glob(os.path.join(f, "*.py")) if pattern.match(os.path.basename(p)))


def example_of(path):
    """The baseline's example name a variant belongs to (the longest baseline stem it extends)."""
    folder, stem = os.path.dirname(path), os.path.basename(path)[:-3]
    baselines = [os.path.basename(b)[len("baseline_"):-3] for b in glob.glob(os.path.join(folder, "baseline_*.py"))]
    name = stem.split("_", 1)[1]
    owners = [b for b in baselines if name == b or name.startswith(b + "_")]
    return (folder, max(owners, key=len)) if owners else None


class ChapterPairsTest(unittest.TestCase):
    def test_there_are_python_pairs(self):
        self.assertTrue(any("saxpy_torch" in p for p in python_variants()))

    @unittest.skipUnless(HAVE_TORCH, "python3 has no torch/triton: the Python pairs import them (checked on the GPU machine)")
    def test_every_variant_loads_and_declares_what_its_pair_declares(self):
        workloads = {}
        for path in python_variants():
            with self.subTest(variant=os.path.relpath(path, ROOT)):
                decl = json.loads(declarations_json(load_benchmark(path)))
                key = example_of(path)
                self.assertIsNotNone(key, "no baseline owns this variant")
                first = workloads.setdefault(key, (path, decl["workload"]))
                self.assertEqual(decl["workload"], first[1], "workload differs from %s" % os.path.basename(first[0]))


if __name__ == "__main__":
    unittest.main()
