#!/usr/bin/env bash
# The browser test repeated under CPU load: one busy loop per core (a `stress`-style load without the
# package) while tests/web/dashboard_browser.sh runs `runs` times. Passes only when every run passes.
# The busy loops are this script's own children and are stopped on exit.
# Usage: browser_under_load.sh <aisp-serve> <aisp> <build dir> <source dir> [runs (default 20)] [busy loops (default: nproc)]
set -uo pipefail
serve=$1 aisp=$2 build=$3 src=$4 runs=${5:-20} loops=${6:-$(nproc)}
busy=()
stop_load() { for p in "${busy[@]}"; do kill "$p" 2>/dev/null; done; }
trap stop_load EXIT
for _ in $(seq "$loops"); do
  ( while :; do :; done ) &
  busy+=($!)
done
echo "load: $loops busy loop(s) on $(nproc) core(s); $runs browser runs"
passed=0 failed=0
for i in $(seq "$runs"); do
  t0=$(date +%s.%N)
  if out=$(timeout 300 bash "$src/tests/web/dashboard_browser.sh" "$serve" "$aisp" "$build" "$src" "$(mktemp -d)" 2>&1); then
    passed=$((passed + 1)); result=passed
  else
    rc=$?
    [ "$rc" = 77 ] && { echo "$out"; exit 77; }
    failed=$((failed + 1)); result="FAILED (exit $rc)"; echo "$out" | tail -15
  fi
  printf 'run %2d: %s in %.1f s\n' "$i" "$result" "$(echo "$(date +%s.%N) - $t0" | bc)"
done
echo "browser test under load: $passed of $runs passed"
[ "$failed" = 0 ]
