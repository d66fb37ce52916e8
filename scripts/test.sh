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
# The host side of CUDA TUs is compiled at -O2 here (CMAKE_CUDA_FLAGS_RELEASE): nvcc's -O sets
# only the host compiler's level (device code is optimised either way, byte-identical fatbin),
# and on a machine without a GPU those executables only skip; the exception, cuzk-prove's CPU
# backend in the interop tests, runs the CPU prover that the host tests cover at -O3.
# -O3 cost ~12% more CPU time in the prover-heavy TUs (docs/PERFORMANCE.md, "Build"). Host
# tests (.cpp) keep Release's -O3; scripts/gpu-suite.sh builds everything at -O3.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CUDA_FLAGS_RELEASE=-O2 -DNDEBUG"
cmake --build "$build" -j "$(nproc)"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
