#!/usr/bin/env bash
# `aisp bench analyze|whatif|stacking|power|cost|scaling|report|export|utils` on the committed H100
# reference runs (results/reference/): every command answers from the store and from --data, --json is
# valid JSON, and the figures are the measured ones.
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
aisp="$1"
ref="$root/results/reference/h100_80gb_hbm3"
json_ok() { python3 -c 'import json,sys; json.load(sys.stdin)' <<<"$out" || fail "not JSON: $out"; }
make_tmp
db="$tmp/ref.db"
# The 2026-11-22 runs (ch07 + ch01): the figures below were written against them.
expect_code 0 "$aisp" bench ingest "$ref"/20261122_* --db "$db"
latest="$ref/20261122_090130__bench__targets-ch07_ch01"

expect_code 0 "$aisp" bench analyze --db "$db"
grep -q 'ch01:gemm_batched *gemm_batched *FASTER' <<<"$out" || fail "analyze table: $out"
# The reference data carries the ceilings measured on that H100 (aisp hw peak), found without --caps.
grep -q 'roofline ceilings measured: .*results/reference/h100_80gb_hbm3/hardware_capabilities_h100_80gb_hbm3.json' <<<"$out" \
  || fail "analyze does not say where ceilings come from: $out"
expect_code 0 "$aisp" bench analyze --db "$db" --json
json_ok
python3 - "$out" <<'PY' || fail "analyze --json figures"
import json, sys
d = json.loads(sys.argv[1])["result"]
rows = {(r["target"], r["variant"]): r for r in d["rows"]}
g = rows[("ch01:gemm_batched", "gemm_batched")]
assert abs(g["speedup"] - 59.768) < 0.01, g["speedup"]
assert g["bound"] == "compute" and 40 < g["roofline_pct"] < 60, g      # 32.3 TFLOP/s of the 66.9 FP32 roof
c = rows[("ch07:copy_scalar", "copy_scalar")]
assert c["bound"] == "memory" and 80 < c["roofline_pct"] < 100, c       # ~2.9 TB/s of 3.35
assert d["leaderboards"]["speed"][0]["variant"] == "gemm_batched"
assert any(p["on_frontier"] for p in d["pareto"])
PY
expect_code 0 "$aisp" bench analyze --data "$latest" --json
json_ok

expect_code 0 "$aisp" bench whatif --db "$db" --vram 0.6 --latency 0.25
grep -q 'copy_scalar' <<<"$out" || fail "whatif fits: $out"
grep -q 'peak memory 1140 MiB > 0.6 GiB' <<<"$out" || fail "whatif rejection reason: $out"
expect_code 2 "$aisp" bench whatif --db "$db"

expect_code 0 "$aisp" bench stacking --db "$db"
grep -q 'vectorized_access + grid_stride: measured' <<<"$out" || grep -q 'grid_stride + vectorized_access: measured' <<<"$out" \
  || fail "stacking: copy_scalar combines two techniques: $out"
expect_code 0 "$aisp" bench power --db "$db"
grep -q 'no energy data' <<<"$out" || fail "power without energy must say so: $out"
expect_code 0 "$aisp" bench cost --db "$db" --json
json_ok
expect_code 0 "$aisp" bench cost --db "$db" --gpu A100 --top 2
grep -q 'A100 at \$2.00' <<<"$out" || fail "cost --gpu A100: $out"
grep -q 'measured on NVIDIA H100' <<<"$out" || fail "cost on another GPU must say where the times come from: $out"
expect_code 0 "$aisp" bench cost --db "$db" --rate 7.2
grep -q '\$7.20 per GPU-hour (--rate' <<<"$out" || fail "cost --rate: $out"
expect_code 2 "$aisp" bench cost --db "$db" --gpu Z80
expect_code 0 "$aisp" bench scaling --db "$db"
grep -q 'no workload axis' <<<"$out" || fail "scaling without an axis must say so: $out"

expect_code 0 "$aisp" bench report --db "$db" --format md
grep -q '^## Leaderboards' <<<"$out" || fail "md report: $out"
expect_code 0 "$aisp" bench report --db "$db" -o "$tmp/r.html"
grep -q '<svg' "$tmp/r.html" || fail "html report has no chart"
# History: the three measured runs of this GPU; the A/A calibration run (baseline vs itself) is left out.
grep -q '3 run(s) of h100_80gb_hbm3' "$tmp/r.html" || fail "history should hold the 3 bench runs, not the calibration"
expect_code 0 "$aisp" bench export "$latest" --format csv
[ "$(wc -l <<<"$out")" -eq 9 ] || fail "csv: header + 8 variants expected: $out"
expect_code 0 "$aisp" bench export "$latest" --format json
json_ok
expect_code 0 "$aisp" bench export "$latest" --format html -o "$tmp/e.html"
expect_code 0 "$aisp" bench export "$latest" --format nvbench   # the existing formats still work
json_ok

# Measured ceilings win over device properties, and probe-hw shows them.
cat >"$tmp/caps.json" <<'JSON'
{"schema": "aisp.hardware_capabilities/1", "hardware_key": "h100_80gb_hbm3",
 "ceilings": {"hbm_gbs": {"value": 3248, "unit": "GB/s", "method": "max of the HBM figures"},
              "tflops_fp32": {"value": 60.1, "unit": "TFLOP/s", "method": "FMA chains"}}}
JSON
expect_code 0 "$aisp" bench analyze --db "$db" --caps "$tmp/caps.json"
grep -q 'roofline ceilings measured' <<<"$out" || fail "analyze --caps: $out"
grep -q 'gemm_batched *FASTER .* 53.8  compute' <<<"$out" || fail "gemm at 32.33 of 60.1 TFLOP/s = 53.8%: $out"
expect_code 0 "$aisp" bench utils --tool probe-hw -- --caps "$tmp/caps.json"
grep -q '^hbm_gbs *3248 *GB/s' <<<"$out" || fail "probe-hw table: $out"
sed 's/h100_80gb_hbm3/h200/' "$tmp/caps.json" >"$tmp/other.json"
expect_code 2 "$aisp" bench analyze --db "$db" --caps "$tmp/other.json"
grep -q 'measured on h200' <<<"$out" || fail "ceilings of another GPU must be refused: $out"

expect_code 0 "$aisp" bench utils --tool kv-cache -- --layers 80 --hidden 8192 --tokens 4096 --batch 8 --dtype fp8
grep -q 'KV cache: 40 GiB' <<<"$out" || fail "kv-cache: $out"
expect_code 0 "$aisp" bench utils --tool cost-per-token --json -- --avg-power 800 --throughput 1500 --electricity-cost 0.16
json_ok
grep -q '"energy_usd_per_million_tokens": 0.0237' <<<"$out" || fail "cost-per-token: $out"
expect_code 2 "$aisp" bench utils --tool kv-cache -- --layers 80
expect_code 2 "$aisp" bench analyze --db "$tmp/none.db"
grep -q 'no results store' <<<"$out" || fail "missing store message: $out"
echo "analysis CLI ok"
