#!/usr/bin/env bash
# GPU (label gpu): Python pairs through the real harness (issue 23). `aisp bench run` on the ch07
# saxpy_torch pair (eager, fused, Triton, torch.compile, and its CUDA C++ variant) and the Python validity fixtures
# (tests/validity_python): every honest variant verified with every check passed, every cheat flagged as
# the table below says. Skips (77) with the reason when there is no GPU or python3 has no torch/triton.
# $AISP_E2E_KEEP: a folder to keep the run's JSON and worker logs in.
set -u
aisp="$1"
root="$(cd "$(dirname "$0")/../.." && pwd)"
if ! "$aisp" info gpu --json >/dev/null 2>&1; then echo "SKIP: no GPU (aisp info gpu found no CUDA device)"; exit 77; fi
if ! python3 -c "import torch, triton" >/dev/null 2>&1; then echo "SKIP: python3 has no torch/triton"; exit 77; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
keep="${AISP_E2E_KEEP:-$tmp}"
mkdir -p "$keep"
"$aisp" bench run --targets ch07:saxpy_torch validity_python --iterations "${AISP_E2E_ITERATIONS:-30}" --warmup 2 \
  --json --no-db --artifacts-dir "$tmp/artifacts" >"$keep/python_pairs.json" 2>"$keep/python_pairs.stderr"
echo "bench run exit code: $?"
cp -r "$tmp"/artifacts/runs/*/logs "$keep/" 2>/dev/null || true
python3 - "$keep/python_pairs.json" <<'PY'
import json, sys

doc = json.load(open(sys.argv[1]))
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

for name in ("saxpy_torch_fused", "saxpy_torch_triton", "saxpy_torch_compiled", "saxpy_torch_cuda"):
    honest("ch07:saxpy_torch", name)
honest("validity_python:honest_fork_join", "honest_fork_join")
cheat("validity_python:cheat_cached_result", "cheat_cached_result", checks=("K2", "K3"))
cheat("validity_python:cheat_side_stream", "cheat_side_stream", checks=("K7", "K8"))
honest("validity_python:honest_host_compute", "honest_host_compute")
# The torch guards report check ids through the worker (aisp_host_finding): INVALID with the intended check.
cheat("validity_python:cheat_recompile", "cheat_recompile", checks=("K24",))
cheat("validity_python:cheat_tf32", "cheat_tf32", checks=("K16",))
# Host computation hidden under the held harness stream: the side-stream copies start before the window.
cheat("validity_python:cheat_host_compute", "cheat_host_compute", checks=("K7", "K8"))
for p in problems:
    print("FAIL:", p)
sys.exit(1 if problems else 0)
PY
