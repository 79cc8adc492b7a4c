#!/usr/bin/env bash
# `bench run` / `bench calibrate` without a GPU: the requests the runner refuses (exit 2, nothing left
# behind) and `calibrate --from-run`, which computes a noise floor from a committed A/A run on a CPU.
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
aisp="$1"
make_tmp
aa="$root/results/reference/h100_80gb_hbm3/20261122_085521__bench__calibrate-ch07_ch01"

expect_code 2 "$aisp" bench calibrate
grep -q -- "--targets is required" <<<"$out" || fail "calibrate without targets: $out"
expect_code 2 "$aisp" bench calibrate --from-run "$aa" -t ch07
grep -q -- "takes no --targets" <<<"$out" || fail "--from-run with targets: $out"
expect_code 2 "$aisp" bench calibrate --from-run "$tmp/none" --artifacts-dir "$tmp"
grep -q "does not exist" <<<"$out" || fail "--from-run of a missing run: $out"
mkdir -p "$tmp/20261122_085521__bench__targets-ch07"
cp -r "$aa"/manifest.json "$aa"/results "$tmp/20261122_085521__bench__targets-ch07/"
expect_code 2 "$aisp" bench calibrate --from-run "$tmp/20261122_085521__bench__targets-ch07" --artifacts-dir "$tmp"
grep -q "is not an A/A run" <<<"$out" || fail "--from-run of a plain run: $out"
[ ! -e "$tmp/calibration" ] || fail "a refused --from-run wrote a calibration"

# The floor of the committed A/A run (4 targets, one copy each): table, file, JSON.
expect_code 0 "$aisp" bench calibrate --from-run "$aa" --artifacts-dir "$tmp"
grep -q "^A/A noise floor, NVIDIA H100 80GB HBM3 (h100_80gb_hbm3): each baseline against 1 copies" <<<"$out" \
  || fail "calibration table header: $out"
grep -q "^ch07:copy_scalar aa_self " <<<"$out" || fail "calibration table rows: $out"
grep -q "^4 of 4 A/A intervals contain 1.0" <<<"$out" || fail "interval count: $out"
floor="$tmp/calibration/noise_floor_h100_80gb_hbm3.json"
[ -s "$floor" ] || fail "no calibration file at $floor"
expect_code 0 "$aisp" bench calibrate --from-run "$aa" --artifacts-dir "$tmp" --json
python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); assert d["hardware_key"]=="h100_80gb_hbm3" and len(d["targets"])==4, d' <<<"$out" \
  || fail "calibrate --json: $out"

# Usage errors of run's own rules, found before any GPU work.
expect_code 2 "$aisp" bench run --targets ch07 --axis n=lots --artifacts-dir "$tmp/a"
grep -q -- "--axis" <<<"$out" || fail "bad --axis: $out"
if ! "$aisp" info gpu --json >/dev/null 2>&1; then
  expect_code 2 "$aisp" bench calibrate --targets ch07:copy_scalar --artifacts-dir "$tmp/b"
  grep -q "needs an NVIDIA GPU" <<<"$out" || fail "calibrate without a GPU: $out"
  [ -z "$(ls -A "$tmp/b/runs" 2>/dev/null)" ] || fail "a refused calibrate left a run directory: $(ls "$tmp/b/runs")"
fi
echo "bench calibrate (cpu): ok"
