#!/usr/bin/env bash
# The whole test suite, from a clean build directory: installs missing dependencies,
# configures (CUDA targets are compiled whenever nvcc is present, even without a GPU;
# GPU tests then skip), builds everything and runs ctest. This is what CI runs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CUZK_BUILD_DIR:-$root/build-test}

"$root/scripts/install-deps.sh"
rm -rf "$build"
# Device code is compiled optimised, as it runs on a GPU: each heavy kernel family once, in the
# cuzk::instances library (src/instances/), which the CUDA tests and examples link.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j "$(nproc)"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
