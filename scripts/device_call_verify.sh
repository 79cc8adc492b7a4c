set -u
export OUT=${OUT:-/tmp/o}
rm -rf build && mv build-carry build
SKIP_STATUSES= TARGETS=none VALIDITY_LIMIT_S=200 bash scripts/device_validity.sh 2>&1 | tail -12
SECONDS=0
timeout 200 build/aisp bench run -t ch01 ch07 --artifacts-dir /tmp/v --no-db --format md > $OUT/suite.md 2> $OUT/suite.err
echo "suite rc=$? wall_s=$SECONDS"; grep -E "INVALID|failed|protocol" $OUT/suite.md | head; tail -4 $OUT/suite.err
