#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The layering check finds what it must: an upward include, a .hpp that includes a .cuh, an ec/ header
# that names a curve and a C API source past the front door, each in a small tree of its own; and it
# passes a tree without them.
set -u
script=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mk() { mkdir -p "$(dirname "$tmp/$1")"; printf '%s\n' "$2" > "$tmp/$1"; }
mk include/cuzk/core/a.hpp '#include <vector>'
mk include/cuzk/msm/m.hpp '#include "cuzk/core/a.hpp"'
mk src/c_api/p.cpp '#include "cuzk/c/cuzk_prover.h"'
bash "$script" "$tmp" >/dev/null || { echo "a clean tree fails"; exit 1; }
expect() {  # expect FILE TEXT PATTERN: the check fails on FILE holding TEXT and names PATTERN
  local save; save=$(cat "$tmp/$1" 2>/dev/null || true)
  mk "$1" "$2"
  out=$(bash "$script" "$tmp"); rc=$?
  if [ $rc = 0 ] || ! grep -q "$3" <<<"$out"; then echo "missed: $3 ($1)"; exit 1; fi
  if [ -n "$save" ]; then printf '%s\n' "$save" > "$tmp/$1"; else rm "$tmp/$1"; fi
}
expect include/cuzk/msm/m.hpp '#include "cuzk/groth16/prover.hpp"' UPWARD
expect include/cuzk/msm/m.hpp '#include "cuzk/ntt/domain.hpp"' UPWARD
expect include/cuzk/msm/m.hpp '#include "cuzk/msm/pippenger_device.cuh"' "HPP INCLUDES CUH"
expect include/cuzk/ec/e.hpp '#include "cuzk/curves/bn254.hpp"' "EC NAMES A CURVE"
expect src/c_api/p.cpp '#include "cuzk/io/wtns.hpp"' "SHELL REACHES PAST"
expect include/cuzk/newfolder/x.hpp '#include <vector>' "UNRANKED FOLDER"
# The allow-list only shrinks: a listed finding that is gone fails too.
printf '%s\n' 'UPWARD: include/cuzk/msm/m.hpp -> cuzk/io/x.hpp' > "$tmp/allow.txt"
bash "$script" "$tmp" "$tmp/allow.txt" >/dev/null && { echo "a stale allow-list line passes"; exit 1; }
echo "layering self-test: ok"
