#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The Python ctypes binding (examples/python/cuzk_prover.py) against libcuzk_prover, on keys that
# cuzk-setup writes (no fixtures needed), both curves:
#   python_test.sh LIB CUZK_SETUP CUZK_VERIFY PYTHON BINDING [NODE SNARKJS_CLI]
# The resident and one-shot proofs are accepted by cuzk-verify (and by `snarkjs groth16 verify`
# when node and snarkjs are given), public.json equals the one cuzk-setup wrote from the
# assignment, and a tampered witness exits with CUZK_PROVER_ERROR_VERIFY_FAILED (8), writing no proof.
set -euo pipefail
[ $# -eq 5 ] || [ $# -eq 7 ] || { echo "usage: $0 LIB CUZK_SETUP CUZK_VERIFY PYTHON BINDING [NODE SNARKJS_CLI]" >&2; exit 2; }
lib=$1 setup=$2 verify=$3 python=$4 binding=$5
snarkjs=()
if [ $# -eq 7 ] && [ -f "$7" ]; then snarkjs=("$6" "$7"); fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "python_test: FAILED: $*" >&2; exit 1; }

for curve in bn128 bls12381; do
  d=$work/$curve
  "$setup" --curve "$curve" --log-size 8 "$d" >/dev/null 2>&1 || fail "cuzk-setup $curve"
  for mode in resident one-shot; do
    args=(--proofs 2)
    [ $mode = one-shot ] && args=(--one-shot)
    "$python" "$binding" --lib "$lib" "$d/circuit.zkey" "$d/witness.wtns" "$d/proof.json" "$d/out_public.json" \
      --backend cpu "${args[@]}" || fail "$curve $mode: the binding exited $?"
    cmp -s "$d/out_public.json" "$d/public.json" || fail "$curve $mode: public.json differs from cuzk-setup's"
    "$verify" "$d/verification_key.json" "$d/out_public.json" "$d/proof.json" >/dev/null ||
      fail "$curve $mode: cuzk-verify rejects the proof"
    if [ ${#snarkjs[@]} -eq 2 ]; then
      "${snarkjs[@]}" groth16 verify "$d/verification_key.json" "$d/out_public.json" "$d/proof.json" | grep -q "OK!" ||
        fail "$curve $mode: snarkjs rejects the proof"
    fi
    rm -f "$d/proof.json" "$d/out_public.json"
  done

  # Out-of-range options through a signed binding: -1 arrives as 2^32 - 1; create refuses both
  # with CUZK_PROVER_ERROR_INVALID_ARGUMENT (4) and a message, the process lives to report it.
  for threads in -1 100000 1025; do
    set +e
    "$python" "$binding" --lib "$lib" "$d/circuit.zkey" "$d/witness.wtns" "$d/proof.json" "$d/out_public.json" \
      --backend cpu --threads "$threads" 2>"$d/err"
    rc=$?
    set -e
    [ $rc -eq 4 ] || fail "$curve: --threads $threads exited $rc, expected 4 ($(cat "$d/err"))"
    grep -q "threads" "$d/err" || fail "$curve: --threads $threads: unclear message: $(cat "$d/err")"
    [ ! -e "$d/proof.json" ] || fail "$curve: --threads $threads wrote a proof"
  done
  "$python" "$binding" --lib "$lib" "$d/circuit.zkey" "$d/witness.wtns" "$d/proof.json" "$d/out_public.json" \
    --backend cpu --threads 1024 >/dev/null || fail "$curve: --threads 1024 (the maximum) exited $?"
  "$verify" "$d/verification_key.json" "$d/out_public.json" "$d/proof.json" >/dev/null ||
    fail "$curve: cuzk-verify rejects the --threads 1024 proof"
  rm -f "$d/proof.json" "$d/out_public.json"

  # Tamper with the last witness value (a constrained private signal of the synthetic circuit).
  "$python" - "$d/witness.wtns" "$d/tampered.wtns" <<'PY'
import sys
w = bytearray(open(sys.argv[1], "rb").read())
w[-32] ^= 1
open(sys.argv[2], "wb").write(w)
PY
  set +e
  "$python" "$binding" --lib "$lib" "$d/circuit.zkey" "$d/tampered.wtns" "$d/proof.json" "$d/out_public.json" \
    --backend cpu 2>"$d/err"
  rc=$?
  set -e
  [ $rc -eq 8 ] || fail "$curve: a tampered witness exited $rc, expected 8 ($(cat "$d/err"))"
  grep -q "does not satisfy the circuit" "$d/err" || fail "$curve: unclear message: $(cat "$d/err")"
  [ ! -e "$d/proof.json" ] || fail "$curve: a proof was written for a tampered witness"
  echo "python_test: $curve ok"
done
echo "python_test: all ok"
