#!/usr/bin/env bash
# On a GPU machine: the GPU tests and a suite run, results under $OUT (or build/gpu-suite).
# Usage: scripts/gpu_suite.sh [build-dir]
set -uo pipefail
build=${1:-build}
out=${OUT:-$build/gpu-suite}
mkdir -p "$out"
aisp="$build/aisp"
"$aisp" info gpu | tee "$out/info_gpu.txt"
status=0
for t in "$build"/tests/test_*; do
  [ -x "$t" ] || continue
  echo "== $t"
  AISP_EXE="$aisp" "$t" 2>&1 | tee "$out/$(basename "$t").txt" | tail -n 25 || status=1
done
echo "== suite: ch07 ch01"
"$aisp" bench run --targets ch07 ch01 --artifacts-dir "$out/artifacts" 2>"$out/suite_progress.txt"
echo "suite exit code: $?"
exit $status
