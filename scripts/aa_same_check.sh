#!/usr/bin/env bash
# Issue 18, hole 6 on the GPU: the bench-root A/A pair (tests/benchroot_aa: baseline and "optimized" run
# the same copy kernel) with no A/A calibration (--noise-floor none), RUNS times (default 5), each a
# separate `aisp bench run` (its own worker processes). Every run must say SAME; prints one line per run
# (verdict, speedup, CI, the between-process spread the CI was widened by) and exits 1 otherwise.
# Usage (repository root; build/aisp carried, nvcc on the machine): bash scripts/aa_same_check.sh [RUNS]
set -u
runs=${1:-5}
out=${OUT:-/tmp/aa_same_check}; mkdir -p "$out"
art=/tmp/aisp_aa_same_artifacts; rm -rf "$art"
export AISP_CACHE_DIR=/tmp/aisp_aa_same_cache  # compiled once, reused by the later runs
same=0
for i in $(seq 1 "$runs"); do
  SECONDS=0
  timeout ${AA_RUN_LIMIT_S:-120} build/aisp bench run --bench-root tests/benchroot_aa --targets aa --noise-floor none \
    --artifacts-dir "$art" --no-db --label "aa-$i" > "$out/aa_run_$i.md" 2> "$out/aa_run_$i.err"
  rc=$?
  res=$(ls -d "$art"/runs/*__bench__aa-"$i"/results/benchmark_test_results.json 2>/dev/null | tail -1)
  line=$(python3 - "$res" <<'PY' 2>&1
import json, sys
try:
    doc = json.load(open(sys.argv[1]))
except Exception as e:
    print(f"NO_RESULT ({e})"); sys.exit()
targets = [b for chapter in doc.get("results", []) for b in chapter.get("benchmarks", [])]
if not targets:
    print("NO_TARGET")
for t in targets:
    for v in t.get("optimizations", []):
        s = v.get("ci_process_spread") or {}
        print(f"{v.get('verdict')} speedup={v.get('speedup', 0):.4f} ci=[{v.get('ci_low', 0):.4f}, {v.get('ci_high', 0):.4f}]"
              f" spread_sd_log={s.get('sd_log')} df={s.get('df')} status={v.get('status')}")
PY
)
  echo "run $i rc=$rc wall_s=$SECONDS: $line" | tee -a "$out/aa_same_check.txt"
  case "$line" in SAME*) same=$((same + 1)) ;; *) tail -3 "$out/aa_run_$i.err" ;; esac
done
echo "A/A bench-root pair, no calibration: $same/$runs SAME" | tee -a "$out/aa_same_check.txt"
[ "$same" -eq "$runs" ]
