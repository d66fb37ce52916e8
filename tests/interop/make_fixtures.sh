#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Builds snarkjs/circom fixtures for cuzk's interop tests, entirely offline:
#   make_fixtures.sh BUILD_DIR CURVE        (CURVE = bn128 | bls12381)
# For each circuit in tests/interop/circuits/*.circom it writes, under BUILD_DIR/CURVE/NAME/:
#   NAME.r1cs, NAME.wtns, NAME.zkey (one contribution), verification_key.json,
#   proof.json + public.json (snarkjs's own proof, verified by snarkjs), and snarkjs's JSON dumps
#   NAME.r1cs.json, NAME.wtns.json, NAME.zkey.json (independent decodings the tests compare with),
#   NAME.wasm (circom's witness calculator) and NAME.input.json's copy under src/.
# A local Powers of Tau (power CUZK_PTAU_POWER, default 9: every circuit here fits a 2^9 domain) is made once per curve.
# Outputs are cached: a stamp with the hash of the inputs skips work that is already done.
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 BUILD_DIR bn128|bls12381" >&2
  exit 2
fi
out_root=$1
curve=$2
case "$curve" in bn128|bls12381) ;; *) echo "make_fixtures: unknown curve '$curve'" >&2; exit 2 ;; esac

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
power=${CUZK_PTAU_POWER:-9}

command -v node >/dev/null || { echo "make_fixtures: node not found" >&2; exit 1; }
have_tools() {
  [ -f "$root/node_modules/snarkjs/build/cli.cjs" ] && [ -x "$root/node_modules/.bin/circom2" ] &&
    [ -d "$root/node_modules/circomlib/circuits" ]
}
mkdir -p "$out_root"
if ! have_tools; then
  # Both curves' runs may start at once on a clean clone: one installs, the other waits.
  (
    flock 9
    if ! have_tools; then
      echo "make_fixtures: installing the pinned toolchain (npm ci)"
      cd "$root" && npm ci --no-audit --no-fund --loglevel=error
    fi
  ) 9>"$out_root/.npm-install.lock"
fi
snarkjs="node $root/node_modules/snarkjs/build/cli.cjs"
circom2="$root/node_modules/.bin/circom2"

dir="$out_root/$curve"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

# Everything the fixtures depend on, hashed: a change anywhere rebuilds them.
stamp_value=$( (cat "$0" "$root/package-lock.json" "$here"/circuits/*; echo "$power") | sha256sum | cut -d' ' -f1)
if [ -f "$dir/stamp" ] && [ "$(cat "$dir/stamp")" = "$stamp_value" ]; then
  echo "make_fixtures: $curve fixtures are up to date in $dir"
  exit 0
fi
rm -rf "$dir"/*

log="$dir/make_fixtures.log"
: >"$log"
# Runs a snarkjs/circom command; fails on a non-zero exit or an [ERROR] line (snarkjs prints
# [ERROR] yet exits 0 on some failures, e.g. a curve mismatch in groth16 setup).
run() {
  local t0=$SECONDS
  echo "+ $*" >>"$log"
  if ! "$@" >>"$log.cmd" 2>&1; then
    cat "$log.cmd" >>"$log"; cat "$log.cmd" >&2; rm -f "$log.cmd"
    echo "make_fixtures: command failed: $*" >&2
    exit 1
  fi
  cat "$log.cmd" >>"$log"
  if grep -q '\[ERROR\]' "$log.cmd"; then
    cat "$log.cmd" >&2; rm -f "$log.cmd"
    echo "make_fixtures: snarkjs reported an error: $*" >&2
    exit 1
  fi
  rm -f "$log.cmd"
  echo "  [$((SECONDS - t0)) s] $*" | cut -c1-160 >>"$log.times"
}
need_file() { [ -s "$1" ] || { echo "make_fixtures: expected output $1 is missing or empty" >&2; exit 1; }; }

start=$SECONDS
echo "make_fixtures: $curve, ptau power $power, into $dir"

# ---- Powers of Tau, made locally (no ceremony files are downloaded) ----------------------
run $snarkjs powersoftau new "$curve" "$power" "$dir/pot_0.ptau"
run $snarkjs powersoftau contribute "$dir/pot_0.ptau" "$dir/pot_1.ptau" --name=cuzk-ci -e="cuzk ci entropy $curve"
run $snarkjs powersoftau prepare phase2 "$dir/pot_1.ptau" "$dir/pot_final.ptau"
need_file "$dir/pot_final.ptau"
rm -f "$dir/pot_0.ptau" "$dir/pot_1.ptau"

# ---- circuits -----------------------------------------------------------------------------
# circom2 runs under WASI and sees only the current directory tree, so the sources and
# circomlib are copied under the work directory and compiled from there.
src="$dir/src"
mkdir -p "$src/circomlib"
cp "$here"/circuits/*.circom "$here"/circuits/*.input.json "$src/"
cp -r "$root/node_modules/circomlib/circuits" "$src/circomlib/"

for circuit in "$src"/*.circom; do
  name=$(basename "$circuit" .circom)
  o="$dir/$name"
  mkdir -p "$o"
  (cd "$src" && run "$circom2" "$name.circom" --r1cs --wasm --prime "$curve" -l . -o "$o")
  need_file "$o/$name.r1cs"
  run $snarkjs wtns calculate "$o/${name}_js/$name.wasm" "$src/$name.input.json" "$o/$name.wtns"
  run $snarkjs wtns check "$o/$name.r1cs" "$o/$name.wtns"
  run $snarkjs groth16 setup "$o/$name.r1cs" "$dir/pot_final.ptau" "$o/${name}_0000.zkey"
  need_file "$o/${name}_0000.zkey"
  run $snarkjs zkey contribute "$o/${name}_0000.zkey" "$o/$name.zkey" --name=cuzk-ci -e="cuzk ci zkey entropy $name"
  need_file "$o/$name.zkey"
  rm -f "$o/${name}_0000.zkey"
  run $snarkjs zkey export verificationkey "$o/$name.zkey" "$o/verification_key.json"
  run $snarkjs groth16 prove "$o/$name.zkey" "$o/$name.wtns" "$o/proof.json" "$o/public.json"
  run $snarkjs groth16 verify "$o/verification_key.json" "$o/public.json" "$o/proof.json"
  # Independent decodings of our inputs, for the readers' tests.
  run $snarkjs r1cs export json "$o/$name.r1cs" "$o/$name.r1cs.json"
  run $snarkjs wtns export json "$o/$name.wtns" "$o/$name.wtns.json"
  run $snarkjs zkey export json "$o/$name.zkey" "$o/$name.zkey.json"
  for f in verification_key.json proof.json public.json "$name.r1cs.json" "$name.wtns.json" "$name.zkey.json"; do
    need_file "$o/$f"
  done
  # The witness calculator stays, for the bindings' fullProve tests (circom_runtime runs it).
  mv "$o/${name}_js/$name.wasm" "$o/$name.wasm"
  rm -rf "$o/${name}_js"
done

echo "$stamp_value" >"$dir/stamp"
echo "make_fixtures: $curve done in $((SECONDS - start)) s"
cat "$log.times"
