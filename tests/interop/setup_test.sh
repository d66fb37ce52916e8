#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# cuzk-written snarkjs files (io::write_zkey, io::write_wtns through examples/cuzk-setup) against
# the real snarkjs, for one curve at small sizes:
#   setup_test.sh CURVE CUZK_SETUP CUZK_PROVE CUZK_VERIFY SNARKJS_CLI [LOG_SIZES]
# For each size: `snarkjs groth16 prove` on the zkey and witness gives a proof that
# `snarkjs groth16 verify` and cuzk-verify accept, with the public signals cuzk-setup wrote;
# cuzk-prove on the same files gives a proof snarkjs accepts; `snarkjs zkey export
# verificationkey` equals cuzk-setup's verification_key.json (but for vk_alphabeta_12, which
# cuzk does not write). At the smallest size, `snarkjs zkey contribute` accepts the key's empty
# MPC transcript (section 10) and the contributed key still proves. Needs no ptau.
# Then `cuzk-setup --r1cs`: the circom circuits of tests/interop/circuits, compiled for CURVE
# with the repo's circom2 (skipped with a message when it is absent), their witnesses from
# circom's wasm; the keys cuzk-setup writes for the .r1cs prove in snarkjs and cuzk-prove, and
# snarkjs accepts both proofs; a corrupted witness and the wrong --curve are refused. With
# CUZK_INTEROP_DIR set (ctest sets it), the circuits' .r1cs and .wtns are make_fixtures.sh's for
# CURVE (the same circom2 on the same sources and inputs) instead of being compiled again.
set -euo pipefail
[ $# -ge 5 ] || { echo "usage: $0 CURVE CUZK_SETUP CUZK_PROVE CUZK_VERIFY SNARKJS_CLI [LOG_SIZES]" >&2; exit 2; }
curve=$1
setup=$2
prove=$3
verify=$4
snarkjs="node $5"
sizes=${6:-8 10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "setup_test: FAILED: $*" >&2; exit 1; }
sj_ok() { $snarkjs groth16 verify "$1" "$2" "$3" 2>&1 | grep -q "OK!"; }

first=1
for k in $sizes; do
  d=$work/$k
  "$setup" --curve "$curve" --log-size "$k" --seed "$k" "$d" >/dev/null 2>"$d.err" || fail "2^$k: cuzk-setup: $(cat "$d.err")"
  grep -q "INSECURE" "$d.err" || fail "cuzk-setup does not warn that its keys are insecure"

  # snarkjs proves with cuzk's zkey and witness.
  $snarkjs groth16 prove "$d/circuit.zkey" "$d/witness.wtns" "$d/sj_proof.json" "$d/sj_public.json" >"$d/sj.log" 2>&1 ||
    fail "2^$k: snarkjs groth16 prove: $(tail -3 "$d/sj.log")"
  ! grep -q "ERROR" "$d/sj.log" || fail "2^$k: snarkjs groth16 prove: $(cat "$d/sj.log")"
  cmp -s "$d/sj_public.json" "$d/public.json" || fail "2^$k: snarkjs's public signals differ from cuzk-setup's"
  sj_ok "$d/verification_key.json" "$d/sj_public.json" "$d/sj_proof.json" || fail "2^$k: snarkjs rejects its own proof from cuzk's zkey"
  "$verify" "$d/verification_key.json" "$d/sj_public.json" "$d/sj_proof.json" >/dev/null ||
    fail "2^$k: cuzk-verify rejects snarkjs's proof"

  # cuzk-prove on the same files; snarkjs verifies.
  "$prove" "$d/circuit.zkey" "$d/witness.wtns" "$d/cz_proof.json" "$d/cz_public.json" --backend cpu 2>/dev/null ||
    fail "2^$k: cuzk-prove exited $?"
  cmp -s "$d/cz_public.json" "$d/public.json" || fail "2^$k: cuzk-prove's public signals differ"
  sj_ok "$d/verification_key.json" "$d/cz_public.json" "$d/cz_proof.json" || fail "2^$k: snarkjs rejects cuzk's proof"
  "$verify" "$d/verification_key.json" "$d/cz_public.json" "$d/cz_proof.json" >/dev/null || fail "2^$k: cuzk-verify rejects cuzk's proof"

  # A changed public signal is rejected (the checks above are not vacuous).
  node -e 'const fs=require("fs"); const p=JSON.parse(fs.readFileSync(process.argv[1]));
           p[0]=(BigInt(p[0])+1n).toString(); fs.writeFileSync(process.argv[2], JSON.stringify(p));' \
    "$d/sj_public.json" "$d/bad_public.json"
  if sj_ok "$d/verification_key.json" "$d/bad_public.json" "$d/sj_proof.json"; then
    fail "2^$k: snarkjs accepts a tampered public signal (the test is broken)"
  fi

  # snarkjs's view of the verification key is cuzk-setup's.
  $snarkjs zkey export verificationkey "$d/circuit.zkey" "$d/sj_vk.json" >/dev/null 2>&1 || fail "2^$k: zkey export verificationkey"
  node -e 'const a=require(process.argv[1]), b=require(process.argv[2]); delete b.vk_alphabeta_12;
           process.exit(JSON.stringify(a) === JSON.stringify(b) ? 0 : 1)' "$d/verification_key.json" "$d/sj_vk.json" ||
    fail "2^$k: snarkjs's exported verification key differs from verification_key.json"

  # The MPC transcript: snarkjs can contribute to the key, and the result still proves.
  if [ $first = 1 ]; then
    first=0
    $snarkjs zkey contribute "$d/circuit.zkey" "$d/c1.zkey" -e="cuzk test entropy" -n="cuzk test" >"$d/c.log" 2>&1 ||
      fail "2^$k: snarkjs zkey contribute: $(tail -3 "$d/c.log")"
    ! grep -q "ERROR" "$d/c.log" || fail "2^$k: snarkjs zkey contribute: $(cat "$d/c.log")"
    $snarkjs zkey export verificationkey "$d/c1.zkey" "$d/c1_vk.json" >/dev/null 2>&1
    $snarkjs groth16 prove "$d/c1.zkey" "$d/witness.wtns" "$d/c1_proof.json" "$d/c1_public.json" >/dev/null 2>&1 ||
      fail "2^$k: snarkjs prove with the contributed key"
    sj_ok "$d/c1_vk.json" "$d/c1_public.json" "$d/c1_proof.json" || fail "2^$k: proof with the contributed key rejected"
    "$prove" "$d/c1.zkey" "$d/witness.wtns" "$d/c1c_proof.json" "$d/c1c_public.json" --backend cpu 2>/dev/null ||
      fail "2^$k: cuzk-prove with the contributed key"
    sj_ok "$d/c1_vk.json" "$d/c1c_public.json" "$d/c1c_proof.json" || fail "2^$k: cuzk proof with the contributed key rejected"
  fi
  echo "setup_test: $curve 2^$k ok"
done

# ---- cuzk-setup --r1cs on circom circuits ------------------------------------------------
root=$(cd "$(dirname "$0")/../.." && pwd)
circom2=$root/node_modules/.bin/circom2
if [ ! -x "$circom2" ]; then
  echo "setup_test: $curve --r1cs: skipped (no $circom2; npm ci installs it)"
else
  # circom2 runs under WASI and sees only the current directory tree: sources copied under it.
  src=$work/circom
  mkdir -p "$src"
  cp "$root"/tests/interop/circuits/*.circom "$root"/tests/interop/circuits/*.input.json "$src/"
  circuits="mul_chain multi_public"
  if [ -d "$root/node_modules/circomlib/circuits" ]; then
    mkdir -p "$src/circomlib"
    cp -r "$root/node_modules/circomlib/circuits" "$src/circomlib/"
    circuits="$circuits poseidon_cmp"
  fi
  other=$([ "$curve" = bn128 ] && echo bls12381 || echo bn128)
  fixtures=
  if [ -n "${CUZK_INTEROP_DIR:-}" ] && [ -f "$CUZK_INTEROP_DIR/$curve/stamp" ]; then
    fixtures=$CUZK_INTEROP_DIR/$curve
  fi
  for name in $circuits; do
    d=$work/r1cs_$name
    mkdir -p "$d"
    if [ -n "$fixtures" ] && [ -s "$fixtures/$name/$name.r1cs" ] && [ -s "$fixtures/$name/$name.wtns" ]; then
      cp "$fixtures/$name/$name.r1cs" "$d/$name.r1cs"
      cp "$fixtures/$name/$name.wtns" "$d/w.wtns"
    else
      (cd "$src" && "$circom2" "$name.circom" --r1cs --wasm --prime "$curve" -l . -o "$d") >"$d/circom.log" 2>&1 ||
        fail "$name: circom: $(tail -3 "$d/circom.log")"
      $snarkjs wtns calculate "$d/${name}_js/$name.wasm" "$src/$name.input.json" "$d/w.wtns" >"$d/wtns.log" 2>&1 ||
        fail "$name: snarkjs wtns calculate: $(tail -3 "$d/wtns.log")"
    fi
    "$setup" --r1cs "$d/$name.r1cs" --wtns "$d/w.wtns" --seed 7 "$d/k" >"$d/setup.log" 2>"$d/setup.err" ||
      fail "$name: cuzk-setup --r1cs: $(cat "$d/setup.err")"
    grep -q "INSECURE" "$d/setup.err" || fail "cuzk-setup --r1cs does not warn that its keys are insecure"

    # cuzk-prove and snarkjs both prove with the key and circom's witness; snarkjs accepts both.
    "$prove" "$d/k/circuit.zkey" "$d/w.wtns" "$d/cz_proof.json" "$d/cz_public.json" --backend cpu 2>/dev/null ||
      fail "$name: cuzk-prove on the --r1cs key exited $?"
    cmp -s "$d/cz_public.json" "$d/k/public.json" || fail "$name: cuzk-prove's public signals differ from cuzk-setup's"
    sj_ok "$d/k/verification_key.json" "$d/cz_public.json" "$d/cz_proof.json" || fail "$name: snarkjs rejects cuzk's proof"
    $snarkjs groth16 prove "$d/k/circuit.zkey" "$d/w.wtns" "$d/sj_proof.json" "$d/sj_public.json" >"$d/sj.log" 2>&1 ||
      fail "$name: snarkjs groth16 prove on the --r1cs key: $(tail -3 "$d/sj.log")"
    ! grep -q "ERROR" "$d/sj.log" || fail "$name: snarkjs groth16 prove: $(cat "$d/sj.log")"
    cmp -s "$d/sj_public.json" "$d/k/public.json" || fail "$name: snarkjs's public signals differ from cuzk-setup's"
    sj_ok "$d/k/verification_key.json" "$d/sj_public.json" "$d/sj_proof.json" || fail "$name: snarkjs rejects its own proof"
    "$verify" "$d/k/verification_key.json" "$d/sj_public.json" "$d/sj_proof.json" >/dev/null ||
      fail "$name: cuzk-verify rejects snarkjs's proof"
    $snarkjs zkey export verificationkey "$d/k/circuit.zkey" "$d/sj_vk.json" >/dev/null 2>&1 || fail "$name: zkey export verificationkey"
    node -e 'const a=require(process.argv[1]), b=require(process.argv[2]); delete b.vk_alphabeta_12;
             process.exit(JSON.stringify(a) === JSON.stringify(b) ? 0 : 1)' "$d/k/verification_key.json" "$d/sj_vk.json" ||
      fail "$name: snarkjs's exported verification key differs from verification_key.json"

    # A witness with one wire changed violates a constraint: cuzk-setup --wtns says so.
    node -e 'const fs=require("fs"); const b=fs.readFileSync(process.argv[1]); b[b.length - 32] ^= 1;
             fs.writeFileSync(process.argv[2], b);' "$d/w.wtns" "$d/bad.wtns"
    if "$setup" --r1cs "$d/$name.r1cs" --wtns "$d/bad.wtns" "$d/bad" >/dev/null 2>"$d/bad.err"; then
      fail "$name: cuzk-setup accepts a witness that violates the circuit"
    fi
    grep -q "violates constraint" "$d/bad.err" || fail "$name: unexpected error for a bad witness: $(cat "$d/bad.err")"
    echo "setup_test: $curve --r1cs $name ok"
  done
  # The curve comes from the file; a contradicting --curve is an error.
  if "$setup" --r1cs "$work/r1cs_mul_chain/mul_chain.r1cs" --curve "$other" "$work/wrong" >/dev/null 2>&1; then
    fail "cuzk-setup --r1cs accepts --curve $other for a $curve circuit"
  fi
fi
echo "setup_test: $curve all ok"
