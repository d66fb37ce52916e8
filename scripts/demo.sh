#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Builds the example prover (and cuzk-verify) and proves its embedded default circuit.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CUZK_BUILD_DIR:-$root/build-demo}

"$root/scripts/install-deps.sh"
# With a GPU the prover is built with its CUDA backend; without one, as plain C++ (quick).
cuda=AUTO
nvidia-smi -L >/dev/null 2>&1 || cuda=OFF
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=$cuda \
  -DCUZK_BUILD_TESTS=OFF -DCUZK_BUILD_BENCHMARKS=OFF
cmake --build "$build" --target cuzk-prove cuzk-verify
"$build/examples/cuzk-prove" "$@"
