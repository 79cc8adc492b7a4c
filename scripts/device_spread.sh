#!/usr/bin/env bash
# The between-run spread of the targets whose `make run` result fell outside their recorded H200 band
# (closing call of 2026-11-28 b): re-record ch15:inference_monolithic (its code changed that session), run
# the trace-driven / host-bound targets that regressed RUNS more times with fresh seeds, measure each
# target's spread over those runs + the make run (.carry/mr/*.json) with scripts/expectation_spread.py,
# then one more fresh-seed run of the regressed targets checked against the widened bands. Returns
# $OUT/spread.tgz (expectation files, every run's table and results) and $OUT/summary.txt.
set -u
tar xzf .carry/build.tgz || exit 1
stamp=$(mktemp); sleep 1  # expectation files written after this came from this call
out=${OUT:-/tmp/spread}; work=/tmp/spread_work; rm -rf "$work"; mkdir -p "$work" "$out"; s="$out/summary.txt"
regressed="ch13:caching_allocator ch15:inference_monolithic ch15:request_batching ch16:runtime_scheduler ch17:dynamic_routing"
outside="$regressed ch02:memory_transfer ch03:pageable_copy ch05:host_staged_reduction ch11:stream_priority
  ch12:cuda_graph_torch ch12:graph_conditional ch13:allocator_torch ch13:fused_adamw ch14:persistent_tiles
  ch15:speculative_decoding"
run() {  # run <tag> <bench run args...>
  local tag=$1; shift
  build/aisp bench run --no-db --artifacts-dir "/tmp/sp_$tag" "$@" > "$work/$tag.md" 2> "$work/$tag.err"
  echo "$tag rc=$?" >> "$s"; tail -1 "$work/$tag.err" >> "$s"
  cp /tmp/sp_$tag/runs/*/results/benchmark_test_results.json "$work/$tag.json"
}
run record -t ch15:inference_monolithic --update-expectations --accept-regressions
for i in $(seq "${RUNS:-4}"); do run "seed$i" -t $regressed; done
python3 scripts/expectation_spread.py --hardware h200 --runs "$work"/seed*.json .carry/mr/*.json --targets $outside \
  --note "H200, 2026-11-28: the make run of 10:04 and ${RUNS:-4} fresh-seed runs of 10:2x" >> "$s" 2>&1
run check -t $regressed
grep -E "regression|INVALID|failed_" "$work/check.md" | grep -v '^> warning' | head -20 >> "$s"
files=$(find chapters labs -name 'expectations_h200.json' -newer "$stamp")
tar czf "$out/spread.tgz" -C "$work" . -C "$PWD" $files
