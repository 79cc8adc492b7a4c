"""`aisp profile torch`: the PyTorch profiler around ONE checked run of a variant, inside the same worker as
`bench run` (the supervisor sets $AISP_TORCH_PROFILE=<prefix> and sends setup, one check, exit; the worker
serves the protocol with --validity off, so CUPTI belongs to the profiler's Kineto, as it belongs to ncu in
`aisp worker --once`). setup() and its warm-up calls (torch.compile, Triton autotuning) run unprofiled; the
first benchmark_fn() after them, which is the check request's run on poisoned outputs, runs under
torch.profiler with CPU and CUDA activities. Written next to <prefix>:
    <prefix>.trace.json      Chrome trace (chrome://tracing, ui.perfetto.dev)
    <prefix>.torch_ops.json  the profiler's key_averages(): every op ("op", CPU side) and GPU activity ("gpu":
                             kernels, memsets, copies) with calls, self and total device (CUDA) time and CPU time,
                             sorted by self device time (schema aisp.torch_ops/1; "kind" since 2026-11-28)
The supervisor (src/cli/profile_commands.cpp, profile torch) prints the top rows and compares the check's
outputs with the baseline's."""

import json
import os
import time

ENV = "AISP_TORCH_PROFILE"
SCHEMA = "aisp.torch_ops/1"


class TorchMissing(RuntimeError):
    pass


def requested():
    """The output prefix the supervisor asked for, or None (the ordinary worker)."""
    prefix = os.environ.get(ENV, "")
    return prefix or None


def _us(event, *names):
    """The first of `names` the event has, in microseconds (torch renamed cuda_* to device_* in 2.4)."""
    for name in names:
        value = getattr(event, name, None)
        if value is not None:
            return float(value)
    return 0.0


def _kind(event):
    """"gpu" for an activity on the device (a kernel, memset, memcpy: the profiler's CUDA events), "op" for a
    CPU-side op (aten::mm, a Triton launcher) whose self device time is that of the kernels it launched: the
    same GPU time appears once as each, so totals count the "gpu" rows only."""
    device_type = getattr(event, "device_type", None)
    if device_type is None:
        return "op"
    return "op" if str(device_type).rsplit(".", 1)[-1] == "CPU" else "gpu"


def op_rows(key_averages):
    """key_averages() as plain rows, largest self device time first (then self CPU time)."""
    rows = []
    for e in key_averages:
        rows.append({
            "name": str(e.key),
            "kind": _kind(e),
            "calls": int(e.count),
            "self_device_us": _us(e, "self_device_time_total", "self_cuda_time_total"),
            "device_us": _us(e, "device_time_total", "cuda_time_total"),
            "self_cpu_us": _us(e, "self_cpu_time_total"),
            "cpu_us": _us(e, "cpu_time_total"),
        })
    rows.sort(key=lambda r: (-r["self_device_us"], -r["self_cpu_us"], r["name"]))
    return rows


def summary(rows, torch_version, trace, wall_ms):
    return {
        "schema": SCHEMA,
        "torch_version": torch_version,
        "trace": trace,
        "wall_ms": wall_ms,
        # The GPU's own activities, each counted once (an op's self device time repeats its kernels').
        "total_self_device_us": sum(r["self_device_us"] for r in rows
                                    if r.get("kind") == "gpu" or not any(x.get("kind") == "gpu" for x in rows)),
        "ops": rows,
    }


class TorchProfiler:
    """Profiles the first call handed to profile_once(); later calls run as they are."""

    def __init__(self, torch, prefix):
        if torch is None:
            raise TorchMissing("aisp profile torch needs PyTorch, and this interpreter cannot import torch "
                               "(install it, or point $AISP_PYTHON at an interpreter that has it)")
        self.torch, self.prefix, self.done = torch, prefix, False

    def profile_once(self, call):
        if self.done:
            call()
            return
        self.done = True
        from torch.profiler import ProfilerActivity, profile  # noqa: deferred: only a profiling worker needs it
        torch = self.torch
        start = time.perf_counter()
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            call()
            # Every kernel of the run has finished before the trace closes (the check request would sync
            # after the run anyway; outside the trace its kernels would be missing).
            torch.cuda.synchronize()
        wall_ms = (time.perf_counter() - start) * 1e3
        trace = self.prefix + ".trace.json"
        prof.export_chrome_trace(trace)
        doc = summary(op_rows(prof.key_averages()), str(torch.__version__), trace, wall_ms)
        tmp = self.prefix + ".torch_ops.json.tmp"
        with open(tmp, "w") as f:
            json.dump(doc, f, indent=1)
        os.replace(tmp, self.prefix + ".torch_ops.json")
