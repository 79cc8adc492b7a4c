#!/usr/bin/env bash
# `aisp profile` without a GPU or the NVIDIA tools: missing tools exit 2 naming where they were looked
# for, and the analyses run on ncu output recorded on an H100 (tests/data/profile).
set -u
aisp="$1"
src="$(cd "$(dirname "$0")/../.." && pwd)"
data="$src/tests/data/profile"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
expect_code() {  # expect_code <code> <command...>: runs it, keeps output in $out
  local want=$1; shift
  out=$("$@" 2>&1); local got=$?
  [ "$got" -eq "$want" ] || fail "'$*' exited $got, expected $want. Output:
$out"
}

# Missing tools: exit 2, which tool, where it looked. An explicit $AISP_NCU is the only place looked in.
expect_code 2 env AISP_NCU=/nonexistent/ncu "$aisp" profile ncu --target ch07:copy_scalar --artifacts-dir "$tmp"
grep -q "ncu not found" <<<"$out" || fail "missing-ncu message: $out"
grep -q "/nonexistent/ncu" <<<"$out" || fail "missing-ncu message does not say where it looked: $out"
expect_code 2 env AISP_COMPUTE_SANITIZER=/nonexistent/cs "$aisp" profile sanitizer --target sanitizer:oob_write --artifacts-dir "$tmp"
grep -q "compute-sanitizer not found" <<<"$out" || fail "missing-sanitizer message: $out"
expect_code 2 env AISP_NSYS=/nonexistent/nsys "$aisp" profile nsys --target ch07:copy_scalar --artifacts-dir "$tmp"
grep -q "nsys not found" <<<"$out" || fail "missing-nsys message: $out"
grep -q "cannot turn into a" <<<"$out" || fail "nsys message does not say it is broken on the GPU machines: $out"
# bench run --profile refuses before any GPU work when ncu is missing.
expect_code 2 env AISP_NCU=/nonexistent/ncu "$aisp" bench run --targets ch07:copy_scalar --profile minimal --artifacts-dir "$tmp"
grep -q "ncu not found" <<<"$out" || fail "bench run --profile without ncu: $out"
expect_code 2 "$aisp" profile ncu --target ch07:copy_scalar --preset everything

# Analyses on the recorded H100 rows.
expect_code 0 "$aisp" profile bottleneck --from "$data/transpose" --target ch07:transpose --db "$tmp/none.db"
grep -q "ch07:transpose baseline" <<<"$out" || fail "bottleneck output: $out"
grep -q "verdict: UNCOALESCED ACCESS" <<<"$out" || fail "naive transpose not uncoalesced: $out"
grep -q "verdict: MEMORY BOUND" <<<"$out" || fail "tiled transpose not memory bound: $out"
grep -q "fixes: " <<<"$out" || fail "no fixes printed: $out"
expect_code 0 "$aisp" profile bottleneck --from "$data/copy_scalar" --json
[ "$(grep -c '"verdict": "memory_bound"' <<<"$out")" -eq 2 ] || fail "copies not both memory bound: $out"
expect_code 0 "$aisp" profile compare ch07:transpose --from "$data/transpose"
grep -q "store sectors/request 32.0 -> 4.0" <<<"$out" || fail "compare does not explain the transpose: $out"
expect_code 0 "$aisp" profile compare ch07:copy_scalar --from "$data/copy_scalar"
grep -q "global load requests" <<<"$out" || fail "compare does not explain the copy: $out"
expect_code 0 "$aisp" profile roofline --from "$data/copy_scalar" --caps "$data/hardware_capabilities_fixture.json"
grep -q "memory" <<<"$out" || fail "roofline: $out"
grep -q "hardware_capabilities_fixture.json" <<<"$out" || fail "roofline does not name its ceilings: $out"
expect_code 2 "$aisp" profile bottleneck --from "$tmp"
echo "profile CLI: ok"
