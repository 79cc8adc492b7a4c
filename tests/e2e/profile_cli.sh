#!/usr/bin/env bash
# `aisp profile` without a GPU or the NVIDIA tools: missing tools exit 2 naming where they were looked
# for, and the analyses run on ncu output recorded on an H100 (tests/data/profile).
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
aisp="$1"
data="$root/tests/data/profile"
make_tmp

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

# The whole pipeline with stand-in tools (tests/e2e/fake_tools: they replay the H100 recordings): target
# discovery, the tool's command line, report import, the profile document, the store, the analyses
# reading the store, and the sanitizer's exit code. Plugins are empty files: only their names are read.
plugins="$tmp/plugins"
mkdir -p "$plugins/ch07" "$plugins/sanitizer"
touch "$plugins/ch07/baseline_transpose.so" "$plugins/ch07/optimized_transpose.so" \
      "$plugins/sanitizer/baseline_oob_write.so" "$plugins/sanitizer/optimized_oob_write.so"
fake="$root/tests/e2e/fake_tools"
export AISP_PLUGIN_DIR="$plugins" FAKE_NCU_DATA="$data/transpose" FAKE_SANITIZER_DATA="$data" FAKE_TOOL_LOG="$tmp/tools.log"
art="$tmp/art"
expect_code 0 env AISP_NCU="$fake/ncu" "$aisp" profile ncu --target ch07:transpose --preset deep_dive --artifacts-dir "$art"
grep -q "ch07:transpose baseline  (preset deep_dive, Version 0.0.0" <<<"$out" || fail "ncu output header: $out"
grep -q "transpose_naive" <<<"$out" || fail "ncu output misses the kernel: $out"
grep -q "DRAM throughput .* 14.4% *critical" <<<"$out" || fail "no seed threshold level: $out"
grep -q -- "--nvtx --nvtx-include aisp_timed/ --clock-control none --metrics gpu__time_duration.sum," "$tmp/tools.log" ||
  fail "ncu command line: $(cat "$tmp/tools.log")"
grep -q "worker --once --plugin $plugins/ch07/optimized_transpose.so" "$tmp/tools.log" || fail "worker command: $(cat "$tmp/tools.log")"
ls "$art"/profiles/*__ncu__ch07_transpose/baseline.profile.json >/dev/null || fail "no profile document written"
expect_code 0 env AISP_NCU="$fake/ncu" "$aisp" profile compare ch07:transpose --artifacts-dir "$art"
grep -q "store sectors/request 32.0 -> 4.0" <<<"$out" || fail "compare from the store: $out"
expect_code 0 "$aisp" profile bottleneck --artifacts-dir "$art" --json  # newest profiled target, from the store
grep -q '"verdict": "uncoalesced"' <<<"$out" || fail "bottleneck from the store: $out"
expect_code 0 "$aisp" profile roofline --target ch07:transpose --artifacts-dir "$art" --caps "$data/hardware_capabilities_fixture.json"
grep -q "transpose_tiled" <<<"$out" || fail "roofline from the store: $out"
expect_code 3 env AISP_COMPUTE_SANITIZER="$fake/compute-sanitizer" "$aisp" profile sanitizer --target sanitizer:oob_write \
  --tool memcheck --artifacts-dir "$art"
grep -q "sanitizer:oob_write baseline memcheck: clean (0 errors)" <<<"$out" || fail "sanitizer baseline: $out"
grep -q "sanitizer:oob_write oob_write memcheck: 2 error(s)" <<<"$out" || fail "sanitizer finding: $out"
grep -q "Invalid __global__ write of size 4 bytes" <<<"$out" || fail "sanitizer finding text: $out"
grep -q -- "--tool memcheck --print-limit 20 --padding 256" "$tmp/tools.log" || fail "memcheck without padding: $(cat "$tmp/tools.log")"
expect_code 0 env AISP_COMPUTE_SANITIZER="$fake/compute-sanitizer" "$aisp" profile sanitizer --target sanitizer:oob_write \
  --variant baseline --tool all --artifacts-dir "$art"
[ "$(grep -c "clean (0 errors)" <<<"$out")" -eq 4 ] || fail "honest fixture not clean under all four tools: $out"
echo "profile CLI: ok"
