#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Installs what building and testing cuzk needs on a fresh Debian/Ubuntu machine, and
# nothing that is already there. CUDA (nvcc) is optional and never installed here.
set -euo pipefail

need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
# libssl-dev: OpenSSL's BLAKE2b-512 for the Filecoin .params digest (io/bellperson_params.hpp, cuzk-params --digest)
# valgrind: the constant-time test (tests/test_constant_time.cpp, ctest ct_valgrind*), skipped without it.
# python3: the docs checks (scripts/plot-figures.py, check-docs.py; standard library only) and the
#   Python binding's test.
# golang-go: the Go binding's tests (bindings/go, ctest test_go and test_go_vet); standard library
#   only, so nothing else is downloaded for it.
for pkg in cmake ninja-build g++ libgtest-dev libbenchmark-dev libgmp-dev libssl-dev valgrind python3 golang-go; do
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

# snarkjs/circom toolchain for the interop tests (tests/interop), pinned by package-lock.json.
# Only where node and npm exist; without them those tests are skipped.
root=$(cd "$(dirname "$0")/.." && pwd)
if command -v node >/dev/null && command -v npm >/dev/null; then
  # npm writes node_modules/.package-lock.json after an install: newer than the lock file = up to date.
  if [ ! "$root/node_modules/.package-lock.json" -nt "$root/package-lock.json" ]; then
    echo "install-deps: npm ci (snarkjs, circom2, circomlib)"
    (cd "$root" && npm ci --no-audit --no-fund --loglevel=error)
  else
    echo "install-deps: node_modules is up to date with package-lock.json"
  fi
  # The Node package's build tools (node-addon-api, and cmake-js for builds outside the main
  # build), pinned by bindings/node/package-lock.json; without them the addon is not built.
  node_pkg="$root/bindings/node"
  if [ ! "$node_pkg/node_modules/.package-lock.json" -nt "$node_pkg/package-lock.json" ]; then
    echo "install-deps: npm ci in bindings/node (node-addon-api, cmake-js)"
    (cd "$node_pkg" && npm ci --no-audit --no-fund --loglevel=error)
  else
    echo "install-deps: bindings/node/node_modules is up to date with its package-lock.json"
  fi
else
  echo "install-deps: node/npm not found; snarkjs interop tests will be skipped"
fi
