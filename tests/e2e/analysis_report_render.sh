#!/usr/bin/env bash
# Renders `aisp bench report` of the H100 reference runs with headless Chromium to a PNG and checks that it
# is a real picture. Skipped (exit 77) with the reason when Chromium is not installed. Set
# AISP_REPORT_PNG=<path> to keep the PNG (docs/images/report_reference.png was made that way).
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
aisp="$1"
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || skip "chromium is not installed (Debian package 'chromium'; scripts/setup.sh installs it)"
make_tmp
"$aisp" bench ingest "$root"/results/reference/h100_80gb_hbm3/2026* --db "$tmp/ref.db" >/dev/null || fail "ingest"
"$aisp" bench report --db "$tmp/ref.db" --title "aisp report: H100 reference runs" -o "$tmp/report.html" 2>/dev/null \
  || fail "report"
svgs=$(grep -o '<svg' "$tmp/report.html" | wc -l)
[ "$svgs" -ge 5 ] || fail "expected >= 5 charts (speedup, Pareto, roofline, bandwidth, history), found $svgs"
# The page is ~1000 px wide; the window is tall enough for the whole report.
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update \
  --disable-sync --no-first-run --user-data-dir="$tmp/profile" --hide-scrollbars --window-size=1040,4500 \
  --screenshot="$tmp/report.png" "file://$tmp/report.html" >"$tmp/chromium.log" 2>&1 \
  || fail "chromium failed: $(tail -5 "$tmp/chromium.log")"
[ -s "$tmp/report.png" ] || fail "no screenshot written: $(tail -5 "$tmp/chromium.log")"
python3 - "$tmp/report.png" <<'PY' || fail "screenshot is not a plausible rendering"
import os, struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", data[16:24])
assert (w, h) == (1040, 4500), (w, h)
# A blank or one-line error page of this size compresses to ~30 KiB (measured: 27 KiB empty, 32 KiB with an
# error heading and line); the report's text, tables and charts make it hundreds of KiB.
print(f"screenshot {w}x{h}, {len(data)} bytes")
assert len(data) > 150_000, "page looks blank"
PY
if [ -n "${AISP_REPORT_PNG:-}" ]; then cp "$tmp/report.png" "$AISP_REPORT_PNG" && echo "kept $AISP_REPORT_PNG"; fi
echo "report rendered"
