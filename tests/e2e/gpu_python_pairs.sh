#!/usr/bin/env bash
# GPU (label gpu): Python pairs through the real harness (issue 23). `aisp bench run` on every Python pair of the
# chapters (ch07 saxpy_torch with its CUDA C++ variant, ch09/ch12/ch13/ch14/ch18 *_torch pairs, the mixed
# fidelity:cublas_parity) and the Python validity fixtures (tests/validity_python): every honest variant verified with
# every check passed, every cheat INVALID with the check ids listed below. Prints the parity line (one cuBLAS GEMM
# from C++ and from Python) and the memory-goal pair's peaks. Skips (77) with the reason when there is no GPU or
# python3 has no torch/triton.
# $AISP_E2E_KEEP: a folder to keep the run's JSON and worker logs in; $AISP_E2E_TARGETS: selectors to run instead
# of all (e.g. "fidelity:cublas_parity validity_python"); $AISP_E2E_ITERATIONS: --iterations (30).
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
aisp="$1"
require_gpu
python3 -c "import torch, triton" >/dev/null 2>&1 || skip "python3 has no torch/triton"
make_tmp
keep="${AISP_E2E_KEEP:-$tmp}"
mkdir -p "$keep"
# Every Python pair of the chapters (issue 23) and the validity fixtures; $AISP_E2E_TARGETS narrows it.
pairs="ch07:saxpy_torch ch09:matmul_torch fidelity:cublas_parity ch12:cuda_graph_torch ch13:allocator_torch
  ch13:activation_checkpoint_torch ch13:scaled_mm_torch ch14:transformer_block_torch ch14:add_rmsnorm_torch
  ch14:swiglu_torch ch18:attention_torch ch18:gqa_decode_torch"
targets="${AISP_E2E_TARGETS:-$pairs validity_python}"
# shellcheck disable=SC2086  # one selector per word
"$aisp" bench run --targets $targets --iterations "${AISP_E2E_ITERATIONS:-30}" --warmup 2 \
  --json --no-db --artifacts-dir "$tmp/artifacts" >"$keep/python_pairs.json" 2>"$keep/python_pairs.stderr"
echo "bench run exit code: $?"
# The kernel torch.matmul runs for the parity pair's GEMM (the C++ variant's call is the same cublasGemmEx).
python3 - <<'PY' 2>&1 | tail -3
import torch
a = torch.ones((8192, 8192), dtype=torch.bfloat16, device="cuda")
torch.matmul(a, a)
with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
    torch.matmul(a, a)
    torch.cuda.synchronize()
print("cublas_parity: torch.matmul ran", sorted({e.name for e in prof.events() if e.device_type.name == "CUDA"}))
PY
cp -r "$tmp"/artifacts/runs/*/logs "$keep/" 2>/dev/null || true
python3 - "$keep/python_pairs.json" $targets <<'PY'
import json, sys

doc = json.load(open(sys.argv[1]))
targets_arg = sys.argv[2:]
targets = {"%s:%s" % (c["chapter"], b["example"]): b for c in doc["results"] for b in c["benchmarks"]}

def failed(v):
    return sorted(c["id"] for c in v.get("checks", []) if not c.get("passed", False))

problems = []
for tid, t in sorted(targets.items()):
    for v in [t["baseline"]] + t.get("optimizations", []):
        print("%-40s %-22s status=%-20s verdict=%-9s speedup=%6.3f median_ms=%.4f failed=%s %s" % (
            tid, v["name"], v.get("status"), v.get("verdict", ""), v.get("speedup", 0),
            v.get("time_ms") or 0, failed(v),
            ("error=" + v["error"][:300]) if v.get("error") else ""))

def expect(cond, what):
    if not cond:
        problems.append(what)

def variant(tid, name):
    t = targets.get(tid)
    expect(t is not None, tid + " missing from the results")
    if t is None:
        return {}
    for v in t.get("optimizations", []):
        if v["name"] == name:
            return v
    expect(False, "%s: variant %s missing (target status %s: %s)" % (tid, name, t.get("status"), t.get("error", "")))
    return {}

def honest(tid, name):
    v = variant(tid, name)
    base = targets.get(tid, {}).get("baseline", {})
    expect(base.get("status") == "succeeded" and not failed(base), "%s baseline: %s %s" % (tid, base.get("status"), failed(base)))
    expect(v.get("status") in ("succeeded", "failed_no_speedup"), "%s %s: status %s" % (tid, name, v.get("status")))
    expect(v.get("checks") and not failed(v), "%s %s: failed checks %s" % (tid, name, failed(v)))

def cheat(tid, name, checks=()):
    """Caught by every one of `checks` (status invalid / failed_verification, verdict INVALID)."""
    v = variant(tid, name)
    caught = v.get("status") in ("invalid", "failed_verification") and all(c in failed(v) for c in checks)
    expect(caught, "%s %s not caught as expected (%s): status %s failed %s error %s" % (
        tid, name, "+".join(checks), v.get("status"), failed(v), v.get("error")))

selected = set(targets_arg)

def wanted(tid):
    return tid in selected or tid.split(":")[0] in selected

HONEST = {
    "ch07:saxpy_torch": ("saxpy_torch_fused", "saxpy_torch_triton", "saxpy_torch_compiled", "saxpy_torch_cuda"),
    "ch09:matmul_torch": ("matmul_torch_cublas",),
    "fidelity:cublas_parity": ("cublas_parity_torch",),
    "ch12:cuda_graph_torch": ("cuda_graph_torch",),
    "ch13:allocator_torch": ("allocator_torch",),
    "ch13:activation_checkpoint_torch": ("activation_checkpoint_torch",),
    "ch13:scaled_mm_torch": ("scaled_mm_torch",),
    "ch14:transformer_block_torch": ("transformer_block_torch_compiled",),
    "ch14:add_rmsnorm_torch": ("add_rmsnorm_torch_triton",),
    "ch14:swiglu_torch": ("swiglu_torch_triton",),
    "ch18:attention_torch": ("attention_torch_sdpa", "attention_torch_flex"),
    "ch18:gqa_decode_torch": ("gqa_decode_torch_sdpa",),
}
for tid, names in HONEST.items():
    if wanted(tid):
        for name in names:
            honest(tid, name)
# Issue 23's parity figure: one cuBLAS GEMM launched from C++ (baseline) and from Python.
if wanted("fidelity:cublas_parity"):
    p = targets.get("fidelity:cublas_parity", {})
    b, o = p.get("baseline", {}), variant("fidelity:cublas_parity", "cublas_parity_torch")
    if b.get("time_ms") and o.get("time_ms"):
        print("PARITY fidelity:cublas_parity: C++ %.4f ms, Python %.4f ms, Python/C++ = %.4f (speedup %.4f [%.4f, %.4f], %s)" % (
            b["time_ms"], o["time_ms"], o["time_ms"] / b["time_ms"], o.get("speedup", 0), o.get("ci_low", 0),
            o.get("ci_high", 0), o.get("verdict")))
if wanted("ch13:activation_checkpoint_torch"):
    o = variant("ch13:activation_checkpoint_torch", "activation_checkpoint_torch")
    print("MEMORY ch13:activation_checkpoint_torch: peak %s MB (baseline %s MB), savings %s%%, verdict %s" % (
        o.get("memory_mb"), targets.get("ch13:activation_checkpoint_torch", {}).get("baseline", {}).get("memory_mb"),
        o.get("memory_savings_pct"), o.get("verdict")))
if not wanted("validity_python"):
    for p in problems:
        print("FAIL:", p)
    sys.exit(1 if problems else 0)
honest("validity_python:honest_fork_join", "honest_fork_join")
cheat("validity_python:cheat_cached_result", "cheat_cached_result", checks=("K2", "K3"))
cheat("validity_python:cheat_side_stream", "cheat_side_stream", checks=("K7", "K8"))
honest("validity_python:honest_host_compute", "honest_host_compute")
honest("validity_python:honest_autograd", "honest_autograd")  # backward on the harness thread: no K9
# The torch guards report check ids through the worker (aisp_host_finding): INVALID with the intended check.
cheat("validity_python:cheat_recompile", "cheat_recompile", checks=("K24",))
cheat("validity_python:cheat_tf32", "cheat_tf32", checks=("K16",))
# Host computation hidden under the held harness stream: the side-stream copies start before the window.
cheat("validity_python:cheat_host_compute", "cheat_host_compute", checks=("K7", "K8"))
for p in problems:
    print("FAIL:", p)
sys.exit(1 if problems else 0)
PY
