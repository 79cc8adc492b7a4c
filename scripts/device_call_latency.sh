#!/usr/bin/env bash
# Issue 24's latency goal on the GPU: ch15:request_batching (static vs continuous batching on a seeded
# request trace, judged on p99 request latency), then the validity fixtures. Results under $OUT.
set -u
export OUT=${OUT:-/tmp/o}
rm -rf build && mv build-carry build
SECONDS=0
timeout 120 build/aisp bench run -t ch15 --artifacts-dir /tmp/l --no-db --format md > $OUT/ch15.md 2> $OUT/ch15.err
echo "ch15 rc=$? wall_s=$SECONDS"; cat $OUT/ch15.md | head -30
cp /tmp/l/runs/*/results/benchmark_test_results.json $OUT/ch15.json 2>/dev/null
SKIP_STATUSES=1 TARGETS=none VALIDITY_LIMIT_S=150 bash scripts/device_validity.sh 2>&1 | tail -4
