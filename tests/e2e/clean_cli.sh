#!/usr/bin/env bash
# `aisp clean`: dry run by default, --older-than / --keep retention on runs/ and profiles/, a running run
# kept, hw/ and calibration/ never touched, the store only with --include-store, usage error without a limit.
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
aisp="$1"
make_tmp
a="$tmp/artifacts"
new=$(date -u +%Y%m%d_%H%M%S)
mkdir -p "$a/runs/20200101_000000__bench__old" "$a/runs/20200301_000000__bench__older2" "$a/runs/${new}__bench__new" \
  "$a/runs/20200102_000000__bench__dead/progress" "$a/profiles/20200101_000000__ncu__ch07_copy" "$a/profiles/${new}__ncu__ch07_copy" \
  "$a/hw" "$a/calibration"
echo '{"state":"running"}' > "$a/runs/20200102_000000__bench__dead/progress/run_progress.json"
head -c 200000 /dev/zero > "$a/runs/20200101_000000__bench__old/samples.bin"
echo '{}' > "$a/hw/hardware_capabilities_x.json"
echo '{}' > "$a/calibration/noise_floor_x.json"
echo db > "$a/aisp.db"
echo wal > "$a/aisp.db-wal"

expect_code 2 "$aisp" clean --artifacts-dir "$a"
grep -q "nothing is removed by default" <<<"$out" || fail "no-limit message: $out"

# Dry run: lists, removes nothing.
expect_code 0 "$aisp" clean --artifacts-dir "$a" --older-than 30
grep -q "would remove 3 items" <<<"$out" || fail "dry run count: $out"
grep -q "20200101_000000__bench__old" <<<"$out" || fail "old run not listed: $out"
grep -q "__new" <<<"$out" && fail "new run listed for removal: $out"
[ -d "$a/runs/20200101_000000__bench__old" ] || fail "dry run removed something"

expect_code 0 "$aisp" clean --artifacts-dir "$a" --older-than 30 --json
python3 - "$out" <<'PY' || fail "clean --json"
import json, sys
d = json.loads(sys.argv[1])
assert d["dry_run"] is True
gone = sorted(i["path"].split("/")[-1] for i in d["items"] if i["remove"])
assert gone == ["20200101_000000__bench__old", "20200101_000000__ncu__ch07_copy", "20200301_000000__bench__older2"], gone
dead = [i for i in d["items"] if i["path"].endswith("__dead")][0]
assert not dead["remove"] and "running" in dead["reason"], dead
assert all(i["kind"] != "store" for i in d["items"])
PY

# Both limits: older than 30 days AND beyond the newest 2 -> only the oldest run of the three goes.
expect_code 0 "$aisp" clean --artifacts-dir "$a" --older-than 30 --keep 2 --yes
[ -d "$a/runs/20200101_000000__bench__old" ] && fail "old run not removed: $out"
[ -d "$a/runs/20200301_000000__bench__older2" ] || fail "newest-2 run removed: $out"
[ -d "$a/runs/${new}__bench__new" ] || fail "new run removed"
[ -d "$a/runs/20200102_000000__bench__dead" ] || fail "running run removed"
[ -f "$a/aisp.db" ] && [ -f "$a/hw/hardware_capabilities_x.json" ] && [ -f "$a/calibration/noise_floor_x.json" ] \
  || fail "store, hw or calibration touched"

# --keep 1 alone; then the store only with --include-store.
expect_code 0 "$aisp" clean --artifacts-dir "$a" --keep 1 --yes
[ -d "$a/runs/20200301_000000__bench__older2" ] && fail "--keep 1 kept two"
[ -d "$a/profiles/${new}__ncu__ch07_copy" ] || fail "newest profile removed"
[ -f "$a/aisp.db" ] || fail "store removed without --include-store"
expect_code 0 "$aisp" clean --artifacts-dir "$a" --include-store --yes
[ -e "$a/aisp.db" ] || [ -e "$a/aisp.db-wal" ] && fail "--include-store left the store"
[ -d "$a/runs/${new}__bench__new" ] || fail "--include-store alone removed runs"
echo "clean_cli: ok"
