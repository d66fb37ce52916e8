#!/usr/bin/env bash
# cuzk-written snarkjs files (io::write_zkey, io::write_wtns through examples/cuzk-setup) against
# the real snarkjs, for one curve at small sizes:
#   setup_test.sh CURVE CUZK_SETUP CUZK_PROVE CUZK_VERIFY SNARKJS_CLI [LOG_SIZES]
# For each size: `snarkjs groth16 prove` on the zkey and witness gives a proof that
# `snarkjs groth16 verify` and cuzk-verify accept, with the public signals cuzk-setup wrote;
# cuzk-prove on the same files gives a proof snarkjs accepts; `snarkjs zkey export
# verificationkey` equals cuzk-setup's verification_key.json (but for vk_alphabeta_12, which
# cuzk does not write). At the smallest size, `snarkjs zkey contribute` accepts the key's empty
# MPC transcript (section 10) and the contributed key still proves. Needs no ptau.
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
echo "setup_test: $curve all ok"
