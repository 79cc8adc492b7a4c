"""Checks on PyTorch's own state around a benchmark's calls, which the C++ worker cannot see from outside:
precision flags (TF32 and reduced-precision reductions change the work being compared), torch.compile
recompiling after warm-up (compile time would land in timed samples, and a recompiled graph is not the
one that was verified), and the current stream left pointing elsewhere than the harness stream.

The first two are validity findings with check ids (K16: process state changed; K24: recompiled after
warm-up): the driver hands them to the C++ worker (aisp_host_finding), which puts them in the findings of
the request in progress, the same path its own checks take, so the supervisor fails the check and the
variant is INVALID. A current stream left elsewhere is a benchmark bug, not a measurement: it raises
GuardViolation and the call fails with the reason.

These run inside the benchmark's own interpreter: a benchmark that patches this module defeats them. They
are a tripwire for honest mistakes and obvious cheats; K2/K21 still judge the numerics of a TF32 downgrade."""

import sys


class GuardViolation(RuntimeError):
    pass


PRECISION_CHECK = "K16"  # process state unchanged (checks.hpp): PyTorch's flags are this process's numerics state
COMPILE_CHECK = "K24"    # no recompilation after warm-up


# (label, getter): flags that change numerics or the kernels chosen, read without importing anything new.
def _flag_getters(torch):
    b = torch.backends
    return [
        ("torch.backends.cuda.matmul.allow_tf32", lambda: b.cuda.matmul.allow_tf32),
        ("torch.backends.cudnn.allow_tf32", lambda: b.cudnn.allow_tf32),
        ("torch.get_float32_matmul_precision()", torch.get_float32_matmul_precision),
        ("torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction",
         lambda: b.cuda.matmul.allow_fp16_reduced_precision_reduction),
        ("torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction",
         lambda: b.cuda.matmul.allow_bf16_reduced_precision_reduction),
        ("torch.backends.cudnn.benchmark", lambda: b.cudnn.benchmark),
        ("torch.are_deterministic_algorithms_enabled()", torch.are_deterministic_algorithms_enabled),
    ]


def precision_flags(torch):
    out = {}
    for label, get in _flag_getters(torch):
        try:
            out[label] = get()
        except Exception:  # an attribute a torch version lacks is simply not compared
            pass
    return out


def compile_counters():
    """torch._dynamo's counters of graphs compiled, if torch.compile was ever used in this process."""
    dynamo_utils = sys.modules.get("torch._dynamo.utils")
    if dynamo_utils is None:
        return {}
    counters = getattr(dynamo_utils, "counters", {})
    return {"unique_graphs": counters.get("stats", {}).get("unique_graphs", 0),
            "frames": counters.get("frames", {}).get("total", 0)}


class TorchGuard:
    """Process defaults captured before the benchmark module is imported; compared after setup() and
    after every run(). check_flags() and check_compiles() return findings [(check id, detail)], each
    change reported once (the flags stay changed for every later call; a recompile is reported when the
    counters grow)."""

    def __init__(self, torch):
        self.torch = torch
        self.defaults = precision_flags(torch) if torch is not None else {}
        self.compiled = None
        self.reported_flags = set()

    def check_flags(self, actor):
        if self.torch is None:
            return []
        now = precision_flags(self.torch)
        changed = ["%s: %r -> %r" % (k, v, now.get(k)) for k, v in self.defaults.items() if now.get(k) != v]
        key = tuple(changed)
        if not changed or key in self.reported_flags:
            return []
        self.reported_flags.add(key)
        return [(PRECISION_CHECK, "%s changed PyTorch precision flags from the process defaults (both variants of a "
                 "pair must run with the same numerics): %s" % (actor, "; ".join(changed)))]

    def settle_compiles(self):
        """Called once warm-up is over: from here on no new graph may be compiled."""
        self.compiled = compile_counters()

    def check_compiles(self, actor):
        if self.compiled is None:
            return []
        now = compile_counters()
        grown = ["%s %d -> %d" % (k, self.compiled.get(k, 0), v) for k, v in now.items() if v > self.compiled.get(k, 0)]
        if not grown:
            return []
        self.compiled = now
        return [(COMPILE_CHECK, "%s compiled new torch.compile graphs after warm-up (a guard failed and it "
                 "recompiled, or compiled lazily): %s; compile time lands in measured runs and the graph timed "
                 "is not the one verified" % (actor, ", ".join(grown)))]

    def check_stream(self, expected_handle, actor):
        if self.torch is None:
            return
        current = self.torch.cuda.current_stream().cuda_stream
        if current != expected_handle:
            raise GuardViolation("%s left the current torch stream at 0x%x instead of the harness stream 0x%x "
                                 "(torch.cuda.set_stream outside a `with` block?)" % (actor, current, expected_handle))
