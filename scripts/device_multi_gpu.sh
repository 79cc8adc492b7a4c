#!/usr/bin/env bash
# One device call for issue 26 on nvidia-h100-x2: `aisp hw p2p` and `aisp hw nccl` (saved), the two
# multi_rank validity fixtures and the ch04 pairs as 2 ranks (`--nproc-per-node 2`). Results under $OUT (8
# files at most come back).
# Usage (repository root): bash scripts/device_multi_gpu.sh [BUILD_DIR]   (default build; carry its aisp,
# lib/, plugins/ch04 and plugins/multi_rank — the fixtures built as a test-only "chapter"). ~220 s at most.
set -u
B=${1:-build}
out=${OUT:-/tmp/device_multi_gpu}; mkdir -p "$out"
export NCCL_NVLS_ENABLE=0  # NVLink multicast stays off in every child (the plugins also force it)
export NCCL_DEBUG=${NCCL_DEBUG:-WARN}
# NCCL for the plugins' dlopen: the system's, else the one PyTorch's wheel ships.
if ! ldconfig -p | grep -q libnccl.so.2; then
  nccl_dir=$(python3 -c 'import nvidia.nccl as m, os; print(os.path.join(list(m.__path__)[0], "lib"))' 2>/dev/null)
  [ -n "$nccl_dir" ] && export LD_LIBRARY_PATH="$nccl_dir:${LD_LIBRARY_PATH:-}"
fi
s="$out/summary.txt"
{ date -u; nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv
  nvidia-smi topo -m; echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"; ldconfig -p | grep nccl
  ldd "$B/aisp" | grep -i "not found"; ls "$B/plugins"; } > "$s" 2>&1
step() {  # step <name> <limit_s> <command...>
  local name=$1 limit=$2; shift 2; SECONDS=0
  timeout "$limit" "$@"; echo "$name rc=$? wall_s=$SECONDS" >> "$s"
}
step hw_p2p 20 "$B/aisp" hw p2p --no-caps > "$out/hw_p2p_nccl.txt" 2>&1
step hw_nccl 20 "$B/aisp" hw nccl --no-caps >> "$out/hw_p2p_nccl.txt" 2>&1
run() {  # run <tag> <limit_s> <aisp bench run args...>: timeouts x0.25 (setup 75 s), so a hung rank ends early
  local tag=$1 limit=$2; shift 2
  step "$tag" "$limit" "$B/aisp" bench run --nproc-per-node 2 --artifacts-dir "/tmp/mg_$tag" --no-db --format md \
    --time-limit 3 --min-time 0.25 --timeout-multiplier 0.25 "$@" > "$out/$tag.md" 2> "/tmp/mg_$tag.err"
  tail -4 "/tmp/mg_$tag.err" >> "$s"
  cp /tmp/mg_"$tag"/runs/*/results/benchmark_test_results.json "$out/$tag.json" 2>/dev/null
}
run multi_rank 30 -t multi_rank
# CH04_ARGS: more options for the ch04 run (e.g. --update-expectations in the lead's final call).
run ch04 150 -t ch04 --suite-timeout 125 ${CH04_ARGS:-}
cp chapters/ch04/expectations_*.json "$out/" 2>/dev/null  # written by --update-expectations (CH04_ARGS)
tar czf "$out/logs.tar.gz" -C /tmp $(cd /tmp && ls -d mg_*.err mg_*/runs/*/logs mg_*/runs/*/manifest.json 2>/dev/null) 2>/dev/null
grep -E "rc=|INVALID|FASTER|SLOWER|SAME|failed|skipped" "$s" "$out"/*.md | head -60
