# One device call (the `run` tool): GPU tests, a chapter suite, the validity overhead and timing fidelity,
# everything packed into $OUT/res.tgz with a summary on stdout.
set -u; R=/tmp/res; mkdir -p $R
echo "== GPU tests + suite"; OUT= timeout 330 scripts/gpu_suite.sh build > $R/gpu_suite.txt 2>&1; echo "rc $?"
cp -r build/gpu-suite $R/ 2>/dev/null
echo "== validity overhead"; timeout 150 scripts/validity_overhead.sh build $R/overhead > $R/overhead.txt 2>&1; echo "rc $?"
echo "== fidelity"; timeout 80 scripts/timing_fidelity.sh build $R/fid > $R/fid.txt 2>&1; echo "rc $?"
rm -rf $R/gpu-suite/artifacts/runs/*/work $R/overhead/runs $R/fid/ncu_run
tar czf $OUT/res.tgz -C /tmp res
grep -E "^\[ *(FAILED|SKIPPED) *\]|tests ran|PASSED|FAILED TEST" $R/gpu_suite.txt | tail -30
cat $R/gpu-suite/artifacts/runs/*/reports/benchmark_test_results.md 2>/dev/null | head -30
cat $R/overhead.txt | tail -8
cat $R/fid.txt | tail -6
