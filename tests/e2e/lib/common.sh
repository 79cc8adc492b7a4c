# shellcheck shell=bash
# The set-up every e2e script repeated, sourced first thing (lib/ is not globbed as a test by tests/CMakeLists.txt):
#   # shellcheck source=lib/common.sh
#   . "$(dirname "$0")/lib/common.sh"
# It gives $root (the source tree) and
#   fail <why>                    FAIL: <why>, exit 1
#   skip <why>                    SKIP: <why>, exit 77 (ctest's skipped)
#   expect_code <code> <cmd...>   runs the command, keeps its stdout+stderr in $out, fails on another exit code
#   make_tmp                      $tmp: a fresh folder, removed at exit (after on_exit, when the script defines one:
#                                 a server or peer it started is stopped there)
#   require_gpu                   skips unless `$aisp info gpu` finds a CUDA device
set -u
# shellcheck disable=SC2034  # for the sourcing script
root="$(cd "$(dirname "$0")/../.." && pwd)"

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

expect_code() {
  local want=$1; shift
  out=$("$@" 2>&1); local got=$?
  [ "$got" -eq "$want" ] || fail "'$*' exited $got, expected $want. Output:
$out"
}

make_tmp() {
  tmp=$(mktemp -d)
  trap 'if declare -F on_exit >/dev/null; then on_exit; fi; rm -rf "$tmp"' EXIT
}

require_gpu() {
  # shellcheck disable=SC2154  # $aisp: set by the sourcing script from its first argument
  "$aisp" info gpu --json >/dev/null 2>&1 || skip "no GPU (aisp info gpu found no CUDA device)"
}
