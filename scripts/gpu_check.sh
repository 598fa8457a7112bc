#!/usr/bin/env bash
# The whole GPU validation of safelaunch in one command (README: "Validating on a GPU").
#
#   OUT=DIR bash scripts/gpu_check.sh              on a GPU machine (with .whl/ carried, if any)
#   OUT=$(mktemp -d) bash scripts/gpu_check.sh --dry-run     here, without a GPU
#
# Runs scripts/gpu_check.py with the machine's python3 (GPU_CHECK_PYTHON names another), from
# the repository's root.  Every step has its own timeout and the whole check a budget
# (--budget, default 570 s), so it ends well inside a 10-minute command and always leaves
# results.json, gpu_check.log and runs.tar.gz in $OUT.  Options go to gpu_check.py.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
export PYTHONUNBUFFERED=1
exec "${GPU_CHECK_PYTHON:-python3}" scripts/gpu_check.py "$@"
