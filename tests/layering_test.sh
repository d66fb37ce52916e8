#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Folder layering of include/cuzk (docs/ARCHITECTURE.md, "Layers"): every include of "cuzk/X/..." goes
# to a folder of lower rank or the includer's own; no .hpp includes a .cuh (a host compiler must read
# every .hpp); ec/ names no curve; the C API's sources reach the library only through its front door.
# Usage: layering_test.sh [ROOT] [ALLOW_LIST]. With an allow-list, a finding not in the list fails
# and so does a listed line that no longer appears, so the list can only shrink.
root=${1:-.}
allow=${2:-}
cd "$root" || exit 2
rank() {
  case "$1" in
    core|c) echo 10 ;; field|gpu) echo 20 ;; curves) echo 30 ;; ec) echo 40 ;; instances.hpp) echo 45 ;;
    pairing) echo 50 ;; msm|ntt) echo 60 ;; groth16) echo 70 ;; groth16/cuda) echo 80 ;; io) echo 90 ;;
    engine) echo 100 ;; service) echo 110 ;;
    *) echo 999 ;;
  esac
}
folder() {  # include/cuzk/groth16/cuda/x.cuh -> groth16/cuda ; cuzk/instances.hpp -> instances.hpp
  local p=${1#include/}; p=${p#cuzk/}
  case "$p" in groth16/cuda/*) echo groth16/cuda ;; */*) echo "${p%%/*}" ;; *) echo "$p" ;; esac
}
findings() {
  while IFS= read -r f; do
    local from rf
    from=$(folder "$f"); rf=$(rank "$from")
    [ "$rf" = 999 ] && echo "UNRANKED FOLDER: $f"
    while IFS= read -r inc; do
      local to rt
      to=$(folder "$inc"); rt=$(rank "$to")
      if [ "$rt" -gt "$rf" ] || { [ "$rt" -eq "$rf" ] && [ "$to" != "$from" ]; }; then
        echo "UPWARD: $f -> $inc"
      fi
      case "$f" in *.hpp) case "$inc" in *.cuh) echo "HPP INCLUDES CUH: $f -> $inc" ;; esac ;; esac
    done < <(grep -oE '#include "cuzk/[^"]+"' "$f" | sed -E 's/#include "(.*)"/\1/')
  done < <(find include/cuzk \( -name '*.hpp' -o -name '*.cuh' -o -name '*.h' \) | sort)
  grep -l '#include "cuzk/curves/' include/cuzk/ec/* 2>/dev/null | sed 's|^|EC NAMES A CURVE: |'
  for f in src/c_api/*.cpp; do
    grep -oE '#include "cuzk/[^"]+"' "$f" | grep -vE '"cuzk/(c|service)/' |
      sed "s|^|SHELL REACHES PAST THE FRONT DOOR: $f -> |"
  done
}
out=$(findings)
if [ -z "$allow" ]; then
  [ -n "$out" ] && printf '%s\n' "$out"
  [ -z "$out" ]; exit
fi
listed=$(grep -vE '^(#|$)' "$allow" || true)
new=$(comm -23 <(printf '%s\n' "$out" | sed '/^$/d' | sort) <(printf '%s\n' "$listed" | sed '/^$/d' | sort))
gone=$(comm -13 <(printf '%s\n' "$out" | sed '/^$/d' | sort) <(printf '%s\n' "$listed" | sed '/^$/d' | sort))
bad=0
[ -n "$new" ] && { echo "layering: not allowed:"; printf '  %s\n' "$new"; bad=1; }
[ -n "$gone" ] && { echo "layering: fixed, remove from $allow:"; printf '  %s\n' "$gone"; bad=1; }
[ $bad = 0 ] && echo "layering: $(printf '%s\n' "$listed" | sed '/^$/d' | wc -l) allowed finding(s), nothing new"
exit $bad
