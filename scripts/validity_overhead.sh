#!/usr/bin/env bash
# What the validity machinery costs the headline number: the ~10 µs copy (fidelity:copy_10us) timed with
# --validity on and off, alternating, three times each. Audited samples are already excluded from the
# statistics; this measures what remains (fresh inputs before every sample, the drain sync, CUPTI subscribed).
# Usage: scripts/validity_overhead.sh [build-dir] [out-dir]
set -uo pipefail
build=${1:-build}
out=${2:-${OUT:-$build/validity_overhead}}
mkdir -p "$out"
for i in 1 2 3; do
  for v in on off; do
    "$build/aisp" bench run --targets fidelity:copy_10us --validity "$v" --time-limit 5 --json --artifacts-dir "$out/runs" \
      >"$out/${v}_$i.json" 2>"$out/${v}_$i.stderr" || true
  done
done
python3 - "$out" <<'PY'
import json, statistics, sys, glob, os
out = sys.argv[1]
med = {"on": [], "off": []}
overhead = []
for v in ("on", "off"):
    for f in sorted(glob.glob(os.path.join(out, f"{v}_*.json"))):
        try:
            b = json.load(open(f))["results"][0]["benchmarks"][0]
        except Exception as e:
            print(f"{f}: unreadable ({e})"); continue
        med[v].append(b["baseline"]["time_ms"])
        if v == "on":
            overhead.append(b["baseline"].get("validity", {}).get("audit_overhead_pct", 0.0))
print("| validity | baseline medians (ms) | median of medians (ms) |")
print("|---|---|---|")
for v in ("on", "off"):
    if med[v]:
        print(f"| {v} | {', '.join(f'{m:.5f}' for m in med[v])} | {statistics.median(med[v]):.5f} |")
if med["on"] and med["off"]:
    on, off = statistics.median(med["on"]), statistics.median(med["off"])
    print(f"\nvalidity on vs off: {100 * (on - off) / off:+.2f}% (audited samples, kept out of the statistics, "
          f"ran {statistics.median(overhead):+.1f}% slower than the kept ones)")
PY
