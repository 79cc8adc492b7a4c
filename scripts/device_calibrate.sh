#!/usr/bin/env bash
# One device call: the A/A calibration of every target (each baseline against 3 copies of itself, each
# in its own process), so later runs on this GPU widen their intervals by the between-process spread.
# Results under $OUT: calibrate.txt (the table), the floor file, and the run (results + manifest) as one archive.
# Usage (repository root, build/ carried): bash scripts/device_calibrate.sh [extra calibrate args]
set -u
out=${OUT:-/tmp/device_calibrate}; mkdir -p "$out"
art=/tmp/aisp_calibrate_artifacts; rm -rf "$art"; mkdir -p "$art/calibration"
# Start from the committed calibration: targets calibrated now replace theirs, the others are kept.
cp results/reference/*/noise_floor_*.json "$art/calibration/" 2>/dev/null
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > "$out/gpu.txt" 2>&1
SECONDS=0
timeout -s INT ${CAL_LIMIT_S:-560} build/aisp bench calibrate -t ${TARGETS:-all} --time-limit ${CAL_TIME_LIMIT:-3} \
  --artifacts-dir "$art" "$@" > "$out/calibrate.txt" 2> "$out/calibrate.err"
echo "calibrate rc $? wall_s $SECONDS" | tee "$out/calibrate_wall.txt"
cp "$art"/calibration/noise_floor_*.json "$out/" 2>/dev/null
run=$(ls -d "$art"/runs/*__bench__* 2>/dev/null | tail -1)
[ -n "$run" ] && tar czf "$out/calibrate_run.tgz" -C "$art/runs" --exclude=work --exclude=logs --exclude=samples "$(basename "$run")"
tail -3 "$out/calibrate.err"; tail -8 "$out/calibrate.txt"
