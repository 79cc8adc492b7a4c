#!/usr/bin/env bash
# `aisp bench export --format pdf`: the HTML report of a committed H100 reference run printed by headless
# Chromium; checks it is a PDF of several pages with the report's fonts and charts in it. Skipped (exit 77)
# with the reason when Chromium is not installed; the missing-browser error is checked either way.
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
aisp="$1"
run="$root/results/reference/h100_80gb_hbm3/20261125_005247__bench__targets-all"
make_tmp
# No browser: exit 2 naming where it looked; no file.
expect_code 2 env AISP_CHROMIUM=/nonexistent/chromium "$aisp" bench export "$run" --format pdf -o "$tmp/none.pdf"
grep -q "needs headless Chromium, not found; looked in: \$AISP_CHROMIUM (/nonexistent/chromium)" <<<"$out" \
  || fail "missing-browser message: $out"
[ ! -e "$tmp/none.pdf" ] || fail "a PDF was written without a browser"
expect_code 2 "$aisp" bench export "$run" --format pdf  # a PDF is not written to stdout
grep -q "give -o FILE.pdf" <<<"$out" || fail "pdf without -o: $out"

browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$browser" ] || skip "chromium is not installed (Debian package 'chromium'; scripts/setup.sh installs it)"
expect_code 0 "$aisp" bench export "$run" --format pdf -o "$tmp/report.pdf"
grep -q "wrote $tmp/report.pdf (pdf, [0-9]* bytes, printed by " <<<"$out" || fail "export message: $out"
python3 - "$tmp/report.pdf" <<'PY' || fail "not a plausible PDF of the report"
import re, sys
data = open(sys.argv[1], "rb").read()
assert data.startswith(b"%PDF-"), data[:16]
assert data.rstrip().endswith(b"%%EOF"), "truncated"
pages = len(re.findall(rb"/Type\s*/Page[^s]", data))
# The report of 42 targets (tables, five SVG charts) is several pages; an error page would be one page of a
# few KiB. Measured with Chromium 156: 895 KiB.
print(f"{pages} pages, {len(data)} bytes")
assert pages >= 3, pages
assert len(data) > 100_000, len(data)
PY
echo "PASS: bench export --format pdf"
