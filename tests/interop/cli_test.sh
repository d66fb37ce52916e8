#!/usr/bin/env bash
# The command-line tools against the real snarkjs, on the fixtures of make_fixtures.sh:
#   cli_test.sh FIXTURE_DIR CURVE CUZK_PROVE CUZK_VERIFY SNARKJS_CLI
# For every fixture circuit: cuzk-prove (CPU) writes proof.json and public.json from the zkey and
# witness; `snarkjs groth16 verify` accepts them; cuzk-verify accepts cuzk's and snarkjs's proofs;
# both verifiers reject a proof whose first public signal was changed; cuzk-prove fails cleanly on
# a witness of another circuit; the batch and serve modes prove many witnesses with the key read
# once and refuse a tampered one; command-line hygiene.
set -euo pipefail
[ $# -eq 5 ] || { echo "usage: $0 FIXTURE_DIR CURVE CUZK_PROVE CUZK_VERIFY SNARKJS_CLI" >&2; exit 2; }
fixtures=$1/$2
prove=$3
verify=$4
snarkjs="node $5"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "cli_test: FAILED: $*" >&2; exit 1; }
expect_usage_error() {
  local rc=0
  "$@" >/dev/null 2>&1 || rc=$?
  [ "$rc" -eq 2 ] || fail "expected a usage error (status 2) from: $* (got $rc)"
}

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

# Batch and serve modes (issue 15 item 3): one key read once, many witnesses. A tampered witness
# (its first public signal changed, so the constraints fail) writes nothing and is reported, the
# others are still proved; snarkjs verifies every proof written.
tampered=$work/tampered.wtns
node -e 'const fs=require("fs"); const b=fs.readFileSync(process.argv[1]);
         let pos=12, n8=0, values=-1;
         for (let s=0; s<b.readUInt32LE(8); ++s) {
           const type=b.readUInt32LE(pos), size=Number(b.readBigUInt64LE(pos+4));
           if (type===1) n8=b.readUInt32LE(pos+12);
           if (type===2) values=pos+12;
           pos+=12+size;
         }
         if (n8===0 || values<0) throw new Error("not a wtns file");
         b[values+n8]^=1;  // w[1], the first public signal
         fs.writeFileSync(process.argv[2], b);' "$fixtures/$a/$a.wtns" "$tampered"
cp "$fixtures/$a/$a.wtns" "$work/first.wtns"
cp "$fixtures/$a/$a.wtns" "$work/second.wtns"
rc=0
"$prove" "$fixtures/$a/$a.zkey" --out "$work/batch" "$work/first.wtns" "$tampered" "$work/second.wtns" \
  --backend cpu >"$work/batch.log" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "batch mode with a tampered witness exited $rc, expected 1: $(cat "$work/batch.log")"
grep -q "3 witnesses: 2 proved and verified, 1 failed" "$work/batch.log" || fail "batch summary: $(cat "$work/batch.log")"
grep -q "tampered.wtns: FAILED: the proof does not verify" "$work/batch.log" || fail "batch: no failure line for the tampered witness"
[ ! -e "$work/batch/tampered.proof.json" ] && [ ! -e "$work/batch/tampered.public.json" ] ||
  fail "batch mode wrote a proof for the tampered witness"
for w in first second; do
  cmp -s "$work/batch/$w.public.json" "$fixtures/$a/public.json" || fail "batch: $w.public.json differs from snarkjs's"
  $snarkjs groth16 verify "$fixtures/$a/verification_key.json" "$work/batch/$w.public.json" "$work/batch/$w.proof.json" |
    grep -q "OK!" || fail "batch: snarkjs rejects $w's proof"
done
expect_usage_error "$prove" "$fixtures/$a/$a.zkey" --out "$work/none"
expect_usage_error "$prove" "$fixtures/$a/$a.zkey" --serve "$work/first.wtns"
if "$prove" "$fixtures/$a/$a.zkey" --out "$work/dup" "$work/first.wtns" "$work/batch/../first.wtns" --backend cpu \
  >/dev/null 2>&1; then
  fail "batch mode accepted two witnesses that write the same files"
fi
[ ! -e "$work/dup/first.proof.json" ] || fail "a refused batch wrote a proof"

printf '%s\n\n%s\n%s\n' "$work/first.wtns" "$tampered" "$work/missing.wtns" |
  "$prove" "$fixtures/$a/$a.zkey" --serve --out "$work/served" --backend cpu >"$work/serve.out" 2>"$work/serve.err" ||
  fail "serve mode exited $?: $(cat "$work/serve.err")"
node -e 'const fs=require("fs"); const lines=fs.readFileSync(process.argv[1],"utf8").trim().split("\n").map(JSON.parse);
         const fail=(m)=>{console.error(m, lines); process.exit(1);};
         if (lines.length!==4 || !lines[0].ready) fail("serve: expected a ready line and 3 answers");
         if (!lines[1].ok || !lines[1].proof.endsWith("first.proof.json")) fail("serve: the good witness");
         if (lines[2].ok || !/does not verify/.test(lines[2].error)) fail("serve: the tampered witness");
         if (lines[3].ok || !/missing.wtns/.test(lines[3].error)) fail("serve: the missing witness");' "$work/serve.out" ||
  fail "serve mode answers: $(cat "$work/serve.out")"
$snarkjs groth16 verify "$fixtures/$a/verification_key.json" "$work/served/first.public.json" "$work/served/first.proof.json" |
  grep -q "OK!" || fail "serve: snarkjs rejects the served proof"
[ ! -e "$work/served/tampered.proof.json" ] || fail "serve mode wrote a proof for the tampered witness"
echo "cli_test: $2 batch and serve ok"

# Command-line hygiene (issue 15 item 5): --help to stdout with status 0, bad values are usage errors
# (status 2) before anything runs, in both modes.
"$prove" --help >"$work/help" 2>"$work/help_err" || fail "cuzk-prove --help exited $?"
grep -q "circuit.zkey" "$work/help" || fail "cuzk-prove --help does not document the file mode"
[ ! -s "$work/help_err" ] || fail "cuzk-prove --help wrote to stderr"
"$verify" --help >"$work/vhelp" || fail "cuzk-verify --help exited $?"
grep -q "usage" "$work/vhelp" || fail "cuzk-verify --help printed no usage"
expect_usage_error "$prove" --log-size 16.5
expect_usage_error "$prove" --log-size 2
expect_usage_error "$prove" --proofs 0
expect_usage_error "$prove" --curve bn254 --log-size 28
expect_usage_error "$prove" --backend foo
expect_usage_error "$prove" "$fixtures/$a/$a.zkey" "$fixtures/$a/$a.wtns" "$work/x.json" "$work/y.json" --backend foo
expect_usage_error "$prove" "$fixtures/$a/$a.zkey" "$fixtures/$a/$a.wtns" "$work/x.json" "$work/y.json" --frobnicate
[ ! -e "$work/x.json" ] || fail "a usage error wrote a proof"
echo "cli_test: $2 all ok"
