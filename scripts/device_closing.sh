#!/usr/bin/env bash
# The closing device calls of 2026-11-28 (lead). Before each: `bash scripts/pack_carry.sh`, carry `.carry`.
#   PART=a on nvidia-h200-x2: issue 26's multi-GPU call (scripts/device_multi_gpu.sh, ch04 expectations
#          recorded), then on GPU 0 the chapters whose H200 expectations are missing (ch10-ch14, ch19, ch20,
#          the C++ labs; .carry/targets_a.txt) with --update-expectations.
#   PART=b on nvidia-h100-x1: the new inference chapters ch15-ch18 and labs (H100 expectations recorded;
#          .carry/targets_b.txt, at most TIME_LIMIT_S (5) seconds of timing per target),
#          then the Python validity fixtures and the parity pair (tests/e2e/gpu_python_pairs.sh).
#   PART=suites SUITES="c py": one run per .carry/targets_<tag>.txt (the later calls of the session).
# The .carry/targets_<tag>.txt lists come from scripts/device_targets.py (C++ or --python targets).
# Everything comes back as $OUT/closing.tgz plus $OUT/summary.txt (the device tool returns 8 files at most).
set -u
tar xzf .carry/build.tgz || exit 1
out=${OUT:-/tmp/closing}; work=/tmp/closing_work; rm -rf "$work"; mkdir -p "$work" "$out"
s="$out/summary.txt"
touch "$work/start.stamp"  # expectation files written after this came from this call (no .git on the device)
{ date -u; nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm --format=csv; } > "$s" 2>&1
suite() {  # suite <tag> <limit_s> <bench run args...>: one bench run, expectations recorded, results kept
  local tag=$1 limit=$2; shift 2; SECONDS=0
  timeout -s INT "$limit" build/aisp bench run --update-expectations --artifacts-dir "/tmp/art_$tag" --no-db "$@" \
    > "$work/$tag.md" 2> "$work/$tag.err"
  echo "$tag rc=$? wall_s=$SECONDS" >> "$s"; tail -3 "$work/$tag.err" >> "$s"
  cp /tmp/art_"$tag"/runs/*/results/benchmark_test_results.json "$work/$tag.json" 2>/dev/null
  grep -E "INVALID|SLOWER|SAME|INCONCLUSIVE| failed|error|skipped" "$work/$tag.md" | head -30 >> "$s"
}
ids_of() { tr -s ' \n' '\n' < "$1" | grep -v '^$'; }  # a targets file: ids separated by spaces or lines
if [ "${PART:-a}" = a ]; then
  mapfile -t targets_a < <(ids_of .carry/targets_a.txt)
  OUT="$work/mg" CH04_ARGS=--update-expectations bash scripts/device_multi_gpu.sh build > "$work/mg.txt" 2>&1
  cat "$work/mg/summary.txt" >> "$s" 2>/dev/null
  # The C++ targets of the chapters without H200 expectations (.carry/targets_a.txt from
  # scripts/device_targets.py; Python pairs left out: they run apart).
  CUDA_VISIBLE_DEVICES=0 suite h200 ${SUITE_LIMIT_S:-330} --suite-timeout $(( ${SUITE_LIMIT_S:-330} - 40 )) \
    -t "${targets_a[@]}"
elif [ "${PART}" = b ]; then
  mapfile -t targets_b < <(ids_of .carry/targets_b.txt)
  # The C++ targets of ch15-ch18 and the new labs (.carry/targets_b.txt, written like targets_a.txt).
  suite h100 ${SUITE_LIMIT_S:-330} --suite-timeout $(( ${SUITE_LIMIT_S:-330} - 40 )) --time-limit ${TIME_LIMIT_S:-5} \
    -t "${targets_b[@]}"
  SECONDS=0
  AISP_E2E_KEEP="$work/py" AISP_E2E_ITERATIONS=20 AISP_E2E_TARGETS="${PY_TARGETS:-validity_python fidelity:cublas_parity}" \
    timeout ${PY_LIMIT_S:-200} bash tests/e2e/gpu_python_pairs.sh build/aisp > "$work/python_pairs.txt" 2>&1
  echo "python rc=$? wall_s=$SECONDS" >> "$s"; grep -E "FAIL|PARITY|MEMORY|exit code" "$work/python_pairs.txt" | head -30 >> "$s"
else
  # PART=suites: one bench run per tag in $SUITES over .carry/targets_<tag>.txt, each limited to
  # LIMIT_<tag> seconds (default 200), expectations recorded.
  for tag in ${SUITES:?}; do
    lim_var="LIMIT_$tag"; lim=${!lim_var:-200}
    mapfile -t targets < <(ids_of ".carry/targets_$tag.txt")
    suite "$tag" "$lim" --suite-timeout $(( lim - 30 )) --time-limit ${TIME_LIMIT_S:-5} -t "${targets[@]}"
  done
fi
written=$(find chapters labs -name 'expectations_*.json' -newer "$work/start.stamp")
echo "expectation files written: $written" >> "$s"
tar czf "$out/closing.tgz" -C "$work" . -C "$PWD" $written
