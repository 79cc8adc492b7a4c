#!/usr/bin/env bash
# One device call for the validity work: the validity fixtures (GPU test), the fixture statuses, and a
# chapter run with every check on (TARGETS, default ch01 ch07 ch09). Results under $OUT.
# Usage (repository root, build/aisp + build/plugins + build/tests/test_* carried): bash scripts/device_validity.sh
set -u
out=${OUT:-/tmp/device_validity}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > "$out/gpu.txt" 2>&1
SECONDS=0
AISP_EXE=build/aisp timeout ${VALIDITY_LIMIT_S:-300} build/tests/test_validity_fixtures > "$out/validity_test.txt" 2>&1
echo "validity test rc $? wall_s $SECONDS"
cp /tmp/aisp_validity_test/runs/*/results/benchmark_test_results.json "$out/validity_results.json" 2>/dev/null
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" "$out/validity_test.txt" | head -30
if [ -z "${SKIP_STATUSES:-}" ]; then
  SECONDS=0
  AISP_EXE=build/aisp timeout 200 build/tests/test_fixture_statuses > "$out/fixture_statuses.txt" 2>&1
  echo "fixture statuses rc $? wall_s $SECONDS"; grep -E "FAILED  \]|PASSED  \]" "$out/fixture_statuses.txt" | head -10
fi
if [ "${TARGETS:-x}" != "none" ]; then
  SECONDS=0
  timeout ${SUITE_LIMIT_S:-240} build/aisp bench run -t ${TARGETS:-ch01 ch07 ch09} --artifacts-dir /tmp/suite --no-db \
    > "$out/suite.md" 2> "$out/suite.err"
  echo "suite rc $? wall_s $SECONDS"
  grep -E "FASTER|SLOWER|SAME|INCONCLUSIVE|INVALID|FAILED|failed|invalid" "$out/suite.md" | head -60
  cp /tmp/suite/runs/*/results/benchmark_test_results.json "$out/suite_results.json" 2>/dev/null
fi
if [ -n "${OVERHEAD:-}" ]; then
  SECONDS=0
  timeout 150 scripts/validity_overhead.sh build /tmp/overhead > "$out/overhead.txt" 2>&1
  echo "overhead rc $? wall_s $SECONDS"; tail -8 "$out/overhead.txt"
  cp /tmp/overhead/on_1.json "$out/overhead_on_1.json" 2>/dev/null
fi
