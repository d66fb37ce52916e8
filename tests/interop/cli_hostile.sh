#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The command-line tools against hostile inputs and kills, on the fixtures of make_fixtures.sh:
#   cli_hostile.sh FIXTURE_DIR CURVE CUZK_PROVE CUZK_VERIFY SNARKJS_CLI SNARKJS_VERIFY_ALL
# - batch and serve modes with a FIFO (no writer: opening it would block) and a directory among
#   the witnesses: each gets its own error naming what it is, the others are proved and snarkjs
#   accepts their proofs, and nothing waits (every call runs under a timeout);
# - one path given for proof.json and public.json (also spelled another way) is refused and
#   writes nothing;
# - cuzk-verify on /dev/zero and on a 4 GiB sparse file, as each of its three inputs: refused
#   with under 2 s of CPU (the 64 MiB of /dev/zero its key's limit allows take ~0.5 s), the
#   message naming the limit;
# - cuzk-prove SIGKILLed mid-batch, three times: every proof.json that exists is complete,
#   snarkjs accepts it with the public.json beside it, and that public.json is snarkjs's own;
#   what else may be left is a public.json without its proof and temporary NAME.tmp.PID.N files
#   (io/atomic_file.hpp), never a partial proof.json or public.json.
# SNARKJS_VERIFY_ALL: tests/c_api/snarkjs_verify_all.cjs (every proof in one node process).
set -euo pipefail
[ $# -eq 6 ] || { echo "usage: $0 FIXTURE_DIR CURVE CUZK_PROVE CUZK_VERIFY SNARKJS_CLI SNARKJS_VERIFY_ALL" >&2; exit 2; }
fixtures=$1/$2
prove=$3
verify=$4
snarkjs_cli=$5
verify_all=$6
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "cli_hostile: FAILED: $*" >&2; exit 1; }
TIMEFORMAT='%3U %3S'  # bash's time: user and system CPU seconds

# The circuit with the largest key: its proofs take longest, so a kill lands mid-batch.
name=
for d in "$fixtures"/*/; do
  n=$(basename "$d")
  [ -f "$d/$n.zkey" ] || continue
  if [ -z "$name" ] || [ "$(stat -c %s "$d/$n.zkey")" -gt "$(stat -c %s "$fixtures/$name/$name.zkey")" ]; then name=$n; fi
done
[ -n "$name" ] || fail "no fixture circuit in $fixtures"
zkey=$fixtures/$name/$name.zkey
vk=$fixtures/$name/verification_key.json
public=$fixtures/$name/public.json
for w in first second third; do cp "$fixtures/$name/$name.wtns" "$work/$w.wtns"; done
mkfifo "$work/fifo.wtns"
mkdir "$work/dir.wtns"
list=$work/verify.list
: >"$list"
expect_proved() {  # DIR NAME LABEL: the proof is snarkjs's to check; public.json is snarkjs's own
  cmp -s "$1/$2.public.json" "$public" || fail "$3: $2.public.json differs from snarkjs's"
  printf '%s\t%s\t%s\t%s\n' "$3/$2" "$vk" "$1/$2.public.json" "$1/$2.proof.json" >>"$list"
}

# Batch: the FIFO and the directory fail alone, the others are proved.
rc=0
timeout 30 "$prove" "$zkey" --out "$work/batch" "$work/first.wtns" "$work/fifo.wtns" "$work/second.wtns" \
  "$work/dir.wtns" "$work/third.wtns" --backend cpu >"$work/batch.log" 2>&1 || rc=$?
[ "$rc" -ne 124 ] || fail "batch with a FIFO and a directory hung: $(cat "$work/batch.log")"
[ "$rc" -eq 1 ] || fail "batch with a FIFO and a directory exited $rc, expected 1: $(cat "$work/batch.log")"
grep -q "5 witnesses: 3 proved and verified, 2 failed" "$work/batch.log" || fail "batch summary: $(cat "$work/batch.log")"
grep -q "\[2/5\] .*fifo.wtns: FAILED: .*a FIFO" "$work/batch.log" || fail "batch: no FIFO error: $(cat "$work/batch.log")"
grep -q "\[4/5\] .*dir.wtns: FAILED: .*a directory" "$work/batch.log" || fail "batch: no directory error"
for w in first second third; do expect_proved "$work/batch" "$w" batch; done
[ ! -e "$work/batch/fifo.proof.json" ] && [ ! -e "$work/batch/dir.proof.json" ] || fail "batch wrote a proof for a special file"

# Serve: the same witnesses on stdin, one answer each, in order.
printf '%s\n' "$work/first.wtns" "$work/fifo.wtns" "$work/dir.wtns" "$work/second.wtns" |
  timeout 30 "$prove" "$zkey" --serve --out "$work/served" --backend cpu >"$work/serve.out" 2>"$work/serve.err" ||
  fail "serve with a FIFO and a directory exited $? (124: hung): $(cat "$work/serve.err")"
node -e 'const fs=require("fs"); const lines=fs.readFileSync(process.argv[1],"utf8").trim().split("\n").map(JSON.parse);
         const fail=(m)=>{console.error(m, lines); process.exit(1);};
         if (lines.length!==5 || !lines[0].ready) fail("serve: expected a ready line and 4 answers");
         if (!lines[1].ok || !lines[4].ok) fail("serve: a regular witness failed");
         if (lines[2].ok || !/a FIFO/.test(lines[2].error)) fail("serve: the FIFO");
         if (lines[3].ok || !/a directory/.test(lines[3].error)) fail("serve: the directory");' "$work/serve.out" ||
  fail "serve answers: $(cat "$work/serve.out")"
for w in first second; do expect_proved "$work/served" "$w" serve; done
echo "cli_hostile: special files among witnesses ok"

# One file for proof.json and public.json, however spelled: refused, nothing written.
mkdir "$work/same"
for second in "$work/same/out.json" "$work/same/../same/out.json"; do
  rc=0
  timeout 30 "$prove" "$zkey" "$work/first.wtns" "$work/same/out.json" "$second" --backend cpu >/dev/null \
    2>"$work/same.err" || rc=$?
  [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] || fail "cuzk-prove with one path for proof and public exited $rc"
  grep -q "both proof.json and public.json" "$work/same.err" || fail "unclear error: $(cat "$work/same.err")"
  [ -z "$(ls -A "$work/same")" ] || fail "a refused call wrote $(ls "$work/same")"
done
echo "cli_hostile: one path for both outputs refused"

# cuzk-verify on an endless input and on a 4 GiB sparse file, as each argument.
truncate -s 4G "$work/huge.json"
for bad in /dev/zero "$work/huge.json"; do
  for slot in 1 2 3; do
    args=("$vk" "$work/batch/first.public.json" "$work/batch/first.proof.json")
    args[$((slot - 1))]=$bad
    # CPU time, not wall time: a loaded CI machine stretches the wall clock; a reader that
    # consumed the whole 4 GiB or kept reading /dev/zero would use seconds of CPU.
    { time { rc=0; timeout 20 "$verify" "${args[@]}" >/dev/null 2>"$work/verify.err" || rc=$?; echo $rc >"$work/rc"; }; } \
      2>"$work/time"
    rc=$(cat "$work/rc")
    [ "$rc" -eq 2 ] || fail "cuzk-verify with $bad as argument $slot exited $rc (124: hung): $(cat "$work/verify.err")"
    grep -q "over the limit of [0-9]* bytes" "$work/verify.err" || fail "no limit named: $(cat "$work/verify.err")"
    ms=$(awk '{ printf "%d", 1000 * ($1 + $2) }' "$work/time")
    [ "$ms" -lt 2000 ] || fail "cuzk-verify used $ms ms of CPU to refuse $bad as argument $slot"
  done
done
echo "cli_hostile: cuzk-verify refuses /dev/zero and a 4 GiB file at its limits"

# SIGKILL mid-batch: 120 names for one witness, killed a little after the first proof appears.
mkdir "$work/many"
for i in $(seq -w 1 120); do ln -s "$work/first.wtns" "$work/many/w$i.wtns"; done
mid_batch=0
for round in 1 2 3; do
  out=$work/killed$round
  "$prove" "$zkey" --out "$out" "$work"/many/w*.wtns --backend cpu >"$work/kill$round.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 400); do  # up to 20 s for the key and the first proof
    compgen -G "$out/*.proof.json" >/dev/null && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  sleep "0.0$((RANDOM % 10))"
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  proofs=0
  for p in "$out"/*.proof.json; do
    [ -e "$p" ] || continue
    w=$(basename "$p" .proof.json)
    [ -e "$out/$w.public.json" ] || fail "round $round: $w.proof.json without its public.json"
    expect_proved "$out" "$w" "kill$round"
    proofs=$((proofs + 1))
  done
  for f in "$out"/*; do  # nothing else but public.json files and temporary files
    [ -e "$f" ] || continue
    case $f in *.proof.json | *.public.json | *.tmp.*) ;; *) fail "round $round: unexpected file $f" ;; esac
  done
  for pub in "$out"/*.public.json; do
    if [ -e "$pub" ] && ! cmp -s "$pub" "$public"; then fail "round $round: partial or wrong $(basename "$pub")"; fi
  done
  if [ "$proofs" -gt 0 ] && [ "$proofs" -lt 120 ]; then mid_batch=$((mid_batch + 1)); fi
  echo "cli_hostile: kill round $round: $proofs of 120 proofs on disk, $(ls "$out" | grep -c '\.tmp\.' || true) temporary files"
done
[ "$mid_batch" -ge 1 ] || fail "no kill landed mid-batch (the batch was too fast or never started)"

# Every proof written above, checked by snarkjs in one node process.
node "$verify_all" "$snarkjs_cli" "$list" >"$work/verified.txt" || fail "snarkjs_verify_all failed"
[ "$(wc -l <"$work/verified.txt")" -eq "$(wc -l <"$list")" ] || fail "snarkjs answered $(wc -l <"$work/verified.txt") of $(wc -l <"$list")"
if grep -v ' OK$' "$work/verified.txt"; then fail "snarkjs rejects the proofs above"; fi
echo "cli_hostile: snarkjs accepts all $(wc -l <"$list") proofs; all ok"
