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
    # A mixed pair's baseline may be compiled (baseline_<x>.cu beside optimized_<x>_<suffix>.py).
    baselines = [os.path.splitext(os.path.basename(b))[0][len("baseline_"):]
                 for ext in ("py", "cu") for b in glob.glob(os.path.join(folder, "baseline_*." + ext))]
    name = stem.split("_", 1)[1]
    owners = [b for b in baselines if name == b or name.startswith(b + "_")]
    return (folder, max(owners, key=len)) if owners else None


class ChapterPairsTest(unittest.TestCase):
    def test_there_are_python_pairs(self):
        self.assertTrue(any("saxpy_torch" in p for p in python_variants()))

    def test_every_variant_has_a_baseline_and_a_get_benchmark(self):
        """Without torch: each Python variant file belongs to a pair and defines get_benchmark() (parsed, not
        imported), so a misnamed or half-written file is caught on CI too."""
        import ast
        for path in python_variants():
            with self.subTest(variant=os.path.relpath(path, ROOT)):
                self.assertIsNotNone(example_of(path), "no baseline owns this variant")
                with open(path) as f:
                    tree = ast.parse(f.read(), path)
                names = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
                self.assertIn("get_benchmark", names)

    def check_declarations(self):
        """Every variant loads, its declarations pass aisp's checks, and the variants of one pair declare the
        same workload and tolerance (the harness refuses a pair that does not; K23)."""
        contracts = {}
        for path in python_variants():
            with self.subTest(variant=os.path.relpath(path, ROOT)):
                decl = json.loads(declarations_json(load_benchmark(path)))
                key = example_of(path)
                self.assertIsNotNone(key, "no baseline owns this variant")
                contract = {"workload": decl["workload"], "tolerance": decl["tolerance"]}
                first = contracts.setdefault(key, (path, contract))
                self.assertEqual(contract, first[1], "workload/tolerance differ from %s" % os.path.basename(first[0]))
                if decl["tolerance"]["rtol"] >= 0:
                    self.assertTrue(decl["tolerance"]["justification"], "a loosened tolerance needs its reason")
        return contracts

    @unittest.skipUnless(HAVE_TORCH, "python3 has no torch/triton: the Python pairs import them (checked on the GPU machine)")
    def test_every_variant_loads_and_declares_what_its_pair_declares(self):
        self.check_declarations()

    @unittest.skipIf(HAVE_TORCH, "torch is installed: the test above imports the pairs for real")
    def test_declarations_with_a_stand_in_torch(self):
        """CI (no torch): the pairs imported against a stub of torch/triton (tests/python/torch_stub.py), so
        their module-level code and every declaration are still checked."""
        from torch_stub import stub_torch
        with stub_torch():
            contracts = self.check_declarations()
        self.assertGreaterEqual(len(contracts), 2)


if __name__ == "__main__":
    unittest.main()
