#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The command-line tools against the real snarkjs, on the fixtures of make_fixtures.sh:
#   cli_test.sh FIXTURE_DIR CURVE CUZK_PROVE CUZK_VERIFY SNARKJS_CLI
# For every fixture circuit: cuzk-prove (CPU) writes proof.json and public.json from the zkey and
# witness; `snarkjs groth16 verify` accepts them; cuzk-verify accepts cuzk's and snarkjs's proofs;
# both verifiers reject a proof whose first public signal was changed; cuzk-prove fails cleanly on
# a witness of another circuit; the batch and serve modes prove many witnesses with the key read
# once (through the engine, one and two workers) and refuse a tampered one; command-line hygiene.
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
grep -q "Invalid witness length. Circuit: [0-9]*, witness: [0-9]*" "$work/err" || fail "unclear error for a mismatched witness: $(cat "$work/err")"

# Batch and serve modes: one key read once, many witnesses. A tampered witness
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

# The same through the engine with two workers, the tampered witness among four good ones: the
# lines come in witness order, the tampered one fails alone, snarkjs accepts the four others, and
# --trace writes the engine's Chrome trace with every partition, the tampered one marked failed.
for w in third fourth; do cp "$fixtures/$a/$a.wtns" "$work/$w.wtns"; done
rc=0
"$prove" "$fixtures/$a/$a.zkey" --out "$work/batch2" "$work/first.wtns" "$tampered" "$work/second.wtns" \
  "$work/third.wtns" "$work/fourth.wtns" --backend cpu --workers 2 --trace "$work/trace.json" >"$work/batch2.log" 2>&1 ||
  rc=$?
[ "$rc" -eq 1 ] || fail "batch --workers 2 with a tampered witness exited $rc, expected 1: $(cat "$work/batch2.log")"
grep -q "5 witnesses: 4 proved and verified, 1 failed" "$work/batch2.log" ||
  fail "batch --workers 2 summary: $(cat "$work/batch2.log")"
grep -q "ms per proof, .* proofs/s; 2 workers" "$work/batch2.log" || fail "batch --workers 2: no throughput line"
grep -q "\[2/5\] .*tampered.wtns: FAILED: the proof does not verify" "$work/batch2.log" ||
  fail "batch --workers 2: no failure line for the tampered witness (2nd)"
[ "$(grep -o '^  \[[0-9]/5\]' "$work/batch2.log" | tr -d ' \n')" = "[1/5][2/5][3/5][4/5][5/5]" ] ||
  fail "batch --workers 2: lines not in witness order: $(cat "$work/batch2.log")"
[ ! -e "$work/batch2/tampered.proof.json" ] && [ ! -e "$work/batch2/tampered.public.json" ] ||
  fail "batch --workers 2 wrote a proof for the tampered witness"
for w in first second third fourth; do
  cmp -s "$work/batch2/$w.public.json" "$fixtures/$a/public.json" ||
    fail "batch --workers 2: $w.public.json differs from snarkjs's"
  $snarkjs groth16 verify "$fixtures/$a/verification_key.json" "$work/batch2/$w.public.json" \
    "$work/batch2/$w.proof.json" | grep -q "OK!" || fail "batch --workers 2: snarkjs rejects $w's proof"
done
node -e 'const t=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));
         const parts=t.traceEvents.filter(e=>e.ph==="X" && /^partition /.test(e.name));
         const names=parts.map(e=>e.name).sort();
         const want=["partition (failed) 1","partition 0","partition 2","partition 3","partition 4"];
         if (JSON.stringify(names)!==JSON.stringify(want)) { console.error("partitions:", names); process.exit(1); }
         if (!/does not verify/.test(parts.find(e=>e.name==="partition (failed) 1").args.error)) process.exit(1);
         if (new Set(parts.map(e=>e.tid)).size!==2) { console.error("expected two worker tracks"); process.exit(1); }
         if (!t.traceEvents.some(e=>e.ph==="X" && /^MSM/.test(e.name))) process.exit(1);' "$work/trace.json" ||
  fail "batch --trace: not the engine's trace of 5 partitions: $(head -c 400 "$work/trace.json")"
expect_usage_error "$prove" "$fixtures/$a/$a.zkey" --out "$work/w0" "$work/first.wtns" --workers 0
expect_usage_error "$prove" "$fixtures/$a/$a.zkey" --out "$work/w0" "$work/first.wtns" --workers two
expect_usage_error "$prove" "$fixtures/$a/$a.zkey" "$work/first.wtns" "$work/x.json" "$work/y.json" --workers 2
expect_usage_error "$prove" "$fixtures/$a/$a.zkey" --serve --trace "$work/t.json"
[ ! -e "$work/w0" ] || fail "a usage error created the output directory"
expect_usage_error "$prove" "$fixtures/$a/$a.zkey" --out "$work/none"
expect_usage_error "$prove" "$fixtures/$a/$a.zkey" --serve "$work/first.wtns"
# GPU options are refused on the CPU backend, not ignored
expect_usage_error "$prove" --log-size 4 --backend cpu --rerun-in-vram-gb 13
expect_usage_error "$prove" --log-size 4 --backend cpu --devices 0,1
expect_usage_error "$prove" --log-size 4 --backend cpu --vram-gb 8
expect_usage_error "$prove" --log-size 4 --rerun-in-vram-gb 0
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

# Serve through two workers: answers still come in request order, one per request.
printf '%s\n' "$work/first.wtns" "$tampered" "$work/second.wtns" "$work/missing.wtns" "$work/third.wtns" |
  "$prove" "$fixtures/$a/$a.zkey" --serve --workers 2 --out "$work/served2" --backend cpu >"$work/serve2.out" \
    2>"$work/serve2.err" || fail "serve --workers 2 exited $?: $(cat "$work/serve2.err")"
node -e 'const fs=require("fs"); const lines=fs.readFileSync(process.argv[1],"utf8").trim().split("\n").map(JSON.parse);
         const fail=(m)=>{console.error(m, lines); process.exit(1);};
         if (lines.length!==6 || !lines[0].ready || lines[0].workers!==2) fail("serve: expected a ready line and 5 answers");
         const want=["first","tampered","second","missing","third"], ok=[true,false,true,false,true];
         for (let i=0; i<5; ++i)
           if (!lines[i+1].witness.endsWith(want[i]+".wtns") || lines[i+1].ok!==ok[i]) fail("serve: answer "+(i+1));' \
  "$work/serve2.out" || fail "serve --workers 2 answers: $(cat "$work/serve2.out")"
for w in first second third; do
  $snarkjs groth16 verify "$fixtures/$a/verification_key.json" "$work/served2/$w.public.json" \
    "$work/served2/$w.proof.json" | grep -q "OK!" || fail "serve --workers 2: snarkjs rejects $w's proof"
done
echo "cli_test: $2 batch and serve ok"

# Command-line hygiene: --help to stdout with status 0, bad values are usage errors
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
