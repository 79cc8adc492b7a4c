#!/usr/bin/env bash
# The GPU tests that drive the runner end to end (request-trace budget, axes, fixture statuses), on a packed
# build: CARRY=<build.tgz> (default .carry/build.tgz, from `TESTS="test_trace_budget test_fixture_statuses
# test_axes" bash scripts/pack_carry.sh`). Each test's output in $OUT/<test>.txt, a summary in $OUT/summary.txt.
set -u
tar xzf "${CARRY:-.carry/build.tgz}" || exit 1
out=${OUT:-/tmp/runner_tests}; mkdir -p "$out"
for t in ${TESTS:-test_trace_budget test_axes test_fixture_statuses}; do
  SECONDS=0
  AISP_EXE=$PWD/build/aisp AISP_SOURCE_DIR=$PWD timeout "${LIMIT_S:-100}" "build/tests/$t" > "$out/$t.txt" 2>&1
  echo "$t rc=$? wall_s=$SECONDS $(grep -E '^\[  (PASSED|FAILED) ' "$out/$t.txt" | tr '\n' ' ')" >> "$out/summary.txt"
done
