#!/usr/bin/env bash
# Installs what building and testing cuzk needs on a fresh Debian/Ubuntu machine, and
# nothing that is already there. CUDA (nvcc) is optional and never installed here.
set -euo pipefail

need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
for pkg in cmake ninja-build g++ libgtest-dev libbenchmark-dev libgmp-dev; do
  have_pkg "$pkg" || need+=("$pkg")
done

if ((${#need[@]})); then
  echo "install-deps: installing ${need[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${need[@]}"
else
  echo "install-deps: all build and test dependencies present"
fi
