#!/usr/bin/env bash
# `make help` lists every target with a description; `make coverage` (scripts/seed_coverage.py) counts the
# tree's pairs the way discovery does (checked here against an independent count for ch07) and keeps its
# JSON format; `make check` (scripts/check.sh) flags a mis-formatted C++ line, a shell warning, broken
# Python and broken JSON in changed files, and passes a clean change — in a scratch git repository.
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
make_tmp

help=$(make -s -C "$root" help) || fail "make help failed"
for t in $(sed -n 's/^\.PHONY: //p' "$root/Makefile"); do
  grep -qE "^  $t +[A-Z]" <<<"$help" || fail "make help does not describe $t: $help"
done

cov=$(python3 "$root/scripts/seed_coverage.py" --json) || fail "seed_coverage.py failed"
ch07_pairs=0
for b in "$root"/chapters/ch07/baseline_*; do
  x=$(basename "$b"); x=${x#baseline_}; x=${x%.*}
  if compgen -G "$root/chapters/ch07/optimized_$x.*" >/dev/null || compgen -G "$root/chapters/ch07/optimized_${x}_*" >/dev/null; then
    ch07_pairs=$((ch07_pairs + 1))
  fi
done
python3 - "$cov" "$ch07_pairs" <<'PY' || fail "coverage document"
import json, sys
d = json.loads(sys.argv[1])
assert d["schema"] == "aisp.seed_coverage/1"
s = d["summary"]
assert s["seed_chapters"] == 20 and s["seed_chapter_pairs"] == 285, s     # seed_repo.md section 1.2 totals
ch07 = [c for c in d["chapters"] if c["chapter"] == "ch07"][0]
assert ch07["aisp_pairs"] == int(sys.argv[2]), (ch07["aisp_pairs"], sys.argv[2])
assert "transpose" in ch07["same_name"] and ch07["topic"] == "memory access"
assert s["chapters_with_pairs"] == sum(1 for c in d["chapters"] if c["aisp_pairs"] > 0)
PY
text=$(make -s -C "$root" coverage) || fail "make coverage failed"
grep -q "^chapters with pairs: [0-9]*/20" <<<"$text" || fail "coverage text: $text"

# make check's script in a scratch repository: one commit, then changes on top.
repo="$tmp/repo"
mkdir -p "$repo/scripts" "$repo/src"
cp "$root/scripts/check.sh" "$repo/scripts/"
cp "$root/.clang-format" "$repo/"
git -C "$repo" init -q && git -C "$repo" -c user.email=t@t -c user.name=t commit -q --allow-empty -m base
git -C "$repo" add -A && git -C "$repo" -c user.email=t@t -c user.name=t commit -q -m tools
printf 'int f(int x) { return x + 1; }\n' > "$repo/src/good.cpp"
printf 'def f(x):\n    return x + 1\n' > "$repo/src/good.py"
out=$(CHECK_SKIP_TESTS=1 bash "$repo/scripts/check.sh" 2>&1) || fail "clean change failed: $out"
grep -qE "check: format: (ok|skipped)" <<<"$out" || fail "format on a clean file: $out"
grep -q "check: lint python: ok (1 file(s))" <<<"$out" || fail "python lint on a clean file: $out"
printf 'int g( int x ){return x+1;}\n' > "$repo/src/bad.cpp"
printf '#!/bin/sh\ncd /nowhere\necho $undefined_var\n' > "$repo/scripts/bad.sh"
printf 'def f(:\n' > "$repo/scripts/bad.py"
printf '{"a": }\n' > "$repo/bad.json"
out=$(CHECK_SKIP_TESTS=1 bash "$repo/scripts/check.sh" 2>&1) && fail "check passed a bad change: $out"
if command -v clang-format >/dev/null && command -v git-clang-format >/dev/null; then
  grep -q "check: format: FAIL" <<<"$out" || fail "format not flagged: $out"
fi
if command -v shellcheck >/dev/null; then grep -q "check: lint shell: FAIL" <<<"$out" || fail "shell not flagged: $out"; fi
grep -q "check: lint python: FAIL" <<<"$out" || fail "python not flagged: $out"
grep -q "check: lint json: FAIL" <<<"$out" || fail "json not flagged: $out"
grep -q "check: tests: skipped (CHECK_SKIP_TESTS=1)" <<<"$out" || fail "tests line: $out"
echo "make_targets: ok"
