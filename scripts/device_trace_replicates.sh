#!/usr/bin/env bash
# The latency-goal targets (the request-trace pairs of ch15-ch17) with their verdicts pooled over request
# traces (--trace-replicates, default 5): run A records this GPU's expectations from the pooled numbers
# (RECORD=0 skips it), runs $CHECKS (default "B"), each with fresh seeds (other traces), are then checked
# against the recorded entries, so they say whether a pooled interval recorded once covers the next run's
# traces (and feed scripts/expectation_spread.py). Before the call: `bash scripts/pack_carry.sh`,
# carry `.carry`. Returns $OUT/traces.tgz (results, reports, the expectation files written) + summary.txt.
set -u
tar xzf .carry/build.tgz || exit 1
out=${OUT:-/tmp/traces}; work=/tmp/traces_work; rm -rf "$work"; mkdir -p "$work" "$out"
s="$out/summary.txt"
touch "$work/start.stamp"
{ date -u; nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm --format=csv; } > "$s" 2>&1
read -r -a targets <<< "${TARGETS:-ch15:request_batching ch15:inference_monolithic ch16:runtime_scheduler \
ch17:dynamic_routing ch17:early_rejection ch17:prefill_decode_disagg}"
one() {  # one <tag> <bench run args...>
  local tag=$1; shift; SECONDS=0
  timeout -s INT "${LIMIT_S:-270}" build/aisp bench run --artifacts-dir "/tmp/art_$tag" --no-db -t "${targets[@]}" "$@" \
    > "$work/$tag.md" 2> "$work/$tag.err"
  echo "$tag rc=$? wall_s=$SECONDS" >> "$s"; tail -2 "$work/$tag.err" >> "$s"
  cp /tmp/art_"$tag"/runs/*/results/benchmark_test_results.json "$work/$tag.json" 2>/dev/null
  cp /tmp/art_"$tag"/runs/*/reports/expectations_check.md "$work/$tag.expectations.md" 2>/dev/null
  grep -E "^\|" "$work/$tag.md" | head -20 >> "$s"
}
[ "${RECORD:-1}" = 1 ] && one A --update-expectations --accept-regressions
for tag in ${CHECKS:-B}; do one "$tag"; done
find chapters labs -name 'expectations_*.json' -newer "$work/start.stamp" -exec cp --parents {} "$work" \;
tar czf "$out/traces.tgz" -C "$work" .
