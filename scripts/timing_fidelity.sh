#!/usr/bin/env bash
# Timing fidelity on a GPU machine: aisp's cold-mode median vs ncu's gpu__time_duration for the same
# kernels (tests/timing/fidelity: ~10 µs, ~50 µs and ~2 ms copies). ncu runs with --clock-control none, so both
# see the clocks as found. Usage: scripts/timing_fidelity.sh [build-dir] [out-dir]
set -uo pipefail
build=${1:-build}
out=${2:-${OUT:-$build/fidelity}}
mkdir -p "$out"
aisp="$build/aisp"
"$aisp" bench run --targets fidelity --json --artifacts-dir "$out/aisp" \
  >"$out/aisp_results.json" 2>"$out/aisp_progress.txt"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -n 1)
if [ -z "$ncu" ]; then echo "ncu not found: fidelity table not made"; exit 0; fi
# The workers are ncu's target processes; only the timed kernel is profiled (fills and flushes are not).
"$ncu" --clock-control none --target-processes all -k regex:fidelity_copy_kernel --metrics gpu__time_duration.sum \
  --csv --launch-count 300 "$aisp" bench run --targets fidelity --iterations 20 --warmup 1 --validity off \
  --timeout-multiplier 20 --artifacts-dir "$out/ncu_run" >"$out/ncu.csv" 2>"$out/ncu_stderr.txt"
python3 - "$out/aisp_results.json" "$out/ncu.csv" <<'PY'
import csv, json, statistics, sys
res = json.load(open(sys.argv[1]))
aisp = {}
for ch in res["results"]:
    for b in ch["benchmarks"]:
        aisp[b["example"]] = b["baseline"]["time_ms"]
rows = [r for r in csv.reader(l for l in open(sys.argv[2]) if l.startswith('"'))]
hdr = rows[0]; rows = rows[1:]
iv, iu, ip = hdr.index("Metric Value"), hdr.index("Metric Unit"), hdr.index("Process Name") if "Process Name" in hdr else None
scale = {"nsecond": 1e-6, "usecond": 1e-3, "msecond": 1.0, "ns": 1e-6, "us": 1e-3, "ms": 1.0}
by_size = {}
for r in rows:
    ms = float(r[iv].replace(",", "")) * scale.get(r[iu], 1e-6)
    by_size.setdefault("copy_10us" if ms < 0.025 else "copy_50us" if ms < 0.5 else "copy_2ms", []).append(ms)
print("| kernel | aisp median (ms) | ncu gpu__time_duration median (ms) | ncu n | difference |")
print("|---|---|---|---|---|")
for k in ("copy_10us", "copy_50us", "copy_2ms"):
    if k in aisp and k in by_size:
        n = statistics.median(by_size[k])
        print(f"| {k} | {aisp[k]:.5f} | {n:.5f} | {len(by_size[k])} | {100*(aisp[k]-n)/n:+.2f}% |")
PY
