#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Fails when a header of include/cuzk outside gpu/ blocks the host on the GPU by itself: a stream
# or event synchronisation, a device-wide one, or a device-to-host copy (which into pageable
# memory returns only once done). Those go through gpu::wait, gpu::event::synchronize and
# gpu::download_blocking, which count them (gpu/host_waits.hpp), so that the counts of
# HostWaitsPerProof and the engine's trace are every wait there is.
set -euo pipefail
root=${1:?usage: raw_gpu_waits_test.sh <repository root> | --selftest}
if [[ $root == --selftest ]]; then
  # The check bites: a raw wait outside gpu/ fails it, the same call inside gpu/ does not.
  t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
  mkdir -p "$t/include/cuzk/gpu" "$t/include/cuzk/msm"
  echo 'inline void f(cudaStream_t s) { cudaStreamSynchronize(s); }' > "$t/include/cuzk/gpu/ok.hpp"
  "$0" "$t" > /dev/null || { echo "selftest: a wait inside gpu/ was reported"; exit 1; }
  echo 'inline void g(cudaStream_t s) { cudaStreamSynchronize(s); }' > "$t/include/cuzk/msm/bad.cuh"
  if "$0" "$t" > /dev/null; then echo "selftest: a raw wait in msm/ was not found"; exit 1; fi
  echo "raw_gpu_waits selftest: the check finds a raw wait outside gpu/"
  exit 0
fi
found=$(grep -rnE 'cuda(Stream|Event|Device)Synchronize|cudaMemcpyDeviceToHost|cudaMemcpy\(' \
        "$root/include/cuzk" --include='*.hpp' --include='*.cuh' | grep -v "^$root/include/cuzk/gpu/" || true)
if [[ -n $found ]]; then
  echo "raw GPU waits outside include/cuzk/gpu/ (use gpu::wait, gpu::download_blocking):"
  echo "${found//$root\//}"
  exit 1
fi
echo "raw_gpu_waits: none outside include/cuzk/gpu/"
