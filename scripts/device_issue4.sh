# One device call for issue 4's GPU evidence: A/A calibration, three runs into the store (the first
# writes expectations), history/compare-runs/exports, and the validity fixtures again. Results: $OUT/r4.tgz.
set -u; R=/tmp/r4; rm -rf $R; mkdir -p $R; A=$R/artifacts; B=build/aisp
$B bench calibrate -t ch07 ch01 --time-limit 5 --artifacts-dir $A > $R/calibrate.txt 2>$R/calibrate.err; echo "calibrate rc $?"
for i in 1 2 3; do
  extra=""; [ $i = 1 ] && extra="--update-expectations"
  $B bench run -t ch07 ch01 --time-limit 5 --artifacts-dir $A $extra > $R/run$i.md 2>$R/run$i.err; echo "run$i rc $?"
done
$B bench runs --db $A/aisp.db > $R/runs.txt 2>&1
for t in ch07:copy_scalar ch01:gemm_batched; do $B bench history $t --db $A/aisp.db > $R/history_${t/:/_}.txt 2>&1; done
$B bench compare-runs previous latest --db $A/aisp.db > $R/compare_runs.txt 2>&1
$B bench expectations --hardware h100 --min-speedup 1.05 --output $R/pob > $R/expectations.txt 2>&1
last=$(ls -d $A/runs/*__bench__targets-* | tail -1)
$B bench export $last --format nvbench -o $R/export_nvbench.json > $R/export.txt 2>&1
$B bench export $last --format gbench -o $R/export_gbench.json >> $R/export.txt 2>&1
timeout 150 build/tests/test_validity_fixtures > $R/validity.txt 2>&1; echo "validity rc $?"
mkdir -p $R/expect $R/reference
cp chapters/*/expectations_*.json $R/expect/ 2>/dev/null
for d in $A/runs/*; do n=$(basename $d); mkdir -p $R/reference/$n; cp $d/manifest.json $R/reference/$n/; cp -r $d/results $R/reference/$n/ 2>/dev/null; cp -r $d/reports $R/reference/$n/ 2>/dev/null; done
cp -r $A/calibration $R/ 2>/dev/null; cp $A/aisp.db $R/ 2>/dev/null
rm -rf $A
tar czf $OUT/r4.tgz -C /tmp r4; ls -la $OUT
cat $R/calibrate.txt; tail -12 $R/run3.md; cat $R/history_ch07_copy_scalar.txt | head -12; head -20 $R/compare_runs.txt
grep -E "PASSED|FAILED" $R/validity.txt | tail -5
