#!/usr/bin/env bash
# `aisp profile ncu|nsys -- <command>` without a GPU: stand-in `ncu` and `nsys` on PATH (written below)
# that run the command they are given, as the real tools do, and write a report (ncu: the H100 CSV recorded
# in tests/data/profile/transpose). Checks the tool's command line, that the command really ran, the files
# under artifacts/profiles/, the profile document, the store, and the exit codes.
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
aisp="$1"
make_tmp
bin="$tmp/bin"
mkdir -p "$bin"
cat > "$bin/ncu" <<'FAKE'
#!/usr/bin/env bash
echo "ncu $*" >> "$FAKE_TOOL_LOG"
if [ "$1" = "--version" ]; then echo "Version 0.0.0 (stand-in ncu)"; exit 0; fi
if [ "$1" = "--import" ]; then cat "$2"; exit 0; fi
export_to=""
while [ $# -gt 0 ]; do  # ncu's own options, then the command
  case "$1" in
    --export) export_to=$2; shift 2 ;;
    --target-processes|--clock-control|--metrics|--launch-count|--nvtx-include) shift 2 ;;
    --force-overwrite|--nvtx) shift ;;
    *) break ;;
  esac
done
"$@"; code=$?
[ -n "${FAKE_NO_KERNELS:-}" ] || cp "$FAKE_NCU_CSV" "$export_to.ncu-rep"
exit $code
FAKE
cat > "$bin/nsys" <<'FAKE'
#!/usr/bin/env bash
echo "nsys $*" >> "$FAKE_TOOL_LOG"
if [ "$1" = "--version" ]; then echo "NVIDIA Nsight Systems version 0.0 (stand-in)"; exit 0; fi
shift  # profile
out=""
while [ $# -gt 0 ]; do
  case "$1" in -o) out=$2; shift 2 ;; -t) shift 2 ;; --force-overwrite=*) shift ;; *) break ;; esac
done
"$@"; code=$?
echo "stand-in timeline" > "$out.nsys-rep"
exit $code
FAKE
chmod +x "$bin/ncu" "$bin/nsys"
unset AISP_NCU AISP_NSYS
export PATH="$bin:$PATH" FAKE_TOOL_LOG="$tmp/tools.log" FAKE_NCU_CSV="$root/tests/data/profile/transpose/baseline.csv"
art="$tmp/art"

# ncu around a shell command: the command runs, the kernels of the report are printed with the seed's levels.
expect_code 0 "$aisp" profile ncu --artifacts-dir "$art" --preset deep_dive --launch-count 5 -- sh -c "echo hello > '$tmp/ran'"
[ "$(cat "$tmp/ran" 2>/dev/null)" = hello ] || fail "the profiled command did not run"
grep -q "transpose_naive" <<<"$out" || fail "no kernel printed: $out"
grep -q "DRAM throughput" <<<"$out" || fail "no metric levels printed: $out"
grep -q -- "--target-processes all --clock-control none --metrics gpu__time_duration.sum," "$tmp/tools.log" ||
  fail "ncu command line: $(cat "$tmp/tools.log")"
grep -q -- "--launch-count 5 sh -c echo hello" "$tmp/tools.log" || fail "launch count / command: $(cat "$tmp/tools.log")"
dir=$(ls -d "$art"/profiles/*__ncu__cmd_sh) || fail "no profile directory: $(ls -R "$art")"
doc="$dir/sh.profile.json"
[ -f "$dir/sh.ncu-rep" ] && [ -f "$doc" ] || fail "report or document missing: $(ls "$dir")"
grep -q '"target": "cmd:sh"' "$doc" && grep -q '"profiled_command"' "$doc" || fail "profile document: $(cat "$doc")"
grep -q "profile: $dir" <<<"$out" || fail "the profile directory is not named: $out"
# Stored like a target's profile, so the analyses read it: the bottleneck tree on the stored command.
expect_code 0 "$aisp" profile bottleneck --target cmd:sh --artifacts-dir "$art"
grep -q "verdict: UNCOALESCED ACCESS" <<<"$out" || fail "bottleneck on the command's profile: $out"
# --json: stdout is the profile document alone (the directory line goes to stderr).
"$aisp" profile ncu --artifacts-dir "$art" --no-db --json -- true >"$tmp/cmd.json" 2>"$tmp/cmd.err" ||
  fail "profile ncu --json -- true: $(cat "$tmp/cmd.err")"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["kernels"], d' "$tmp/cmd.json" ||
  fail "--json stdout is not one profile document: $(head -c 300 "$tmp/cmd.json")"
grep -q "^profile: " "$tmp/cmd.err" || fail "--json: the profile directory is not named on stderr: $(cat "$tmp/cmd.err")"
# --nvtx-include narrows to a range.
expect_code 0 "$aisp" profile ncu --artifacts-dir "$art" --no-db --nvtx-include step -- true
grep -q -- "--nvtx --nvtx-include step/ true" "$tmp/tools.log" || fail "nvtx range: $(cat "$tmp/tools.log")"
# The command fails: its exit status is reported and the command exits 1 (the report is kept).
expect_code 1 "$aisp" profile ncu --artifacts-dir "$art" --no-db -- sh -c "exit 3"
grep -q "the command (under ncu) exited 3" <<<"$out" || fail "failed command: $out"
# No kernel, no report: said so, exit 1.
expect_code 1 env FAKE_NO_KERNELS=1 "$aisp" profile ncu --artifacts-dir "$art" --no-db -- true
grep -q "wrote no report (did the command launch a kernel?)" <<<"$out" || fail "no report: $out"
# Usage: a target and a command, or an option where the command should be: exit 2.
expect_code 2 "$aisp" profile ncu --target ch07:copy_scalar --artifacts-dir "$art" -- true
grep -q "either --target or a command" <<<"$out" || fail "target and command: $out"
expect_code 2 "$aisp" profile ncu --artifacts-dir "$art" -- --bogus
# ncu missing: exit 2 naming where it looked.
expect_code 2 env AISP_NCU=/nonexistent/ncu "$aisp" profile ncu --artifacts-dir "$art" -- true
grep -q "ncu not found" <<<"$out" || fail "missing ncu: $out"

# nsys around a command: the timeline report under artifacts.
expect_code 0 "$aisp" profile nsys --artifacts-dir "$art" -- sh -c "echo timeline > '$tmp/ran2'"
[ -f "$tmp/ran2" ] || fail "nsys: the command did not run"
grep -q -- "nsys profile --force-overwrite=true -t cuda,nvtx,osrt -o $art/profiles/" "$tmp/tools.log" ||
  fail "nsys command line: $(cat "$tmp/tools.log")"
ls "$art"/profiles/*__nsys__cmd_sh/sh.nsys-rep >/dev/null || fail "no .nsys-rep: $(ls -R "$art/profiles")"
grep -q "report: .*sh.nsys-rep" <<<"$out" || fail "nsys output: $out"
expect_code 2 env AISP_NSYS=/nonexistent/nsys "$aisp" profile nsys --artifacts-dir "$art" -- true
grep -q "nsys not found" <<<"$out" || fail "missing nsys: $out"
echo "PASS: profile ncu|nsys -- <command>"
