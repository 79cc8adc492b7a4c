set -u
export OUT=${OUT:-/tmp/o}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
AISP=build/aisp SUITE=ch07 LIMIT_S=200 bash scripts/harness_profile.sh 2>&1 | tail -40
AISP=build-before/aisp SUITE=ch07 LIMIT_S=200 bash scripts/harness_profile.sh 2>&1 | tail -40
SKIP_STATUSES= TARGETS=none VALIDITY_LIMIT_S=200 bash scripts/device_validity.sh 2>&1 | tail -40
