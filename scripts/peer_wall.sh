#!/usr/bin/env bash
# Wall time to an answer on the same five kernels (issue 21): aisp (a verdict with every check on) against
# Triton's do_bench and NVBench. aisp runs the A/A peer set under tests/timing/fidelity; do_bench runs
# scripts/peer_do_bench.py in a fresh python3; NVBench runs $NVBENCH_EXE (an NVBench benchmark binary
# built outside this tree over the same kernels) when set. Results under $OUT.
set -u
out=${OUT:-/tmp/peer_wall}; mkdir -p "$out"
aisp=${AISP:-build/aisp}
targets="fidelity:vadd_small fidelity:vadd_71us fidelity:copy_10us fidelity:copy_50us fidelity:compute_2ms"
SECONDS=0
"$aisp" bench run -t $targets --artifacts-dir /tmp/peer_wall_aisp --no-db --format md > "$out/peer_aisp.md" 2> "$out/peer_aisp.err"
rc=$?; aisp_s=$SECONDS
echo "aisp: rc=$rc wall_s=$aisp_s ($targets, every check on)"
grep -E "^\| fidelity" "$out/peer_aisp.md" | head -10
SECONDS=0
python3 scripts/peer_do_bench.py > "$out/peer_do_bench.txt" 2>&1
echo "do_bench: rc=$? wall_s=$SECONDS"; cat "$out/peer_do_bench.txt"
if [ -n "${NVBENCH_EXE:-}" ] && [ -x "$NVBENCH_EXE" ]; then
  SECONDS=0
  "$NVBENCH_EXE" --json "$out/nvbench.json" > "$out/nvbench.txt" 2>&1
  echo "nvbench: rc=$? wall_s=$SECONDS"
else
  echo "nvbench: skipped: NVBench is not packaged by Debian and its CMake fetches its dependencies at configure"
  echo "  time (the GPU machines have no network); build it elsewhere over the same kernels and set NVBENCH_EXE"
fi
