#!/usr/bin/env bash
# Where the harness's own time goes (issue 21): wall time and per-phase seconds of the 1 GiB copy pair and
# of the ch01-ch09 chapter suite, every check on. AISP=<binary> picks the build (default build/aisp);
# results and a phase table under $OUT (or /tmp/harness_profile).
set -u
aisp=${AISP:-build/aisp}
out=${OUT:-/tmp/harness_profile}; mkdir -p "$out"
tag=${TAG:-$(basename "$(dirname "$aisp")")}
export AISP_PLUGIN_DIR=${AISP_PLUGIN_DIR:-$PWD/build/plugins}  # one plugin tree for every binary compared
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$out/gpu.txt" 2>&1
run() {  # run <name> <args...>: one bench run, its wall time and phase table
  local name=$1; shift
  local dir=/tmp/hp_${tag}_$name; rm -rf "$dir"
  SECONDS=0
  timeout -s INT ${LIMIT_S:-400} "$aisp" bench run "$@" --artifacts-dir "$dir" --no-db --format json \
    > "$out/${tag}_$name.log" 2>&1
  local rc=$? wall=$SECONDS
  local res; res=$(ls "$dir"/runs/*/results/benchmark_test_results.json 2>/dev/null | head -1)
  cp "$res" "$out/${tag}_$name.json" 2>/dev/null
  echo "$tag $name rc=$rc wall_s=$wall"
  python3 scripts/phase_table.py "$res" 2>/dev/null
}
[ -n "${PAIR-1}" ] && run copy1g -t ch07:copy_scalar --axis n=2^28
[ -n "${SUITE:-}" ] && run suite -t ${SUITE}
exit 0
