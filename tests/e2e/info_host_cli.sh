#!/usr/bin/env bash
# `aisp info status | topology | software`: work on a machine without a GPU (every missing piece says
# "not found" and exit 0), --json is valid, topology parses a saved nvidia-smi matrix, software reads
# Python packages through the python3 on PATH (a stand-in here, so the answer is known).
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
aisp="$1"
make_tmp

# status: a store with one run, a run directory.
mkdir -p "$tmp/artifacts/runs/20261125_010001__bench__x/progress"
echo '{"state":"finished"}' > "$tmp/artifacts/runs/20261125_010001__bench__x/progress/run_progress.json"
expect_code 0 "$aisp" bench ingest "$root/results/reference/h100_80gb_hbm3/20261125_010001__bench__targets-ch05_storage_odirect_ch02_managed_prefetch" --db "$tmp/s.db"
expect_code 0 "$aisp" info status --db "$tmp/s.db" --artifacts-dir "$tmp/artifacts"
grep -q "^GPU" <<<"$out" && grep -q "^driver:" <<<"$out" || fail "status GPU/driver lines: $out"
grep -q "store:    $tmp/s.db (1 runs)" <<<"$out" || fail "status store: $out"
grep -q "last run: $tmp/artifacts/runs/20261125_010001__bench__x (finished)" <<<"$out" || fail "status last run: $out"
expect_code 0 "$aisp" info status --db "$tmp/none.db" --artifacts-dir "$tmp/empty" --json
python3 - "$out" <<'PY' || fail "status --json: $out"
import json, sys
s = json.loads(sys.argv[1][sys.argv[1].index("{"):])
assert s["store"]["exists"] is False and "not found" in s["store"]["note"]
assert s["last_run"]["path"] is None and "not found" in s["last_run"]["note"]
assert isinstance(s["gpus"], list) and (s["gpus"] or s["gpu_error"])
PY

# topology from a saved matrix, and as it is here.
expect_code 0 "$aisp" info topology --from "$root/tests/data/info/nvidia_smi_topo_2gpu_1nic.txt" --json
python3 - "$out" <<'PY' || fail "topology --from: $out"
import json, sys
t = json.loads(sys.argv[1])
m = t["matrix"]
assert m["devices"] == ["GPU0", "GPU1", "NIC0"] and m["links"]["GPU0"]["GPU1"] == "NV18", m
assert m["affinity"]["GPU1"]["NUMA Affinity"] == "1" and m["nic_names"]["NIC0"] == "mlx5_0"
assert t["numa_nodes"] and "cpus" in t["numa_nodes"][0]
PY
expect_code 0 "$aisp" info topology
grep -qE "^NUMA node 0: CPUs|not found: /sys" <<<"$out" || fail "topology NUMA: $out"
if ! command -v nvidia-smi >/dev/null; then grep -q "not found: nvidia-smi is not on PATH" <<<"$out" || fail "no nvidia-smi: $out"; fi
expect_code 2 "$aisp" info topology --from "$tmp/missing.txt"

# software: a stand-in python3 that has neither torch nor triton.
mkdir -p "$tmp/bin"
cat > "$tmp/bin/python3" <<'SH'
#!/bin/sh
case "$2" in
  *platform*) echo 3.99.1 ;;
  *) echo "ModuleNotFoundError: No module named 'x'" >&2; exit 1 ;;
esac
SH
chmod +x "$tmp/bin/python3"
expect_code 0 env PATH="$tmp/bin:$PATH" "$aisp" info software --json
python3 - "$out" "$tmp/bin/python3" <<'PY' || fail "software --json: $out"
import json, sys
items = {i["name"]: i for i in json.loads(sys.argv[1])["items"]}
for name in ["NVIDIA driver", "CUDA toolkit (nvcc)", "CUDA runtime (cudart)", "cuBLAS", "cuDNN", "NCCL", "ncu", "nsys",
             "compute-sanitizer", "python3", "torch", "triton"]:
    i = items[name]
    assert i["found"] or "not found" in i["note"] or "not importable" in i["note"], i
py = items["python3"]
assert py["found"] and py["version"] == "3.99.1" and py["path"] == sys.argv[2], py
assert not items["torch"]["found"] and "not importable" in items["torch"]["note"], items["torch"]
PY
expect_code 0 "$aisp" info software
grep -qE "^CUDA toolkit \(nvcc\) +([0-9.]+|not found)" <<<"$out" || fail "software table: $out"
echo "info_host_cli: ok"
