#!/usr/bin/env bash
# One device call for `aisp profile` (docs/profile.md): ncu profiles of the ch07 copy and transpose pairs
# (deep_dive), the bottleneck verdicts, roofline, compare, compute-sanitizer on the planted out-of-bounds
# fixture, the nsys message, then the GPU test (tests/gpu/test_profile.cpp). ~2-4 minutes on an H100.
# Needs build/ with: aisp, plugins/ch07 (copy_scalar, transpose), plugins/sanitizer, tests/test_profile.
# Build here:  ninja -C build aisp test_profile plugin_ch07_baseline_copy_scalar plugin_ch07_optimized_copy_scalar \
#   plugin_ch07_baseline_transpose plugin_ch07_optimized_transpose plugin_sanitizer_baseline_oob_write \
#   plugin_sanitizer_optimized_oob_write
# Usage (repository root, build/ carried): bash scripts/gpu_profile_check.sh
# Results under $OUT: profile.txt (every command, its exit code and output), memcheck_oob.log (the raw
# compute-sanitizer log of the planted write: a recording for tests/data/profile), gpu_test.txt,
# profiles.tar.gz (the profile directories: .ncu-rep, .csv, .profile.json).
set -u
out=${OUT:-/tmp/gpu_profile_check}; mkdir -p "$out"
art=/tmp/aisp_profile_artifacts; rm -rf "$art"
aisp=build/aisp
log="$out/profile.txt"; : > "$log"
step() {  # step <expected exit code> <aisp args...>
  local want=$1; shift
  echo "=== aisp $* (expect exit $want)" >> "$log"
  timeout 300 "$aisp" "$@" --artifacts-dir "$art" >> "$log" 2>&1
  local rc=$?
  echo "=== exit $rc$([ $rc -eq "$want" ] || echo '   <-- UNEXPECTED')" >> "$log"
}
(nvidia-smi -L; which ncu compute-sanitizer nsys; ncu --version | tail -1; compute-sanitizer --version | tail -1) >> "$log" 2>&1
SECONDS=0
# Measured ceilings for the roofline: artifacts/hw/hardware_capabilities_<hwkey>.json (here, in the checkout).
"$aisp" hw peak >> "$log" 2>&1
step 0 profile ncu --target ch07:copy_scalar --preset deep_dive
step 0 profile ncu --target ch07:transpose --preset deep_dive
step 0 profile bottleneck --target ch07:copy_scalar
step 0 profile bottleneck --target ch07:transpose
step 0 profile roofline --target ch07:copy_scalar
step 0 profile roofline --target ch07:transpose
step 0 profile compare ch07:copy_scalar
step 0 profile compare ch07:transpose
step 3 profile sanitizer --target sanitizer:oob_write --tool memcheck
step 0 profile sanitizer --target sanitizer:oob_write --variant baseline --tool all
step 2 profile nsys --target ch07:copy_scalar --variant baseline
echo "wall_s $SECONDS" >> "$log"
cp "$(ls -d "$art"/profiles/*__sanitizer__sanitizer_oob_write | head -1)/oob_write.memcheck.log" \
   "$out/memcheck_oob.log" 2>/dev/null || true
tar czf "$out/profiles.tar.gz" -C "$art" profiles 2>/dev/null
# The test binary directly (ctest's files hold the dev machine's paths), as scripts/gpu_suite.sh does.
AISP_EXE="$aisp" timeout 400 build/tests/test_profile > "$out/gpu_test.txt" 2>&1
echo "gpu test exit $?" >> "$out/gpu_test.txt"
grep -E "^=== |verdict:|UNEXPECTED|store sectors|requests|% of roof|error\(s\)|clean" "$log" | head -80
tail -3 "$out/gpu_test.txt"
