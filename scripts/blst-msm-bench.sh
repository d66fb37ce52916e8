#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The host MSM against blst's on the same BLS12-381 points and scalars (benchmarks/peers/msm_blst.cpp):
# builds blst from a tree you give (its build.sh), configures a CPU build of cuzk with
# CUZK_BLST_DIR, builds peer_msm_blst and runs it.
#
#   scripts/blst-msm-bench.sh BLST_TREE BUILD_DIR [LOG_SIZES] [ROUNDS]
#     BLST_TREE: a supranational/blst source tree (built in place when libblst.a is missing)
#     LOG_SIZES: default "16 18"; ROUNDS: interleaved rounds per size (default 5)
# G1 and G2; each size checked against the closed form before it is timed. Prints the lines of
# peer_msm_blst and the machine's load before and after (a quiet machine is the comparison).
set -euo pipefail
[[ $# -ge 2 ]] || { echo "usage: $0 BLST_TREE BUILD_DIR [LOG_SIZES] [ROUNDS]" >&2; exit 2; }
blst=$(cd "$1" && pwd)
build=$2
sizes=${3:-16 18}
rounds=${4:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
[[ -f $blst/libblst.a ]] || (cd "$blst" && ./build.sh >/dev/null)
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=OFF -DCUZK_BUILD_FUZZERS=OFF \
    -DCUZK_BLST_DIR="$blst" >/dev/null
cmake --build "$build" --target peer_msm_blst >/dev/null
echo "blst: $(git -C "$blst" rev-parse --short HEAD 2>/dev/null || echo "tree $blst")"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) threads"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
# shellcheck disable=SC2086
"$build/benchmarks/peer_msm_blst" $sizes --rounds "$rounds" --g2
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
