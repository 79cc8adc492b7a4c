#!/usr/bin/env bash
# The issue-26 multi-rank and Slurm commands through the real command line, without a GPU: a multi-rank run is
# refused for want of GPUs (before any worker starts), the printed launch plan gives every rank NCCL_NVLS_ENABLE=0 and its own
# RANK, more ranks than GPUs is a usage error naming the counts, and `aisp cluster slurm` writes a script bash
# can parse. Nothing here starts a worker.
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
aisp="$1"
make_tmp
run() { "$aisp" bench run --targets ch04 --artifacts-dir "$tmp" --no-db "$@"; }

expect_code 2 run --nproc-per-node 2
grep -q "needs an NVIDIA GPU\|needs 2 GPUs, but" <<<"$out" || fail "a 2-rank run without GPUs was not refused: $out"
expect_code 2 run --nproc-per-node 0
grep -q -- "--nproc-per-node" <<<"$out" || fail "N = 0: $out"
expect_code 2 run --nproc-per-node 2 --launch-via srun
grep -q -- "--launch-via" <<<"$out" || fail "--launch-via srun: $out"
expect_code 2 run --nproc-per-node 64 --print-launch-plan
grep -q "needs 64 GPUs, but" <<<"$out" || fail "64 ranks: $out"

plan=$(run --nproc-per-node 3 --ranks-on-one-gpu --print-launch-plan 2>/dev/null) || fail "plan not printed"
python3 - "$plan" <<'PY' || fail "plan: $plan"
import json, sys
p = json.loads(sys.argv[1])
assert p["ranks_on_one_gpu"] is True and p["nproc_per_node"] == 3
devices = {w["env"]["CUDA_VISIBLE_DEVICES"] for w in p["workers"]}
assert len(devices) == 1, devices
assert [w["env"]["RANK"] for w in p["workers"]] == ["0", "1", "2"]
assert all(w["env"]["NCCL_NVLS_ENABLE"] == "0" and w["env"]["WORLD_SIZE"] == "3" for w in p["workers"])
assert all(w["argv"][1] == "worker" for w in p["workers"])
PY
[ ! -d "$tmp/runs" ] || [ -z "$(ls -A "$tmp/runs")" ] || fail "a plan or a refusal left $(ls "$tmp/runs")"

expect_code 0 "$aisp" cluster slurm --nodes 2 --gpus-per-node 8 --gpu-type h100 --array-targets ch04,ch07 \
  -o "$tmp/job.sbatch" -- aisp bench run --nproc-per-node 8
grep -qx "export NCCL_NVLS_ENABLE=0" "$tmp/job.sbatch" || fail "no NCCL_NVLS_ENABLE=0 in $(cat "$tmp/job.sbatch")"
grep -qx "#SBATCH --array=0-1" "$tmp/job.sbatch" || fail "no array in $(cat "$tmp/job.sbatch")"
bash -n "$tmp/job.sbatch" || fail "bash cannot parse the script"
expect_code 2 "$aisp" cluster slurm --nodes 1 -- aisp bench run --label mine
grep -q -- "--label" <<<"$out" || fail "--label in the command: $out"

# cluster merge: two nodes' runs of job 77 (a stored fixture run, copied under each node's label) into one store.
src="$(dirname "$0")/../data/store_v3/runs/20261125_020000__bench__fixture-samples"
[ -d "$src" ] || fail "fixture run $src missing"
mkdir -p "$tmp/node0/runs" "$tmp/node1/runs"
cp -r "$src" "$tmp/node0/runs/20261125_020000__bench__slurm-77-0-node0"
cp -r "$src" "$tmp/node1/runs/20261125_020001__bench__slurm-77-0-node1"
cp -r "$src" "$tmp/node1/runs/20261125_020002__bench__slurm-78-0-node1"
expect_code 0 "$aisp" cluster merge --job 77 "$tmp/node0" "$tmp/node1" --db "$tmp/merged.db"
grep -q "2 of 2 run directories of job 77" <<<"$out" || fail "merge: $out"
expect_code 0 "$aisp" bench runs --db "$tmp/merged.db"
for want in slurm-77-0-node0 slurm-77-0-node1; do grep -q "$want" <<<"$out" || fail "merged store lacks $want: $out"; done
if grep -q "slurm-78" <<<"$out"; then fail "merged store holds job 78: $out"; fi
expect_code 2 "$aisp" cluster merge --job 79 "$tmp/node0" --db "$tmp/merged.db"
echo "ok"
