#!/usr/bin/env bash
# `make run`'s suite — `aisp bench run --targets all`, every chapter and lab, expectations checked — split in
# two interleaved halves because the whole suite takes longer than one device call may (600 s). Each half is an
# ordinary `bench run` on one GPU (CUDA_VISIBLE_DEVICES), with its own artifacts; the suite's exit code is the
# worse of the two (3 invalid, 1 any other failure, 0 all good), as one run's would be. ch04's pairs need 2 GPUs
# in one run and are skipped with that reason here, as on any single-GPU `make run`.
# The halves run one after the other (HALVES=0 and then HALVES=1 in two calls). PARALLEL=1 on a machine with
# two GPUs runs them side by side instead, but two suites on one host perturb the host-bound pairs (caching
# allocator, launch-bound copies) and slow the stopping rule: docs/measurements/make_run_h200_20261128c.md.
# Before the call: `bash scripts/pack_carry.sh`, carry `.carry` (or CARRY=<another packed build.tgz>).
# Returns $OUT/make_run.tgz + $OUT/summary.txt.
set -u
tar xzf "${CARRY:-.carry/build.tgz}" || exit 1
out=${OUT:-/tmp/make_run}; work=/tmp/make_run_work; rm -rf "$work"; mkdir -p "$work" "$out"
s="$out/summary.txt"; limit=${SUITE_LIMIT_S:-520}
{ date -u; nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm --format=csv; } > "$s" 2>&1
# `all` as bench run resolves it: every target but the test-only chapters (build/plugins/<ch>/.test-only).
build/aisp bench list-targets --json | python3 -c '
import json, os, sys
ids = [t["target"] for t in json.load(sys.stdin)
       if not os.path.exists(os.path.join("build/plugins", t["chapter"], ".test-only"))]
for h in (0, 1):
    open(f"'"$work"'/half{h}.txt", "w").write("\n".join(ids[h::2]) + "\n")
print(len(ids), "targets")' >> "$s"
halves=${HALVES:-0 1}; gpus=$(nvidia-smi -L | wc -l)
half() {  # half <g> <device>: one ordinary bench run over half g; its exit code into half<g>.rc
  local ids; mapfile -t ids < "$work/half$1.txt"
  CUDA_VISIBLE_DEVICES=$2 timeout -s INT "$limit" build/aisp bench run --no-db --artifacts-dir "/tmp/art$1" \
    --suite-timeout $(( limit - 40 )) -t "${ids[@]}" > "$work/half$1.md" 2> "$work/half$1.err"
  echo $? > "$work/half$1.rc"
}
SECONDS=0
for g in $halves; do
  if [ "$gpus" -gt 1 ] && [ "${PARALLEL:-0}" = 1 ]; then half "$g" "$g" & else half "$g" 0; fi  # never two suites on one GPU
done
wait
rc=0
for g in $halves; do
  r=$(cat "$work/half$g.rc"); echo "half$g rc=$r" >> "$s"
  rc=$(( r == 3 || rc == 3 ? 3 : (r != 0 || rc != 0 ? 1 : 0) ))
done
echo "halves [$halves] on $gpus GPU(s): rc=$rc wall_s=$SECONDS" >> "$s"
for g in $halves; do
  tail -2 "$work/half$g.err" >> "$s"
  cp /tmp/art"$g"/runs/*/results/benchmark_test_results.json "$work/half$g.json" 2>/dev/null
  cp /tmp/art"$g"/runs/*/reports/expectations_check.md "$work/half$g.expectations.md" 2>/dev/null
  grep -E "INVALID|SLOWER|SAME|INCONCLUSIVE|failed_|error" "$work/half$g.md" | grep -v '^> warning' | head -40 >> "$s"
done
tar czf "$out/make_run.tgz" -C "$work" .
