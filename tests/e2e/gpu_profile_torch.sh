#!/usr/bin/env bash
# GPU (label gpu): `aisp profile torch` on a real Python pair (issue 23): the PyTorch profiler around one checked
# run of each variant, in the worker `bench run` uses. Asserts exit 0, a Chrome trace per variant (JSON with
# traceEvents, kernels in it), an ops document whose top rows carry self CUDA time, the compiled variant's Triton
# kernels among its ops, and each optimized variant's outputs matching the baseline's. Prints the command's table.
# Skips (77) with the reason when there is no GPU or python3 has no torch.
# $AISP_E2E_KEEP: a folder to keep the profile directory in; $AISP_E2E_TORCH_TARGET: the target
# (default ch14:transformer_block_torch).
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
aisp="$1"
require_gpu
"${AISP_PYTHON:-python3}" -c "import torch, triton" >/dev/null 2>&1 || skip "python3 has no torch/triton"
make_tmp
keep="${AISP_E2E_KEEP:-$tmp}"
mkdir -p "$keep"
target="${AISP_E2E_TORCH_TARGET:-ch14:transformer_block_torch}"
start=$(date +%s)
"$aisp" profile torch --target "$target" --artifacts-dir "$keep" >"$tmp/out.txt" 2>&1
code=$?
cat "$tmp/out.txt"
echo "profile torch exit code: $code ($(( $(date +%s) - start )) s)"
[ "$code" -eq 0 ] || fail "profile torch exited $code"
doc=$(ls -t "$keep"/profiles/*__torch__*/torch_profile.json | head -1)
"${AISP_PYTHON:-python3}" - "$doc" <<'PY'
import json, os, sys
doc = json.load(open(sys.argv[1]))
bad = []
for v in doc["variants"]:
    name = v["variant"]
    if "error" in v:
        bad.append("%s: %s" % (name, v["error"]))
        continue
    trace = json.load(open(v["trace"]))
    events = trace.get("traceEvents", [])
    kernels = [e for e in events if e.get("cat") == "kernel"]
    ops = json.load(open(v["ops_file"]))["ops"]
    print("%s: trace %s, %.1f MB, %d events, %d kernels; %d op rows, self CUDA total %.1f us" % (
        name, os.path.basename(v["trace"]), os.path.getsize(v["trace"]) / 1e6, len(events), len(kernels), len(ops),
        v["total_self_device_us"]))
    if not kernels:
        bad.append("%s: no kernel events in the trace" % name)
    if not ops or ops[0]["self_device_us"] <= 0:
        bad.append("%s: the top op has no self CUDA time" % name)
    if "compiled" in name and not any("triton" in o["name"] for o in ops):
        bad.append("%s: no Triton kernel among the compiled variant's ops" % name)
    if name != "baseline":
        cmp = v.get("compared")
        if not isinstance(cmp, list) or not cmp or not all(c["passed"] for c in cmp):
            bad.append("%s: outputs not matched with the baseline's: %s" % (name, cmp))
if bad:
    print("FAIL:\n  " + "\n  ".join(bad))
    sys.exit(1)
print("profile torch on the GPU: ok")
PY
