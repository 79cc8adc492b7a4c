#!/usr/bin/env bash
# The session's closing device calls. PART=validity: the validity GPU tests (fixtures, bench-root
# fixtures) and fixture statuses. PART=all: `aisp bench run --targets all` as `make run` runs it (every
# chapter, every check), its wall time and exit code. Results under $OUT.
set -u
out=${OUT:-/tmp/device_final}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$out/gpu.txt" 2>&1
if [ "${PART:-validity}" = validity ]; then
  SECONDS=0
  AISP_EXE=build/aisp AISP_SOURCE_DIR=$PWD timeout 300 build/tests/test_validity_fixtures > "$out/validity_test.txt" 2>&1
  echo "validity test rc $? wall_s $SECONDS"
  cp /tmp/aisp_validity_test/runs/*/results/benchmark_test_results.json "$out/validity_results.json" 2>/dev/null
  grep -E "^\[  (PASSED|FAILED) |FAILED  \]" "$out/validity_test.txt" | head -20
  AISP_EXE=build/aisp timeout 200 build/tests/test_fixture_statuses > "$out/fixture_statuses.txt" 2>&1
  echo "fixture statuses rc $?"; grep -E "FAILED  \]|PASSED  \]" "$out/fixture_statuses.txt" | head -5
else
  SECONDS=0
  timeout -s INT ${SUITE_LIMIT_S:-560} build/aisp bench run --targets all --artifacts-dir /tmp/all --no-db \
    > "$out/all.md" 2> "$out/all.err"
  echo "bench run --targets all rc $? wall_s $SECONDS"
  tail -3 "$out/all.err"
  grep -E "SLOWER|SAME|INCONCLUSIVE|INVALID|FAILED|failed|invalid|regression" "$out/all.md" | head -40
  cp /tmp/all/runs/*/results/benchmark_test_results.json "$out/all_results.json" 2>/dev/null
fi
