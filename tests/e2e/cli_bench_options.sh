#!/usr/bin/env bash
# The issue-28 bench-run options through the real command line, without a GPU: each malformed value is a
# usage error (exit 2) naming its flag, found before any GPU work (tests/unit/test_bench_request.cpp checks
# what the runner does with valid ones; tests/e2e/gpu_bench_options.sh runs them on a GPU).
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
aisp="$1"
make_tmp
run() { expect_code 2 "$aisp" bench run --targets ch07:copy_scalar --artifacts-dir "$tmp" --no-db "$@"; }
run --target-extra-arg 'ch07:copy_scalar=--mode hot'
grep -q -- "--target-extra-arg" <<<"$out" && grep -q "'--mode' is not a per-target option" <<<"$out" || fail "unknown per-target option: $out"
run --target-extra-arg 'ch07:copy_scalr=--iterations 3'
grep -q "applies to no selected target" <<<"$out" || fail "extra arg for no target: $out"
run --target-extra-arg 'ch07:copy_scalar=--axis n=lots'
grep -q -- "--target-extra-arg" <<<"$out" || fail "bad per-target axis: $out"
run --target-extra-arg 'no-equals-sign'
grep -q "expected TARGET=ARGS" <<<"$out" || fail "no '=': $out"
run --ncu-metric-set everything
grep -q -- "--ncu-metric-set" <<<"$out" || fail "bad metric set: $out"
run --suite-timeout -5
grep -q -- "--suite-timeout" <<<"$out" || fail "negative suite timeout: $out"
# Nothing was started: no run directory left behind by a refused request.
[ ! -d "$tmp/runs" ] || [ -z "$(ls -A "$tmp/runs")" ] || fail "a refused run left $(ls "$tmp/runs")"
expect_code 0 "$aisp" bench run --help
for flag in --suite-timeout --cold-start --ncu-metric-set --target-extra-arg; do
  grep -q -- "$flag" <<<"$out" || fail "bench run --help does not list $flag"
done
echo "PASS: bench run option usage errors"
