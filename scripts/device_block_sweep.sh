#!/usr/bin/env bash
# One device call for ch20:transformer_block's sequence-length story plus the validity fixtures:
#   1. build/tests/test_validity_fixtures (the cheats and controls, on the current runner);
#   2. `bench run -t ch20:transformer_block --axis seq=$SEQS` (the speedup per prompt length);
#   3. `profile ncu` on $NCU_VARIANT at the default length (per-kernel durations of the optimized block).
# Before the call: `TESTS=test_validity_fixtures bash scripts/pack_carry.sh`, carry `.carry`.
# Returns under $OUT: summary.txt, sweep.md, sweep.json, ncu.txt, validity.txt.
set -u
tar xzf .carry/build.tgz || exit 1
out=${OUT:-/tmp/block_sweep}; mkdir -p "$out"; s="$out/summary.txt"
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv; } > "$s" 2>&1
if [ "${VALIDITY:-1}" = 1 ]; then
  SECONDS=0
  AISP_EXE=build/aisp timeout "${VALIDITY_LIMIT_S:-240}" build/tests/test_validity_fixtures > "$out/validity.txt" 2>&1
  echo "validity rc=$? wall_s=$SECONDS" >> "$s"
  grep -E "^\[  (PASSED|FAILED) |FAILED  \]" "$out/validity.txt" >> "$s"
fi
SECONDS=0
timeout -s INT "${SWEEP_LIMIT_S:-300}" build/aisp bench run -t ch20:transformer_block --axis "seq=${SEQS:-6144,8192,12288,16384}" \
  --time-limit "${TIME_LIMIT:-4}" --artifacts-dir /tmp/sweep --no-db ${SWEEP_ARGS:-} > "$out/sweep.md" 2> "$out/sweep.err"
echo "sweep rc=$? wall_s=$SECONDS" >> "$s"; tail -3 "$out/sweep.err" >> "$s"
cp /tmp/sweep/runs/*/results/benchmark_test_results.json "$out/sweep.json" 2>/dev/null
if [ -n "${NCU_VARIANT:-}" ]; then
  SECONDS=0
  timeout 200 build/aisp profile ncu -t ch20:transformer_block --variant "$NCU_VARIANT" --no-db \
    --artifacts-dir /tmp/ncu > "$out/ncu.txt" 2>&1
  echo "ncu rc=$? wall_s=$SECONDS" >> "$s"
  find /tmp/ncu -name '*.csv' | head -3 | while read -r f; do cp "$f" "$out/"; done
fi
