#!/usr/bin/env bash
# Load test of the dashboard: wrk on loopback against aisp-serve with a store of the committed H100
# reference runs, cycling through the endpoints the UI calls plus the page itself. Passes when at least
# 10,000 requests completed with zero socket errors and zero non-2xx answers. Exit 77 (skipped) only when
# wrk is not installed. Prints wrk's figures and the server's resident memory before and after.
# Usage: serve_load.sh <aisp-serve> <aisp> <build dir> <source dir> [requests] [connections]
set -euo pipefail
serve=$1 aisp=$2 build=$3 src=$4 total=${5:-10000} connections=${6:-16}
threads=2
if ! command -v wrk >/dev/null; then echo "SKIPPED: wrk is not installed (Debian: apt-get install wrk)"; exit 77; fi

# shellcheck source=lib/serve.sh
. "$(dirname "$0")/lib/serve.sh"
"$aisp" bench ingest "$src"/results/reference/h100_80gb_hbm3/2026* --db "$tmp/artifacts/aisp.db" >/dev/null
start_serve "$tmp/artifacts/aisp.db"

# The endpoints the UI's pages call, and the page itself, in turn.
cat > "$tmp/mix.lua" <<'LUA'
local paths = {"/api/summary", "/api/benchmarks", "/api/runs?limit=25", "/api/targets/ch07:transpose/history",
               "/api/targets/ch07:transpose/result", "/api/compare?baseline=previous&candidate=latest",
               "/api/analysis/leaderboards", "/api/roofline", "/api/progress", "/", "/js/app.js",
               "/vendor/uPlot.iife.min.js"}
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", paths[(i % #paths) + 1])
end
LUA
curl -fsS "http://127.0.0.1:$port/api/compare?baseline=previous&candidate=latest" >/dev/null ||
  { echo "FAIL: the warm-up request failed"; cat "$tmp/serve.log"; exit 1; }  # fills the comparison cache
rss() { awk '/VmRSS/ {print $2 " kB"}' "/proc/$server_pid/status"; }
echo "server resident memory before: $(rss)"
# wrk runs for a duration, not a count: rounds of 5 s until `total` requests have completed.
requests=0 errors=0 rounds=0
while [ "$requests" -lt "$total" ] && [ "$rounds" -lt 20 ]; do
  rounds=$((rounds + 1))
  wrk -t"$threads" -c"$connections" -d5s --latency -s "$tmp/mix.lua" "http://127.0.0.1:$port" | tee "$tmp/wrk.txt"
  n=$(sed -n 's/^ *\([0-9]*\) requests in .*/\1/p' "$tmp/wrk.txt")
  requests=$((requests + ${n:-0}))
  if grep -q "Socket errors\|Non-2xx" "$tmp/wrk.txt"; then errors=$((errors + 1)); fi
done
echo "server resident memory after:  $(rss)"
kill -0 "$server_pid" || { echo "FAIL: the server died under load"; exit 1; }

fail=0
if [ "$requests" -lt "$total" ]; then echo "FAIL: only $requests requests in $rounds rounds (need $total)"; fail=1; fi
if [ "$errors" -gt 0 ]; then echo "FAIL: socket errors or non-2xx answers in $errors round(s) (see above)"; fail=1; fi
[ "$fail" = 0 ] && echo "load test passed: $requests requests in $rounds round(s), 0 errors"
exit "$fail"
