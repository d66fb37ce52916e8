#!/usr/bin/env bash
# Builds and runs the example program on its embedded default input.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CUZK_BUILD_DIR:-$root/build-demo}

"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_BUILD_TESTS=OFF -DCUZK_BUILD_BENCHMARKS=OFF
cmake --build "$build" --target cuzk-demo
"$build/examples/cuzk-demo" "$@"
