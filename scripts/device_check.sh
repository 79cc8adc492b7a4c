set -u; R=/tmp/res; mkdir -p $R
ldd build/aisp | grep -v -E 'linux-vdso|ld-linux' > $R/ldd.txt
echo "== fixtures + suite 1"; OUT= timeout 300 scripts/gpu_suite.sh build > $R/gpu_suite.txt 2>&1; echo "rc $?"
OUT_SAVE=$OUT
cp -r build/gpu-suite $R/ 2>/dev/null
echo "== suite 2"; build/aisp bench run --targets ch07 ch01 --artifacts-dir $R/run2 > $R/run2.md 2>$R/run2_progress.txt; echo "rc $?"
echo "== fidelity"; timeout 200 scripts/timing_fidelity.sh build $R/fid > $R/fid.txt 2>&1; echo "rc $?"
tar czf $OUT_SAVE/res.tgz -C /tmp res
grep -E "^\[ *(OK|FAILED|SKIPPED) *\]|PASSED|FAILED" $R/gpu_suite.txt | tail -30
cat $R/gpu-suite/artifacts/runs/*/reports/benchmark_test_results.md 2>/dev/null | head -40
tail -25 $R/run2.md
cat $R/fid.txt | tail -12
