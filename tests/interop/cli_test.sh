#!/usr/bin/env bash
# The command-line tools against the real snarkjs, on the fixtures of make_fixtures.sh:
#   cli_test.sh FIXTURE_DIR CURVE CUZK_PROVE CUZK_VERIFY SNARKJS_CLI
# For every fixture circuit: cuzk-prove (CPU) writes proof.json and public.json from the zkey and
# witness; `snarkjs groth16 verify` accepts them; cuzk-verify accepts cuzk's and snarkjs's proofs;
# both verifiers reject a proof whose first public signal was changed; cuzk-prove fails cleanly on
# a witness of another circuit.
set -euo pipefail
[ $# -eq 5 ] || { echo "usage: $0 FIXTURE_DIR CURVE CUZK_PROVE CUZK_VERIFY SNARKJS_CLI" >&2; exit 2; }
fixtures=$1/$2
prove=$3
verify=$4
snarkjs="node $5"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "cli_test: FAILED: $*" >&2; exit 1; }

circuits=()
for d in "$fixtures"/*/; do
  name=$(basename "$d")
  [ -f "$d/$name.zkey" ] && circuits+=("$name")
done
[ ${#circuits[@]} -ge 3 ] || fail "expected at least 3 fixture circuits in $fixtures"

for name in "${circuits[@]}"; do
  d=$fixtures/$name
  out=$work/$name
  mkdir -p "$out"
  "$prove" "$d/$name.zkey" "$d/$name.wtns" "$out/proof.json" "$out/public.json" --backend cpu ||
    fail "$name: cuzk-prove exited $?"
  cmp -s "$out/public.json" "$d/public.json" || fail "$name: public.json differs from snarkjs's"
  $snarkjs groth16 verify "$d/verification_key.json" "$out/public.json" "$out/proof.json" | grep -q "OK!" ||
    fail "$name: snarkjs rejects cuzk's proof"
  "$verify" "$d/verification_key.json" "$out/public.json" "$out/proof.json" >/dev/null ||
    fail "$name: cuzk-verify rejects cuzk's proof"
  "$verify" "$d/verification_key.json" "$d/public.json" "$d/proof.json" >/dev/null ||
    fail "$name: cuzk-verify rejects snarkjs's proof"

  # Tamper with the first public signal: both verifiers must say no.
  node -e 'const fs=require("fs"); const p=JSON.parse(fs.readFileSync(process.argv[1]));
           p[0]=(BigInt(p[0])+1n).toString(); fs.writeFileSync(process.argv[2], JSON.stringify(p));' \
    "$out/public.json" "$out/public_bad.json"
  if "$verify" "$d/verification_key.json" "$out/public_bad.json" "$out/proof.json" >/dev/null; then
    fail "$name: cuzk-verify accepts a tampered public input"
  fi
  if $snarkjs groth16 verify "$d/verification_key.json" "$out/public_bad.json" "$out/proof.json" | grep -q "OK!"; then
    fail "$name: snarkjs accepts a tampered public input (the test is broken)"
  fi
  echo "cli_test: $2/$name ok"
done

# A witness of another circuit is a clear error, not a proof.
a=${circuits[0]}
b=${circuits[1]}
if "$prove" "$fixtures/$a/$a.zkey" "$fixtures/$b/$b.wtns" "$work/x.json" "$work/y.json" --backend cpu 2>"$work/err"; then
  fail "cuzk-prove accepted the witness of $b for $a"
fi
grep -q "expects" "$work/err" || fail "unclear error for a mismatched witness: $(cat "$work/err")"

# Command-line hygiene (issue 15 item 5): --help to stdout with status 0, bad values are usage errors
# (status 2) before anything runs, in both modes.
"$prove" --help >"$work/help" 2>"$work/help_err" || fail "cuzk-prove --help exited $?"
grep -q "circuit.zkey" "$work/help" || fail "cuzk-prove --help does not document the file mode"
[ ! -s "$work/help_err" ] || fail "cuzk-prove --help wrote to stderr"
"$verify" --help >"$work/vhelp" || fail "cuzk-verify --help exited $?"
grep -q "usage" "$work/vhelp" || fail "cuzk-verify --help printed no usage"
expect_usage_error() {
  local rc=0
  "$@" >/dev/null 2>&1 || rc=$?
  [ "$rc" -eq 2 ] || fail "expected a usage error (status 2) from: $* (got $rc)"
}
expect_usage_error "$prove" --log-size 16.5
expect_usage_error "$prove" --log-size 2
expect_usage_error "$prove" --proofs 0
expect_usage_error "$prove" --curve bn254 --log-size 28
expect_usage_error "$prove" --backend foo
expect_usage_error "$prove" "$fixtures/$a/$a.zkey" "$fixtures/$a/$a.wtns" "$work/x.json" "$work/y.json" --backend foo
expect_usage_error "$prove" "$fixtures/$a/$a.zkey" "$fixtures/$a/$a.wtns" "$work/x.json" "$work/y.json" --frobnicate
[ ! -e "$work/x.json" ] || fail "a usage error wrote a proof"
echo "cli_test: $2 all ok"
