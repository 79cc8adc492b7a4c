#!/usr/bin/env bash
# `make check`: format check, lint and the CPU tests, with the tools Debian ships. Each step prints one
# line `check: <step>: ok | FAIL | skipped (<why>)`; the exit code is 1 when any step failed.
#
# Which files: the ones changed against CHECK_BASE (default HEAD: what you have not committed yet;
# `make check CHECK_BASE=HEAD~3` checks the last three commits too), untracked files included.
#  - format: clang-format (.clang-format) on the changed *lines* of C++/CUDA files (git clang-format), so
#    untouched older code is not reported;
#  - lint: shellcheck (severity warning) on changed shell scripts, a syntax check (compile()) of changed Python,
#    a JSON parse of changed .json files;
#  - tests: ctest in BUILD, every test not labelled gpu (CHECK_CTEST_ARGS replaces `-LE gpu`).
set -u
cd "$(dirname "$0")/.." || exit 2
build="${1:-build}"
base="${CHECK_BASE:-HEAD}"
ctest_args="${CHECK_CTEST_ARGS:--LE gpu}"
failed=0
report() { echo "check: $1: $2"; [ "$2" = FAIL ] && failed=1; return 0; }

mapfile -t changed < <( { git diff --name-only --diff-filter=ACMR "$base" -- . 2>/dev/null;
                          git ls-files --others --exclude-standard; } | sort -u | while read -r f; do [ -f "$f" ] && echo "$f"; done)
echo "check: ${#changed[@]} changed file(s) against $base"
of_type() { local f; for f in "${changed[@]}"; do [[ "$f" =~ $1 ]] && echo "$f"; done; return 0; }

# ---- format
mapfile -t cxx < <(of_type '\.(cpp|hpp|cu|cuh|h)$')
if ! command -v git-clang-format >/dev/null || ! command -v clang-format >/dev/null; then
  report format "skipped (clang-format / git-clang-format not installed: apt-get install clang-format)"
elif [ ${#cxx[@]} -eq 0 ]; then
  report format "ok (no changed C++/CUDA file)"
else
  # New (untracked) files have no base lines: git clang-format needs them known to git, so check them whole.
  out=$(git clang-format --diff --extensions cpp,hpp,cu,cuh,h "$base" -- "${cxx[@]}" 2>&1)
  for f in $(git ls-files --others --exclude-standard -- "${cxx[@]}"); do out+=$(clang-format "$f" | diff -u "$f" - | sed "s|^--- $f|--- $f (new file)|"); done
  if [ -z "$out" ] || grep -qE '^(no modified files to format|clang-format did not modify any files)$' <<<"$out" && ! grep -q '^[+-][^+-]' <<<"$out"; then
    report format "ok (${#cxx[@]} C++/CUDA file(s))"
  else
    echo "$out" | head -200
    report format FAIL
  fi
fi

# ---- lint
mapfile -t sh < <(of_type '\.sh$')
if [ ${#sh[@]} -eq 0 ]; then report "lint shell" "ok (no changed script)"
elif ! command -v shellcheck >/dev/null; then report "lint shell" "skipped (shellcheck not installed: apt-get install shellcheck)"
elif shellcheck -S warning "${sh[@]}"; then report "lint shell" "ok (${#sh[@]} script(s))"
else report "lint shell" FAIL; fi

mapfile -t py < <(of_type '\.py$')
if [ ${#py[@]} -eq 0 ]; then report "lint python" "ok (no changed Python file)"
elif python3 - "${py[@]}" <<'PY'
import sys
# compile() on the source: a syntax check that writes no .pyc (py_compile's cfile="/dev/null" is refused by
# Python >= 3.11: "a non-regular file").
bad = 0
for f in sys.argv[1:]:
    try:
        compile(open(f, encoding="utf-8").read(), f, "exec")
    except SyntaxError as e:
        print(f"{f}:{e.lineno}: {e.msg}"); bad = 1
sys.exit(bad)
PY
then report "lint python" "ok (${#py[@]} file(s))"
else report "lint python" FAIL; fi

mapfile -t js < <(of_type '\.json$')
bad_json=0
for f in "${js[@]}"; do python3 -m json.tool "$f" >/dev/null 2>&1 || { echo "not valid JSON: $f"; bad_json=1; }; done
if [ $bad_json -eq 0 ]; then report "lint json" "ok (${#js[@]} file(s))"; else report "lint json" FAIL; fi

# ---- tests
if [ "${CHECK_SKIP_TESTS:-0}" = 1 ]; then
  report tests "skipped (CHECK_SKIP_TESTS=1)"
elif [ ! -f "$build/CTestTestfile.cmake" ]; then
  report tests "FAIL"; echo "  no build in $build (make build first)"
else
  # shellcheck disable=SC2086  # ctest_args is a word list on purpose
  if ctest --test-dir "$build" --output-on-failure -j "$(nproc)" $ctest_args; then report tests "ok (ctest $ctest_args)"
  else report tests FAIL; fi
fi
exit $failed
