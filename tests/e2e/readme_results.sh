#!/usr/bin/env bash
# The chapter READMEs' results tables are exactly what scripts/readme_results.py generates from the
# committed expectations (and, for % of roof, from the committed reference run through this aisp).
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
aisp="$1"
python3 "$root/scripts/readme_results.py" --check --aisp "$aisp" ||
  fail "regenerate with scripts/readme_results.py after updating expectations"
# And the check can fail: a table that no longer matches its expectations is reported.
make_tmp
cp -r "$root/scripts" "$root/chapters" "$tmp/"
[ -d "$root/results" ] && cp -r "$root/results" "$tmp/"
readme=$(ls "$tmp"/chapters/*/README.md | head -1)
sed -i 's/| FASTER |/| SLOWER |/' "$readme"
python3 "$tmp/scripts/readme_results.py" --check --aisp "$aisp" >/dev/null &&
  fail "a README edited by hand ($readme) passed the check"
echo "ok: README results tables match the expectations"
