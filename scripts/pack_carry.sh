#!/usr/bin/env bash
# Packs what a device call needs from the build folder into .carry/build.tgz (git-ignored through
# .git/info/exclude), so it travels within the device tool's 64 MiB: aisp, lib/, every plugin (~47 MB raw,
# ~19 MB gzipped) and the test binaries named in $TESTS. On the device: `tar xzf .carry/build.tgz`.
# Usage: TESTS="test_validity_fixtures test_fixture_statuses" bash scripts/pack_carry.sh [BUILD_DIR]
set -euo pipefail
B=${1:-build}
mkdir -p .carry
paths=("$B/aisp" "$B/lib" "$B/plugins")
for t in ${TESTS:-}; do paths+=("$B/tests/$t"); done
tar czf .carry/build.tgz "${paths[@]}"
du -h .carry/build.tgz
