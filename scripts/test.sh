#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
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
# Without a GPU the host side of CUDA TUs is compiled unoptimised (CUZK_CUDA_HOST_UNOPTIMISED):
# nvcc's -O sets only the host compiler's level (device code is optimised either way: the cubins
# are byte-identical), and there those executables only skip (cuzk-prove's CPU prover, which the
# interop tests run, is a plain C++ TU, optimised as host code). With a GPU (nvidia-smi lists one)
# everything is optimised, as the GPU tests then run. Host tests (.cpp) keep Release's -O3; scripts/gpu-suite.sh
# builds everything at -O3.
host_unoptimised=ON
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then host_unoptimised=OFF; fi
# Warnings are errors here (CUZK_WARNINGS_AS_ERRORS): nobody reads a CI log that passed.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "-DCUZK_CUDA_HOST_UNOPTIMISED=$host_unoptimised" \
    -DCUZK_WARNINGS_AS_ERRORS=ON
cmake --build "$build" -j "$(nproc)"
# Where the build time went (elapsed seconds per file, from ninja's log): kept in every CI log so
# that growth can be attributed to the files that grew.
if [[ -f $build/.ninja_log ]]; then
    echo "test.sh: slowest compiles (elapsed s), of $(awk 'NR > 1 { s += ($2 - $1) / 1000 } END { printf "%d", s }' "$build/.ninja_log") s in all:"
    # sed, not head: head exits early, and sort's SIGPIPE would fail the run under pipefail.
    awk 'NR > 1 { printf "%6.1f %s\n", ($2 - $1) / 1000, $4 }' "$build/.ninja_log" | sort -rn | sed -n '1,20p'
fi
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
