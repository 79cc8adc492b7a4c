#!/usr/bin/env bash
# `aisp bench tui` as a person uses it: the curses screen inside a tmux pane (keys sent, the pane captured
# and read), over a store of the committed H100/H200 reference runs plus a run "in progress"; then the
# --simple menu through a pipe. Exit 77 (skipped, reason printed) only when tmux is not installed.
# Usage: cli_tui.sh <aisp> <build dir> [capture dir: the screens are saved there as text]
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
aisp=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")  # absolute: the panes start elsewhere
captures=${3:-}
command -v tmux >/dev/null || skip "tmux is not installed (Debian: apt-get install tmux)"

make_tmp
sock=$tmp/tmux.sock
on_exit() { tmux -S "$sock" kill-server 2>/dev/null; }
# (a reference run that did not finish is refused by ingest; the finished ones are what the screens show)
"$aisp" bench ingest "$root"/results/reference/*/2026* --db "$tmp/artifacts/aisp.db" >/dev/null 2>&1
[ -f "$tmp/artifacts/aisp.db" ] || fail "could not ingest the reference runs"
live=$tmp/artifacts/runs/29990101_000000__bench__targets-ch07/progress
mkdir -p "$live"
progress() {  # progress <completed>: what `bench run` writes while ch07:transpose runs
  echo "{\"state\":\"running\",\"target\":\"ch07:transpose\",\"completed\":$1,\"total\":4,\"elapsed_s\":65,
\"estimate\":\"elapsed 1m05s, ~1m05s left\"}" > "$live/run_progress.json.tmp" && mv "$live/run_progress.json.tmp" "$live/run_progress.json"
}
progress 2

screen() { tmux -S "$sock" capture-pane -p -t tui; }
# wait_for <text>: the pane shows it within 10 s, else fail with the screen.
wait_for() {
  for _ in $(seq 100); do screen | grep -qF -- "$1" && return 0; sleep 0.1; done
  fail "the screen never showed '$1'. Screen:
$(screen)"
}
keys() { tmux -S "$sock" send-keys -t tui "$@"; }
save() { [ -n "$captures" ] && { mkdir -p "$captures"; screen > "$captures/$1.txt"; }; return 0; }

tmux -S "$sock" new-session -d -s tui -x 150 -y 40 \
  "cd '$tmp' && TERM=xterm-256color '$aisp' bench tui --refresh 0.2; echo TUI_EXIT=\$?; sleep 60"

# Targets: every stored target's newest verdict with its CI, and the live run in the status line.
wait_for "aisp bench tui | targets"
wait_for "live: ch07:transpose 2/4"
screen | grep -qE '^ch01:gemm_batched +h100_80gb_hbm3 +gemm_batched .* [0-9.]+x \[[0-9.]+, [0-9.]+\] +FASTER' \
  || fail "no target row with a speedup, CI and verdict:
$(screen)"
save tui_targets

# Down to ch07:copy_scalar (its row number from the --simple table), Enter: its history.
row=$(printf '1\nq\n' | "$aisp" bench tui --simple --artifacts-dir "$tmp/artifacts" 2>/dev/null \
      | sed -n 's/^ *\([0-9]*\)) ch07:copy_scalar  .*h100_80gb_hbm3.*/\1/p' | head -1)
[ -n "$row" ] || fail "ch07:copy_scalar is not in the --simple targets table"
for _ in $(seq $((row - 1))); do keys Down; done
keys Enter
wait_for "history of ch07:copy_scalar"
wait_for "20261122_085749  h100_80gb_hbm3   copy_scalar"
screen | grep -qE '^20261125_010107 +h200 +copy_scalar .*1\.47x \[1\.47, 1\.47\] +FASTER' \
  || fail "the H200 run is not in the history:
$(screen)"
! screen | grep -q aa_self || fail "an A/A calibration run is shown as history"
save tui_history

# b: back to the targets; 3: the live panel, which follows the progress file without a key press.
keys b
wait_for "aisp bench tui | targets"
keys 3
wait_for "now: ch07:transpose"
wait_for "] 2/4"
progress 3
wait_for "] 3/4"
wait_for "elapsed 1m05s, ~1m05s left"
save tui_live
keys 2
wait_for "20261125_005247__bench__targets-all"
keys q
wait_for "TUI_EXIT=0"

# A terminal curses cannot drive is a clear error pointing at --simple, not a crash.
tmux -S "$sock" new-window -t tui -n bad "TERM=aisp-no-such-terminal '$aisp' bench tui --artifacts-dir '$tmp/artifacts'; echo BAD_EXIT=\$?; sleep 60"
for _ in $(seq 100); do tmux -S "$sock" capture-pane -p -t tui:bad | grep -q BAD_EXIT && break; sleep 0.1; done
bad=$(tmux -S "$sock" capture-pane -p -t tui:bad)
grep -q "BAD_EXIT=2" <<<"$bad" && grep -q -- "--simple" <<<"$bad" || fail "unknown terminal: $bad"

# --simple through a pipe: the same tables; an unknown choice is said so; end of input quits with 0.
out=$(printf '1\n4\nch07:copy_scalar\n3\nx\n' | "$aisp" bench tui --simple --artifacts-dir "$tmp/artifacts" 2>&1) \
  || fail "--simple exited $?"
grep -qE '^ +[0-9]+\) ch07:copy_scalar +h100_80gb_hbm3 .*FASTER' <<<"$out" || fail "--simple targets: $out"
grep -q "history of ch07:copy_scalar" <<<"$out" || fail "--simple history: $out"
grep -q "now: ch07:transpose" <<<"$out" || fail "--simple live: $out"
grep -q "unknown choice 'x'" <<<"$out" || fail "--simple unknown choice: $out"
# Not a terminal and no --simple: the menu, with a note on stderr.
out=$(printf 'q\n' | "$aisp" bench tui --artifacts-dir "$tmp/artifacts" 2>&1)
grep -q "not a terminal; showing the --simple menu" <<<"$out" || fail "non-terminal fallback: $out"
# No store: a note, not an error.
out=$(printf '1\nq\n' | "$aisp" bench tui --simple --artifacts-dir "$tmp/none" 2>&1) || fail "no store: exit $?"
grep -q "no results store at" <<<"$out" || fail "no-store note: $out"
echo "PASS: bench tui (curses under tmux, --simple)"
