#!/usr/bin/env bash
# `aisp profile torch` without a GPU (issue 23): option parsing and every refusal, with exit code and message —
# no target, a C++-only target, an unknown variant, a Python interpreter without torch (CI's Debian python3) or
# none at all; and the Python worker's own refusal when a profile is asked of it without torch (its load error,
# exit 3). The profile itself is tests/e2e/gpu_profile_torch.sh.
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
aisp="$1"
build="$(cd "${2:-$(dirname "$1")}" && pwd)"
make_tmp

expect_code 0 "$aisp" profile torch --help
grep -q -- "--top" <<<"$out" || fail "--help does not list --top: $out"
grep -q "Chrome trace" <<<"$out" || fail "--help does not say what it writes: $out"
expect_code 2 "$aisp" profile torch --artifacts-dir "$tmp"
grep -q "a target is required" <<<"$out" || fail "no target: $out"
expect_code 2 "$aisp" profile torch --target ch07:copy_scalar --artifacts-dir "$tmp"
grep -q "ch07:copy_scalar has no Python variants: use aisp profile ncu" <<<"$out" || fail "C++-only target: $out"
expect_code 2 "$aisp" profile torch --target ch14:transformer_block_torch --variant nosuch --artifacts-dir "$tmp"
grep -q "has no variant 'nosuch'" <<<"$out" || fail "unknown variant: $out"
expect_code 2 "$aisp" profile torch --target ch14:transformer_block_torch --top 0 --artifacts-dir "$tmp"
grep -q -- "--top must be at least 1" <<<"$out" || fail "--top 0: $out"
expect_code 2 "$aisp" profile torch --target ch14:no_such_pair --artifacts-dir "$tmp"
grep -q "is not one target" <<<"$out" || fail "unknown target: $out"

# No interpreter at all, then one without torch: exit 2 before any worker starts, saying what to do.
expect_code 2 env AISP_PYTHON=/nonexistent/python3 "$aisp" profile torch --target ch14:transformer_block_torch \
  --artifacts-dir "$tmp"
grep -q "cannot import torch.profiler" <<<"$out" || fail "missing interpreter: $out"
grep -q "AISP_PYTHON" <<<"$out" || fail "missing interpreter: the message does not name \$AISP_PYTHON: $out"
[ -d "$tmp/profiles" ] && fail "a refused profile created $tmp/profiles"
if python3 -c "import torch" >/dev/null 2>&1; then
  echo "note: python3 has torch here; the without-torch case is checked with a stand-in interpreter only"
else
  expect_code 2 env AISP_PYTHON=python3 "$aisp" profile torch --target ch14:transformer_block_torch --artifacts-dir "$tmp"
  grep -q "No module named 'torch'" <<<"$out" || fail "python3 without torch: $out"
  grep -q "needs PyTorch" <<<"$out" || fail "python3 without torch: $out"
fi
# A stand-in interpreter that fails to import torch, whatever python3 has.
cat >"$tmp/python-without-torch" <<'SH'
#!/bin/sh
echo "ModuleNotFoundError: No module named 'torch' (stand-in)" >&2
exit 1
SH
chmod +x "$tmp/python-without-torch"
expect_code 2 env AISP_PYTHON="$tmp/python-without-torch" "$aisp" profile torch --target ch14:layer_stack_torch \
  --artifacts-dir "$tmp"
grep -q "No module named 'torch' (stand-in)" <<<"$out" || fail "stand-in interpreter: $out"

# The worker asked for a profile without torch: the protocol's load error (fd 4 -> stdout here), exit 3.
if ! python3 -c "import torch" >/dev/null 2>&1; then
  out=$(cd "$tmp" && AISP_TORCH_PROFILE="$tmp/p" PYTHONPATH="$root/python" PYTHONDONTWRITEBYTECODE=1 \
        AISP_WORKER_LIBRARY="$build/lib/libaisp_worker.so" \
        python3 -m aisp.worker --benchmark "$root/chapters/ch14/baseline_transformer_block_torch.py" --out-fd 1 \
        2>/dev/null)
  code=$?
  [ "$code" -eq 3 ] || fail "worker without torch exited $code, expected 3: $out"
  grep -q '"event": "error", "kind": "load"' <<<"$out" || fail "worker without torch: no load error: $out"
  grep -q "needs PyTorch" <<<"$out" || fail "worker without torch: $out"
fi
echo "profile torch CLI: ok"
