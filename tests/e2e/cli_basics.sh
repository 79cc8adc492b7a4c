#!/usr/bin/env bash
# CLI behaviour that needs no GPU: version, help, discovery, usage errors with exit code 2.
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
aisp="$1"
expect_code 0 "$aisp" --version
grep -q '^aisp ' <<<"$out" || fail "--version printed: $out"
expect_code 0 "$aisp" --help
grep -q 'bench' <<<"$out" || fail "--help does not list bench"
expect_code 0 "$aisp" bench list-targets
grep -q '^ch07:copy_scalar ' <<<"$out" || fail "list-targets misses ch07:copy_scalar: $out"
grep -q '^ch01:gemm_batched ' <<<"$out" || fail "list-targets misses ch01:gemm_batched"
expect_code 0 "$aisp" bench list-targets --chapter ch07 --json
grep -q '"target": "ch07:transpose"' <<<"$out" || fail "list-targets --json: $out"
expect_code 2 "$aisp" bench run --targets ch07:copy_scalr
grep -q "did you mean: ch07:copy_scalar" <<<"$out" || fail "no suggestion for a misspelt target: $out"
expect_code 2 "$aisp" bench run --targets ch07 --mode lukewarm
expect_code 2 "$aisp" bench run --targets ch07 --artifacts-dir /proc/aisp-cannot-write-here
grep -qi "not writable\|cannot create" <<<"$out" || fail "unwritable artifacts dir message: $out"
expect_code 2 "$aisp" bench nonsense
if ! "$aisp" info gpu --json >/dev/null 2>&1; then
  expect_code 2 "$aisp" bench run --targets ch07:copy_scalar --artifacts-dir "$(mktemp -d)"
  grep -q "needs an NVIDIA GPU" <<<"$out" || fail "no-GPU message: $out"
fi
echo "cli basics: ok"
