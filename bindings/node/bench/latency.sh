#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The Node package's latency table: cuzk-setup writes a synthetic circuit per curve and size
# (INSECURE seeded keys, a 2^k-row domain), then bench/latency.js times snarkjs, cuzk one-shot,
# a resident cuzk prover and spawning cuzk-prove on each. Not a CI test (snarkjs takes minutes at 2^16+).
#
#   bindings/node/bench/latency.sh OUTDIR BUILD_DIR [LOG_SIZES] [REPS]
# BUILD_DIR: a CMake build with cuzk_node, cuzk-setup and cuzk-prove built. Environment: CURVES
# (default "bn128 bls12381"), SNARKJS_MAX_LOG (skip snarkjs above this size).
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 OUTDIR BUILD_DIR [LOG_SIZES] [REPS]" >&2; exit 2; }
out=$(mkdir -p "$1" && cd "$1" && pwd)
build=$(cd "$2" && pwd)
sizes=${3:-10 12 14 16 18}
reps=${4:-3}
here=$(cd "$(dirname "$0")" && pwd)
dirs=()
for curve in ${CURVES:-bn128 bls12381}; do
  for k in $sizes; do
    d="$out/${curve}_$k"
    [ -f "$d/circuit.zkey" ] || "$build/examples/cuzk-setup" --curve "$curve" --log-size "$k" --seed "$k" "$d" >/dev/null 2>&1
    dirs+=("$d")
  done
done
CUZK_NODE_ADDON_DIR=$(ls -d "$build"/bindings/node/prebuilds/*/ | head -n1) \
  node "$here/latency.js" "$build/examples/cuzk-prove" "${dirs[@]}" --reps "$reps" --snarkjs-max-log "${SNARKJS_MAX_LOG:-99}" |
  tee "$out/latency.jsonl"
