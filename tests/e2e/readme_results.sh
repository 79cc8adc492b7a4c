#!/usr/bin/env bash
# The chapter READMEs' results tables are exactly what scripts/readme_results.py generates from the
# committed expectations (and, for % of roof, from the committed reference run through this aisp).
set -u
aisp="$1"
root="$(cd "$(dirname "$0")/../.." && pwd)"
python3 "$root/scripts/readme_results.py" --check --aisp "$aisp" || {
  echo "FAIL: regenerate with scripts/readme_results.py after updating expectations"
  exit 1
}
# And the check can fail: a table that no longer matches its expectations is reported.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp -r "$root/scripts" "$root/chapters" "$tmp/"
[ -d "$root/results" ] && cp -r "$root/results" "$tmp/"
readme=$(ls "$tmp"/chapters/*/README.md | head -1)
sed -i 's/| FASTER |/| SLOWER |/' "$readme"
if python3 "$tmp/scripts/readme_results.py" --check --aisp "$aisp" >/dev/null; then
  echo "FAIL: a README edited by hand ($readme) passed the check"
  exit 1
fi
echo "ok: README results tables match the expectations"
