#!/usr/bin/env bash
# The whole test suite, from a clean build directory: installs missing dependencies,
# configures (CUDA targets are compiled whenever nvcc is present, even without a GPU;
# GPU tests then skip), builds everything and runs ctest. This is what CI runs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CUZK_BUILD_DIR:-$root/build-test}

"$root/scripts/install-deps.sh"
rm -rf "$build"
# Without a GPU the device code is only compiled, so compile it unoptimised (much faster).
fast=OFF
nvidia-smi -L >/dev/null 2>&1 || fast=ON
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA_FAST_COMPILE=$fast
cmake --build "$build" -j "$(nproc)"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
