#!/usr/bin/env bash
# Download, here (with network), the wheels scripts/gpu_check.sh installs on a GPU machine
# that cannot reach a package index: safelaunch's own dependencies and py-spy (stack dumps with
# native frames), with every dependency of theirs, for that machine's Python (x86-64 Linux).
#
#   bash scripts/gpu_check_wheels.sh          # into .whl/ (ignored by git; carry it: .whl)
#
# GPU_CHECK_PYTHON_VERSION (default 3.12, the GPU image's python3) picks the Python.  The
# check installs only the wheels whose distribution the machine lacks, so carrying a package
# it already has changes nothing there.  Old wheels are removed first: two versions of one
# package stop pip's install.
set -euo pipefail
cd "$(dirname "$0")/.."
version=${GPU_CHECK_PYTHON_VERSION:-3.12}
packages=(click psutil pyyaml paramiko requests pathspec py-spy)
mkdir -p .whl
rm -f .whl/*.whl
platforms=()
for p in manylinux_2_28_x86_64 manylinux_2_27_x86_64 manylinux_2_17_x86_64 \
         manylinux2014_x86_64 manylinux1_x86_64; do
  platforms+=(--platform "$p")
done
# --only-binary with a target platform lets pip resolve the dependencies for that machine.
python3 -m pip download -q --only-binary=:all: --python-version "$version" --implementation cp \
  "${platforms[@]}" -d .whl "${packages[@]}"
ls -1 .whl
du -sh .whl
