#!/usr/bin/env bash
# The results store from the CLI, on hand-written run directories (no GPU): ingest (idempotent), runs,
# history, compare-runs, and the bad-input rules (corrupt store, truncated results: named, untouched).
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
aisp="$1"
make_tmp
db="$tmp/aisp.db"

write_run() {  # write_run <name> <baseline ms> <optimized ms>
  local dir="$tmp/runs/$1" b=$2 o=$3
  mkdir -p "$dir/results" "$dir/progress"
  cat >"$dir/manifest.json" <<JSON
{"kind": "bench", "mode": "cold", "start_time": "$1", "end_time": "x",
 "git": {"commit": "0123456789abcdef", "branch": "main", "dirty": false},
 "hardware": {"hardware_key": "h100_80gb_hbm3", "gpu_model": "NVIDIA H100 80GB HBM3"}}
JSON
  cat >"$dir/results/benchmark_test_results.json" <<JSON
{"schema_version": 1, "timestamp": "t", "results": [{"chapter": "ch07", "status": "completed", "benchmarks": [
 {"target": "ch07:copy", "chapter": "ch07", "example": "copy", "status": "succeeded", "mode": "cold",
  "baseline": {"name": "baseline", "status": "succeeded", "timing": {"iterations": 8, "median_ms": $b},
               "raw_times_ms": [$b, $b, $b, $b, $b, $b, $b, $b]},
  "optimizations": [{"name": "fast", "status": "succeeded", "verdict": "FASTER", "speedup": 2.0, "ci_low": 1.9,
               "ci_high": 2.1, "timing": {"iterations": 8, "median_ms": $o},
               "raw_times_ms": [$o, $o, $o, $o, $o, $o, $o, $o], "checks": [{"id": "K2", "name": "match", "passed": true}]}]}]}]}
JSON
  echo '{"state": "finished"}' >"$dir/progress/run_progress.json"
}
write_run 20260101_000001__bench__one 2.0 1.0
write_run 20260102_000001__bench__two 2.0 1.5

expect_code 0 "$aisp" bench ingest "$tmp/runs/20260101_000001__bench__one" "$tmp/runs/20260102_000001__bench__two" --db "$db"
grep -q "as run #2" <<<"$out" || fail "ingest: $out"
expect_code 0 "$aisp" bench ingest "$tmp/runs/20260101_000001__bench__one" --db "$db"
grep -q "already in the store" <<<"$out" || fail "re-ingest is not a no-op: $out"
expect_code 0 "$aisp" bench runs --db "$db" --json
[ "$(grep -c '"run": "2026010' <<<"$out")" -eq 2 ] || fail "runs --json: $out"
expect_code 0 "$aisp" bench history ch07:copy --db "$db"
grep -q "^20260102_000001 .*0123456" <<<"$out" || fail "history: $out"
expect_code 2 "$aisp" bench history ch07:cpy --db "$db"
grep -q "did you mean: ch07:copy" <<<"$out" || fail "history of an unknown target: $out"
expect_code 0 "$aisp" bench compare-runs 20260101 latest --db "$db"
grep -q "fast .* slower" <<<"$out" || fail "compare-runs: $out"
expect_code 1 "$aisp" bench compare-runs 20260101 latest --db "$db" --fail-on-regression
expect_code 2 "$aisp" bench compare-runs 20260101 20260103_000001__bench__one --db "$db"
grep -q "nearest: 20260101_000001__bench__one" <<<"$out" || fail "unknown run: $out"

# A truncated results file: named, nothing stored.
write_run 20260103_000001__bench__three 2.0 1.0
results="$tmp/runs/20260103_000001__bench__three/results/benchmark_test_results.json"
head -c 200 "$results" >"$results.cut" && mv "$results.cut" "$results"
expect_code 1 "$aisp" bench ingest "$tmp/runs/20260103_000001__bench__three" --db "$db"
grep -qF "$results" <<<"$out" || fail "truncated results not named: $out"
expect_code 0 "$aisp" bench runs --db "$db"
grep -q "^2 runs" <<<"$(tail -1 <<<"$out")" || fail "a partial run landed: $out"

# A corrupt store: named, refused, not modified.
head -c 4096 /dev/urandom >"$tmp/bad.db"
cp "$tmp/bad.db" "$tmp/bad.copy"
expect_code 2 "$aisp" bench runs --db "$tmp/bad.db"
grep -qF "$tmp/bad.db" <<<"$out" || fail "corrupt store not named: $out"
cmp -s "$tmp/bad.db" "$tmp/bad.copy" || fail "the corrupt store was modified"
expect_code 2 "$aisp" bench runs --db "$tmp/none.db"
[ ! -e "$tmp/none.db" ] || fail "a read command created a store"
echo "cli store: ok"
