#!/usr/bin/env bash
# Issue 21's closing measurements in one device call: the ch01-ch09 suite with the new harness (wall and
# phase table), the peer wall-time comparison, the validity fixtures and fixture statuses. Results in $OUT.
set -u
export OUT=${OUT:-/tmp/o}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
AISP=build/aisp PAIR= SUITE="ch01 ch02 ch03 ch05 ch06 ch07 ch08 ch09" LIMIT_S=280 bash scripts/harness_profile.sh 2>&1 | head -30
bash scripts/peer_wall.sh 2>&1 | tail -20
SKIP_STATUSES= TARGETS=none VALIDITY_LIMIT_S=200 bash scripts/device_validity.sh 2>&1 | tail -12
