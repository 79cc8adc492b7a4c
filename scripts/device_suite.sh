#!/usr/bin/env bash
# One device call: the whole chapter suite (ch01-ch09), all checks on, writing this GPU's expectations;
# wall time reported. Results under $OUT: suite.md/err, results JSON, manifest, expectations per chapter.
# Usage (from the repository root, build/ carried): bash scripts/device_suite.sh [extra bench-run args]
set -u
out=${OUT:-/tmp/device_suite}; mkdir -p "$out/expect"
art=/tmp/aisp_suite_artifacts; rm -rf "$art"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > "$out/gpu.txt" 2>&1
SECONDS=0
timeout -s INT ${SUITE_LIMIT_S:-540} build/aisp bench run -t ${TARGETS:-ch01 ch02 ch03 ch05 ch06 ch07 ch08 ch09} --update-expectations --artifacts-dir "$art" "$@" > "$out/suite.md" 2> "$out/suite.err"
rc=$?
echo "suite rc $rc wall_s $SECONDS" | tee "$out/suite_wall.txt"
for f in chapters/*/expectations_*.json; do [ -f "$f" ] && cp "$f" "$out/expect/$(basename "$(dirname "$f")")_$(basename "$f")"; done
run=$(ls -d "$art"/runs/*__bench__* | tail -1)
cp "$run/manifest.json" "$run/results/benchmark_test_results.json" "$out/" 2>/dev/null
cp -r "$run/reports" "$out/" 2>/dev/null
# The results come back as one archive (the device tool returns a limited number of files).
tar czf "$out/suite.tgz" -C "$art/runs" "$(basename "$run")" -C "$PWD" $(ls chapters/*/expectations_*.json 2>/dev/null) 2>/dev/null
tail -5 "$out/suite.err"; grep -E "FASTER|SLOWER|SAME|INCONCLUSIVE|INVALID|FAILED" "$out/suite.md" | head -80
