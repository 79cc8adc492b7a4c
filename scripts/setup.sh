#!/usr/bin/env bash
# Installs aisp's build dependencies from Debian/Ubuntu packages (skips what is already there).
# The CUDA toolkit (nvcc, cudart, cuBLAS, CUPTI) is expected at /usr/local/cuda.
set -euo pipefail
packages=(cmake ninja-build g++ libcli11-dev nlohmann-json3-dev libfmt-dev libsqlite3-dev libcpp-httplib-dev
          googletest libgtest-dev libbenchmark-dev
          chromium   # headless browser: report rendering, PDF export, the dashboard's browser test (tests/web)
          libncurses-dev tmux  # `aisp bench tui` (ncurses, linked statically); tmux drives its test (tests/e2e/cli_tui.sh)
          pkg-config wrk)  # cpp-httplib's compile flags come from its .pc file; wrk: the dashboard's load test
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
# node + npm for the MCP client tests (tests/mcp: the official @modelcontextprotocol/sdk client), only when
# no node is installed: an image may carry a newer one than Debian's 18, which the SDK also accepts (>= 18).
command -v node >/dev/null 2>&1 || missing+=(nodejs npm)
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if [ ! -x /usr/local/cuda/bin/nvcc ] && ! command -v nvcc >/dev/null; then
  echo "setup: the CUDA toolkit (nvcc) was not found; install CUDA 13.0 under /usr/local/cuda" >&2
  exit 1
fi
