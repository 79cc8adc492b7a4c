#!/usr/bin/env bash
# Runs one node --test file of tests/mcp against a built aisp: run_node_test.sh FILE AISP_EXE SOURCE_DIR.
# Exit 77 (ctest: skipped) with the reason when node is not installed; a failed `npm ci` is a failure.
set -euo pipefail
file=$1 aisp=$2 src=$3
if ! command -v node >/dev/null 2>&1; then
  echo "SKIP: node is not installed (scripts/setup.sh installs nodejs and npm); the MCP client tests need it"
  exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
# Tests that import the SDK client need the pinned packages; the raw JSON-RPC tests do not.
if grep -q "@modelcontextprotocol/sdk" "$(dirname "$0")/$file" && [ ! -d "$here/node_modules/@modelcontextprotocol/sdk" ]; then
  npm ci --prefix "$here" --no-audit --no-fund
fi
cd "$here"
AISP_EXE="$aisp" AISP_SOURCE_DIR="$src" exec node --test "$file"
