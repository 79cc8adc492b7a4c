#!/usr/bin/env bash
# `aisp cluster slurm` against a real Slurm (issue 26): a one-node controller and node daemon of Debian's
# slurm-wlm (slurmctld, slurmd, sbatch) started here on free ports with a throwaway configuration (auth/none,
# 8 pretend GPUs of type h100 declared through config_overrides), then
#   1. `sbatch --test-only` accepts the generated script and refuses one asking for 9 GPUs per node;
#   2. a real submission of a job array whose command is a shell standing in for aisp: each array task prints
#      NCCL_NVLS_ENABLE=0, MASTER_ADDR/PORT and its own --targets and --label.
# Exit 77 (skipped, reason printed) when the daemons are not installed or not running as root (slurmd starts
# job steps as the submitting user). Stops only the two daemons it started, by pid.
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
aisp="$1"
for tool in slurmctld slurmd sbatch scontrol; do
  command -v "$tool" >/dev/null || skip "$tool not installed (Debian: apt-get install slurmctld slurmd slurm-client)"
done
[ "$(id -u)" -eq 0 ] || skip "slurmd must run as root to start job steps"
make_tmp
pids=()
on_exit() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; }
# This script's failures end with the daemons' logs.
fail() { echo "FAIL: $*"; for f in "$tmp"/*.log; do echo "== $f"; tail -n 20 "$f"; done; exit 1; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

mkdir -p "$tmp/state" "$tmp/spool" "$tmp/work"
for i in 0 1 2 3 4 5 6 7; do : >"$tmp/fakegpu$i"; done
cat >"$tmp/slurm.conf" <<CONF
ClusterName=aisptest
SlurmctldHost=localhost
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
AuthType=auth/none
CredType=cred/none
SlurmUser=root
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
GresTypes=gpu
SlurmdParameters=config_overrides
ReturnToService=2
NodeName=localhost CPUs=2 Gres=gpu:h100:8 State=UNKNOWN
PartitionName=gpu Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
# The pretend GPUs: slurmd wants device files; plain files give the count (it complains, and counts them).
echo "NodeName=localhost Name=gpu Type=h100 File=$tmp/fakegpu[0-7]" >"$tmp/gres.conf"
export SLURM_CONF="$tmp/slurm.conf"
slurmctld -D -f "$SLURM_CONF" >"$tmp/ctld_stdout.log" 2>&1 &
pids+=($!)
sleep 2
slurmd -D -f "$SLURM_CONF" -N localhost >"$tmp/slurmd_stdout.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 30); do
  state=$(sinfo -h -o %T 2>/dev/null)
  [ "$state" = "idle" ] && break
  # A node that registered with fewer GPUs than configured before the override applied is drained: resume it.
  case "$state" in drain*|inval*) scontrol update NodeName=localhost State=RESUME 2>/dev/null ;; esac
  sleep 1
done
[ "$(sinfo -h -o %T)" = "idle" ] || fail "the local node never became idle ($(sinfo -h -o %T))"

cd "$tmp/work" || exit 1
"$aisp" cluster slurm --nodes 1 --gpus-per-node 8 --gpu-type h100 --time 5 -o ok.sbatch -- aisp bench run -t ch04 \
  --nproc-per-node 8 2>/dev/null || fail "script not written"
out=$(sbatch --test-only ok.sbatch 2>&1) || fail "sbatch --test-only refused the script: $out"
"$aisp" cluster slurm --nodes 1 --gpus-per-node 9 --gpu-type h100 -o nine.sbatch -- aisp bench run -t ch04 2>/dev/null
if out=$(sbatch --test-only nine.sbatch 2>&1); then fail "9 GPUs on an 8-GPU node accepted: $out"; fi

# shellcheck disable=SC2016  # $VARS expand in the job, not here
"$aisp" cluster slurm --nodes 1 --gpus-per-node 2 --gpu-type h100 --time 5 --array-targets ch04,ch07 -o array.sbatch \
  -- sh -c 'echo nvls=$NCCL_NVLS_ENABLE master=$MASTER_ADDR port=$MASTER_PORT args: $*' fake-aisp 2>/dev/null
job=$(sbatch --parsable array.sbatch) || fail "sbatch refused the array job"
for _ in $(seq 1 60); do
  [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
  sleep 1
done
outs=$(cat aisp-bench-"${job}"_*.out 2>/dev/null)
grep -q "nvls=0 master=localhost port=29500 args: --targets ch04 --label slurm-${job}-0-node0" <<<"$outs" || fail "task 0: $outs"
grep -q "nvls=0 master=localhost port=29500 args: --targets ch07 --label slurm-${job}-1-node0" <<<"$outs" || fail "task 1: $outs"
echo "ok: sbatch --test-only and a two-task array job on a local Slurm $(sbatch --version)"
