#!/usr/bin/env bash
# One device call: the whole chapter suite (ch01-ch09), all checks on, writing this GPU's expectations;
# wall time reported. The committed A/A calibration (results/reference/<hwkey>/noise_floor_*.json) is
# applied; CAL_TARGETS="t1 t2" calibrates those targets first (merged into it, returned under $OUT).
# GPU_TESTS=1 runs the GPU test binaries afterwards. Results under $OUT: suite.md/err, the expectations,
# and one archive of the run (the device tool returns a limited number of files).
# Usage (from the repository root, build/aisp and build/plugins carried): bash scripts/device_suite.sh [extra bench-run args]
set -u
out=${OUT:-/tmp/device_suite}; mkdir -p "$out"
art=/tmp/aisp_suite_artifacts; rm -rf "$art"; mkdir -p "$art/calibration"
cp results/reference/*/noise_floor_*.json "$art/calibration/" 2>/dev/null
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > "$out/gpu.txt" 2>&1
if [ -n "${CAL_TARGETS:-}" ]; then
  SECONDS=0
  timeout -s INT 200 build/aisp bench calibrate -t $CAL_TARGETS --validity off --time-limit 3 --artifacts-dir "$art" \
    --no-db > "$out/calibrate.txt" 2> "$out/calibrate.err"
  echo "calibrate rc $? wall_s $SECONDS"; grep -v "^\[" "$out/calibrate.txt" | tail -12
  cp "$art"/calibration/noise_floor_*.json "$out/"
fi
SECONDS=0
timeout -s INT ${SUITE_LIMIT_S:-540} build/aisp bench run -t ${TARGETS:-ch01 ch02 ch03 ch05 ch06 ch07 ch08 ch09} --update-expectations --artifacts-dir "$art" "$@" > "$out/suite.md" 2> "$out/suite.err"
rc=$?
echo "suite rc $rc wall_s $SECONDS" | tee "$out/suite_wall.txt"
run=$(ls -d "$art"/runs/*__bench__targets* | tail -1)
tar czf "$out/suite.tgz" -C "$art/runs" --exclude=work --exclude=logs --exclude=samples "$(basename "$run")" \
  -C "$PWD" $(ls chapters/*/expectations_*.json 2>/dev/null) 2>/dev/null
tail -5 "$out/suite.err"; grep -E "FASTER|SLOWER|SAME|INCONCLUSIVE|INVALID|FAILED" "$out/suite.md" | head -80
if [ -n "${GPU_TESTS:-}" ]; then
  : > "$out/gpu_tests.txt"
  for t in build/tests/test_*; do
    [ -x "$t" ] || continue
    echo "== $t" >> "$out/gpu_tests.txt"
    AISP_EXE=build/aisp timeout ${GPU_TEST_LIMIT_S:-200} "$t" >> "$out/gpu_tests.txt" 2>&1; echo "$t rc $?"
  done
  grep -E "^\[  (PASSED|FAILED|SKIPPED) " "$out/gpu_tests.txt" | head -40
fi
