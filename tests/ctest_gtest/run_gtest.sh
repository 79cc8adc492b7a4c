#!/usr/bin/env bash
# Runs one googletest binary for ctest: its exit code unchanged, except 77 (the test's SKIP_RETURN_CODE)
# when it passed and *every* test it ran was skipped (no GPU, say). A regex on "[  SKIPPED ]" alone
# would also mark a run skipped when one test was skipped and another failed, hiding the failure.
# usage: run_gtest.sh <gtest binary> [gtest arguments...]
set -u
bin=$1
shift
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$bin" "$@" 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
[ "$rc" -eq 0 ] || exit "$rc"  # a failure (or a crash) is reported as such, whatever was skipped
# googletest's summary: "[==========] N tests from M test suites ran." and, when any were skipped,
# "[  SKIPPED ] K tests, listed below:".
ran=$(sed -n 's/^\[==========\] \([0-9][0-9]*\) tests\{0,1\} from .* ran\..*/\1/p' "$out" | tail -n 1)
skipped=$(sed -n 's/^\[  SKIPPED \] \([0-9][0-9]*\) tests\{0,1\}, listed below:.*/\1/p' "$out" | tail -n 1)
if [ -n "$ran" ] && [ "$ran" -gt 0 ] && [ "${skipped:-0}" -eq "$ran" ]; then
  echo "run_gtest.sh: all $ran tests skipped"
  exit 77
fi
exit 0
