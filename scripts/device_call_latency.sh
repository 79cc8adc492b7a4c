#!/usr/bin/env bash
# Issue 24's latency goal on the GPU: ch15:request_batching (static vs continuous batching on a seeded
# request trace, judged on p99 request latency), a speed pair beside it, and the side-stream validity
# fixture (the timed-sample hooks changed with it). Results under $OUT.
set -u
export OUT=${OUT:-/tmp/o}
rm -rf build && mv build-carry build
SECONDS=0
timeout 120 build/aisp bench run -t ch15 ch07:copy_scalar --artifacts-dir /tmp/l --no-db --format md > $OUT/ch15.md 2> $OUT/ch15.err
echo "ch15 rc=$? wall_s=$SECONDS"; head -40 $OUT/ch15.md
cp /tmp/l/runs/*/results/benchmark_test_results.json $OUT/ch15.json 2>/dev/null
AISP_EXE=build/aisp timeout 100 build/tests/test_validity_fixtures --gtest_filter='*side_stream*' 2>&1 | grep -E "OK|FAILED|PASSED" | head
