"""What a benchmark declares besides its code (workload, tolerance, goal, requirements), checked here and
serialized to the JSON the C runtime parses strictly (runtime/c_api.h): the same fields and spellings as
the C++ API's aisp::Workload, aisp::Tolerance and aisp::Requirements (include/aisp/workload.hpp)."""

import json
import math
from dataclasses import dataclass, field
from typing import Dict

# aisp's dtype names (include/aisp/dtype.hpp) with their element sizes.
DTYPES = {"f64": 8, "f32": 4, "tf32": 4, "f16": 2, "bf16": 2, "fp8_e4m3": 1, "fp8_e5m2": 1,
          "i64": 8, "i32": 4, "i8": 1, "u8": 1}
GOALS = ("speed", "memory", "throughput", "latency")


class DeclarationError(ValueError):
    """A declaration the harness cannot accept; the message names the field."""


def check_dtype(name):
    if name not in DTYPES:
        raise DeclarationError("unknown dtype %r (one of %s)" % (name, ", ".join(sorted(DTYPES))))
    return name


@dataclass
class Workload:
    """The input signature; identical for a baseline and its variants. bytes: minimum DRAM traffic of one
    benchmark_fn() call, flops: its arithmetic, items: what the user counts (elements, tokens)."""
    params: Dict[str, int] = field(default_factory=dict)
    precision: str = "f32"
    bytes: float = 0.0
    flops: float = 0.0
    items: float = 0.0
    item_unit: str = "items"

    def to_json(self):
        for k, v in self.params.items():
            if not isinstance(k, str) or isinstance(v, bool) or not isinstance(v, int):
                raise DeclarationError("workload.params[%r] must be an int (got %r)" % (k, v))
        check_dtype(self.precision)
        for name in ("bytes", "flops", "items"):
            v = getattr(self, name)
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v) or v < 0:
                raise DeclarationError("workload.%s must be a finite number >= 0 (got %r)" % (name, v))
        return {"params": dict(self.params), "precision": self.precision, "bytes": float(self.bytes),
                "flops": float(self.flops), "items": float(self.items), "item_unit": str(self.item_unit)}


@dataclass
class Tolerance:
    """Output comparison tolerance. Negative: the dtype's default. Loosening needs a justification."""
    rtol: float = -1.0
    atol: float = -1.0
    justification: str = ""

    @staticmethod
    def by_dtype():
        return Tolerance()

    @staticmethod
    def loosened(rtol, atol, why):
        if not why:
            raise DeclarationError("a loosened tolerance needs a written justification")
        return Tolerance(float(rtol), float(atol), why)

    def to_json(self):
        return {"rtol": float(self.rtol), "atol": float(self.atol), "justification": str(self.justification)}


@dataclass
class Requirements:
    min_compute_capability: int = 0  # e.g. 90 for Hopper-only features
    gpus: int = 1
    min_memory_bytes: int = 0

    def to_json(self):
        return {"min_compute_capability": int(self.min_compute_capability), "gpus": int(self.gpus),
                "min_memory_bytes": int(self.min_memory_bytes)}


def declarations_json(bench):
    """The declarations of a benchmark object as the JSON text the runtime reads (every field present)."""
    workload = bench.workload()
    if not isinstance(workload, Workload):
        raise DeclarationError("workload() must return aisp.Workload (got %r)" % type(workload).__name__)
    tolerance = bench.tolerance()
    if not isinstance(tolerance, Tolerance):
        raise DeclarationError("tolerance() must return aisp.Tolerance (got %r)" % type(tolerance).__name__)
    goal = bench.goal()
    if goal not in GOALS:
        raise DeclarationError("goal() must be one of %s (got %r)" % (", ".join(GOALS), goal))
    requirements = bench.requirements()
    if not isinstance(requirements, Requirements):
        raise DeclarationError("requirements() must return aisp.Requirements")
    min_speedup = bench.min_speedup()
    if not isinstance(min_speedup, (int, float)) or min_speedup < 0:
        raise DeclarationError("min_speedup() must be a number >= 0 (0: the harness default)")
    percentile = bench.latency_percentile()
    if not isinstance(percentile, (int, float)) or not 0 < percentile <= 100:
        raise DeclarationError("latency_percentile() must be in (0, 100] (got %r)" % (percentile,))
    return json.dumps({"workload": workload.to_json(), "tolerance": tolerance.to_json(), "goal": goal,
                       "requirements": requirements.to_json(), "min_speedup": float(min_speedup),
                       "technique": str(bench.technique()), "informational": str(bench.informational()),
                       "latency_percentile": float(percentile)})


@dataclass(frozen=True)
class Fill:
    """How the harness fills an input: a pure function of (seed, element index), so it can refill inputs
    between samples and two workers produce identical inputs."""
    kind: str = "uniform"  # uniform [a, b), normal (mean a, stddev b), int_range [a, b]
    a: float = -1.0
    b: float = 1.0


def uniform(lo=-1.0, hi=1.0):
    return Fill("uniform", float(lo), float(hi))


def normal(mean=0.0, stddev=1.0):
    return Fill("normal", float(mean), float(stddev))


def int_range(lo, hi):
    return Fill("int_range", float(lo), float(hi))
