#!/usr/bin/env bash
# `aisp hw network` and `aisp hw ib` without a GPU: loopback TCP measured for real; the NIC path through a
# `--listen` peer (on 127.0.0.1 here, so the path is exercised, not a NIC); the clear skips; and the
# InfiniBand listing on a fake /sys tree ($AISP_SYSFS_ROOT). Exit 77 when this build has no hw probes.
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
aisp="$1"
make_tmp
peer=
on_exit() { [ -n "$peer" ] && kill "$peer" 2>/dev/null; }
"$aisp" hw --help >/dev/null 2>&1 || skip "this aisp was built without the hw probes"

# Loopback: a measured number with its method; the NIC figure skipped with the command that measures it.
expect_code 0 "$aisp" hw network --quick --mib 16 --json
python3 - "$out" <<'PY' || fail "hw network --json (above)"
import json, sys
text = sys.argv[1]
doc = json.loads(text[text.index("{"):text.rindex("}") + 1])
figs = {f["key"]: f for r in doc["probes"] for f in r["figures"]}
assert figs["net_loopback_tcp"]["status"] == "ok" and figs["net_loopback_tcp"]["value"] > 0, figs["net_loopback_tcp"]
assert len(figs["net_loopback_tcp"]["samples"]["values"]) == 3
assert figs["net_loopback_rtt"]["value"] > 0
assert figs["net_nic_tcp"]["status"].startswith("skipped: no --address given"), figs["net_nic_tcp"]
PY
# The NIC path: a peer serving exactly the connections one measurement makes (3 samples + 1 ping-pong).
: > "$tmp/peer.log"  # exists before the peer runs (the child opens its redirection only once it starts)
"$aisp" hw network --listen 0 --listen-count 4 --bind 127.0.0.1 >> "$tmp/peer.log" 2>&1 &
peer=$!
port=
for _ in $(seq 50); do
  port=$(sed -n 's/^aisp hw network: listening on 127.0.0.1:\([0-9]*\) .*/\1/p' "$tmp/peer.log"); [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || fail "the --listen peer did not start: $(cat "$tmp/peer.log")"
expect_code 0 "$aisp" hw network --quick --mib 16 --address "127.0.0.1:$port"
grep -qE "NIC \(127\.0\.0\.1\) TCP throughput +[0-9.]+ +Gbit/s" <<<"$out" || fail "NIC path figure: $out"
grep -qE "NIC \(127\.0\.0\.1\) TCP round trip +[0-9.]+ +us" <<<"$out" || fail "NIC round trip: $out"
for _ in $(seq 50); do kill -0 "$peer" 2>/dev/null || break; sleep 0.1; done
kill -0 "$peer" 2>/dev/null && fail "the peer did not exit after --listen-count connections"
peer=
# A peer that is not there: the figure says what to run, the probe still reports loopback.
expect_code 0 "$aisp" hw network --quick --mib 16 --address "127.0.0.1:1"
grep -q "is \`aisp hw network --listen 1\` running there?" <<<"$out" || fail "unreachable peer message: $out"

# InfiniBand: none here (a fake empty tree) -> a clear skip, exit 0.
mkdir -p "$tmp/sys/class/infiniband" "$tmp/sys/class/net/eth0"
echo up > "$tmp/sys/class/net/eth0/operstate"; echo 100000 > "$tmp/sys/class/net/eth0/speed"
echo 9000 > "$tmp/sys/class/net/eth0/mtu"
expect_code 0 env AISP_SYSFS_ROOT="$tmp/sys" "$aisp" hw ib
grep -q "skipped: no InfiniBand or RoCE device ($tmp/sys/class/infiniband is empty)" <<<"$out" || fail "ib skip: $out"
expect_code 0 env AISP_SYSFS_ROOT="$tmp/nothing" "$aisp" hw ib
grep -q "is absent" <<<"$out" || fail "ib skip (absent): $out"
# Two ports of an NDR adapter, one down.
for p in 1 2; do mkdir -p "$tmp/sys/class/infiniband/mlx5_0/ports/$p"; done
d="$tmp/sys/class/infiniband/mlx5_0"
echo MT4129 > "$d/hca_type"; echo 28.39.1002 > "$d/fw_ver"; echo "node01 HCA-1" > "$d/node_desc"
echo "4: ACTIVE" > "$d/ports/1/state"; echo "5: LinkUp" > "$d/ports/1/phys_state"
echo "400 Gb/sec (4X NDR)" > "$d/ports/1/rate"; echo InfiniBand > "$d/ports/1/link_layer"
echo "1: DOWN" > "$d/ports/2/state"; echo "3: Disabled" > "$d/ports/2/phys_state"
echo "10 Gb/sec (4X SDR)" > "$d/ports/2/rate"; echo InfiniBand > "$d/ports/2/link_layer"
expect_code 0 env AISP_SYSFS_ROOT="$tmp/sys" "$aisp" hw ib
grep -qE "mlx5_0 port 1 \(InfiniBand, 4: ACTIVE\) +400\.0 +Gb/s" <<<"$out" || fail "ib port 1: $out"
grep -q "skipped: port not active (1: DOWN)" <<<"$out" || fail "ib port 2: $out"
grep -q "not a measured throughput" <<<"$out" || fail "ib method does not say it is a link rate: $out"
grep -q "mlx5_0: MT4129 firmware 28.39.1002" <<<"$out" || fail "ib adapter note: $out"
# The interface list of hw network reads the same tree.
expect_code 0 env AISP_SYSFS_ROOT="$tmp/sys" "$aisp" hw network --quick --mib 8
grep -q "interface eth0: up, 100000 Mb/s, mtu 9000" <<<"$out" || fail "interface list: $out"
echo "PASS: hw network, hw ib"
