#!/usr/bin/env bash
# Browser test of the dashboard: a store of the committed H100 and H200 reference runs, aisp-serve on a free
# loopback port, and headless Debian Chromium driven by playwright-core (web/package-lock.json) clicking
# overview → target → compare → analysis → hardware, checking what each page shows and saving a
# screenshot of each. Exit 77 (skipped) only when node or chromium is not installed.
# Usage: dashboard_browser.sh <aisp-serve> <aisp> <build dir> <source dir> [screenshot dir]
set -euo pipefail
serve=$1 aisp=$2 build=$3 src=$4
shots=${5:-$build/web-screenshots}
chromium=${AISP_CHROMIUM:-/usr/bin/chromium}
if ! command -v node >/dev/null; then echo "SKIPPED: node is not installed (it drives the browser)"; exit 77; fi
if [ ! -x "$chromium" ]; then echo "SKIPPED: $chromium not found (Debian: apt-get install chromium)"; exit 77; fi
modules=$(cd "$build" && pwd)/web-npm/node_modules
if [ ! -d "$modules/playwright-core" ]; then
  echo "FAIL: $modules/playwright-core is missing; the build installs it with npm ci (web/CMakeLists.txt)"; exit 1
fi

# shellcheck source=lib/serve.sh
. "$(dirname "$0")/lib/serve.sh"
"$aisp" bench ingest "$src"/results/reference/*/2026* --db "$tmp/artifacts/aisp.db" >/dev/null
# A run in progress, so the progress banner has something to show.
mkdir -p "$tmp/artifacts/runs/29990101_000000__bench__live/progress"
echo '{"state":"running","target":"ch07:transpose","completed":2,"total":4}' \
  > "$tmp/artifacts/runs/29990101_000000__bench__live/progress/run_progress.json"

start_serve "$tmp/artifacts/aisp.db"

AISP_WEB_NPM=$modules node "$src/tests/web/dashboard_browser.mjs" \
  --url "http://127.0.0.1:$port" --shots "$shots" --chromium "$chromium"
