#!/usr/bin/env bash
# run_gtest.sh must exit 77 only when every test skipped: a failure next to a skipped test must stay a
# failure, and a pass next to one a pass. usage: selftest.sh <run_gtest.sh> <skip_selftest binary>
set -u
wrapper=$1
bin=$2
status=0
expect() {  # mode, expected exit code
  AISP_SKIP_SELFTEST=$1 bash "$wrapper" "$bin" > /dev/null 2>&1
  local rc=$?
  if [ "$rc" -eq "$2" ]; then
    echo "ok   $1: exit $rc"
  else
    echo "FAIL $1: exit $rc, expected $2"
    status=1
  fi
}
expect all_skip 77
expect skip_and_fail 1
expect skip_and_pass 0
exit $status
