#!/usr/bin/env bash
# Issue 28's GPU parts in one device call (after `tar xzf .carry/build.tgz`): the bench-run options on real
# targets (tests/e2e/gpu_bench_options.sh: --target-extra-arg, --cold-start, --suite-timeout, --ncu-metric-set,
# `profile ncu -- <command>`), then an ncu profile of ch07:transpose kept as reference data and
# `aisp ai explain ch07:transpose` over it (the answer must cite the counters).
# Everything comes back as $OUT/surface.tgz; a summary is appended to $OUT/summary.txt.
set -u
out=${OUT:-/tmp/surface}; work=/tmp/surface_work; rm -rf "$work"; mkdir -p "$work" "$out"
s="$out/summary.txt"
SECONDS=0
AISP_E2E_KEEP="$work/options" timeout 240 bash tests/e2e/gpu_bench_options.sh build/aisp build > "$work/options.txt" 2>&1
echo "gpu_bench_options rc=$? wall_s=$SECONDS" >> "$s"; tail -4 "$work/options.txt" >> "$s"
SECONDS=0
timeout 200 build/aisp profile ncu --target ch07:transpose --artifacts-dir "$work/prof" --no-db --json \
  > "$work/profile_transpose.json" 2> "$work/profile_transpose.err"
echo "profile ncu ch07:transpose rc=$? wall_s=$SECONDS" >> "$s"; tail -3 "$work/profile_transpose.err" >> "$s"
dir=$(dirname "$(find "$work/prof" -name 'baseline.profile.json' | head -1)")
if [ -n "$dir" ] && [ "$dir" != . ]; then
  build/aisp ai explain ch07:transpose --profiles "$dir" > "$work/explain.txt" 2>&1
  echo "ai explain rc=$?" >> "$s"; head -30 "$work/explain.txt" >> "$s"
fi
tar czf "$out/surface.tgz" -C "$work" .
