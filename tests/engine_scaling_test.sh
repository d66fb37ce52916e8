#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# scripts/engine-scaling.sh against a fake cuzk-prove and a fake nvidia-smi whose numbers are set
# here: the summary's per-run fields, the two-to-one ratio of the medians, the runs a device list
# asks for, and exit status 1 when a batch has a proof that does not verify.
#   engine_scaling_test.sh SCRIPTS_DIR
set -uo pipefail
[ $# -eq 1 ] || { echo "usage: $0 SCRIPTS_DIR" >&2; exit 2; }
script=$1/engine-scaling.sh
fail() { echo "engine_scaling_test: FAILED: $*" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin"

# ms per proof: 100 (bits) or 300 (random) on one GPU, 52.5 / 157.5 on two (x1.90), 101 / 303 on
# GPU 1 alone. CUZK_FAKE_BAD=two.random: that batch has a proof that does not verify.
cat >"$work/bin/cuzk-prove" <<'EOF'
#!/usr/bin/env bash
while [ $# -gt 0 ]; do
  case $1 in
    --witness) w=$2; shift ;;
    --proofs) n=$2; shift ;;
    --devices) d=$2; shift ;;
    --trace) trace=$2; shift ;;
  esac
  shift
done
case $d in
  0) ms=100; [ "$w" = random ] && ms=300 ;;
  1) ms=101; [ "$w" = random ] && ms=303 ;;
  *) ms=52.5; [ "$w" = random ] && ms=157.5 ;;
esac
echo "  throughput: ms per proof   $ms  ($n proofs, 1 slot x 2 workers)"
for g in $(echo "$d" | tr ',' '\n' | sort -u); do echo "  GPU $g: busy 95.0 ms of 100.0 (9$g.5%)"; done
ok=$n
[ "${CUZK_FAKE_BAD:-}" = "$([ ${#d} -gt 1 ] && echo two || echo one).$w" ] && ok=$((n - 1))
echo "  $ok/$n proofs VALID"
echo "  host RSS peak 12.50 GiB"
# the engine's trace metadata: a process per slot named after its device, a GPU-stream track per worker
slot=0
for g in $(echo "$d" | tr ',' ' '); do
  echo "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":$slot,\"args\":{\"name\":\"slot $slot: GPU $g\"}}"
  for w in 0 1; do
    echo "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":$slot,\"tid\":$((2 * w + 1)),\"args\":{\"name\":\"worker $w GPU stream\"}}"
  done
  slot=$((slot + 1))
done >"$trace"
EOF
cat >"$work/bin/nvidia-smi" <<'EOF'
#!/usr/bin/env bash
printf '0, 1000\n1, 2048\n0, 3072\n'
exec sleep 60
EOF
chmod +x "$work/bin/cuzk-prove" "$work/bin/nvidia-smi"
export PATH=$work/bin:$PATH

"$script" "$work/a" cuzk-prove 0,1 20 20 3 >/dev/null || fail "exit status $? on good runs"
s=$work/a/scaling_summary.txt
grep -q 'bits: median ms per proof one GPU 100, two 52.5: throughput x1.90' "$s" || fail "bits ratio: $(cat "$s")"
grep -q 'random: median ms per proof one GPU 300, two 157.5: throughput x1.90' "$s" || fail "random ratio: $(cat "$s")"
[ "$(grep -c '^one\.' "$s")" -eq 6 ] && [ "$(grep -c '^two\.' "$s")" -eq 6 ] && [ "$(grep -c '^other\.' "$s")" -eq 6 ] ||
  fail "expected 6 runs of each configuration (2 witnesses x 3 rounds): $(cat "$s")"
line=$(grep '^two\.bits\.1 ' "$s")
for want in 'devices 0,1' 'rc 0' 'ms/proof 52.5' 'GPU0 90.5% GPU1 91.5%' '20/20 proofs VALID' 'RSS 12.50 GiB' \
            'VRAM peak GPU0 3.0 GiB GPU1 2.0 GiB' 'trace GPUs 0,1 (4 stream tracks)'; do
  [[ $line == *"$want"* ]] || fail "'$want' missing from: $line"
done
grep -q '^other\.random\.2 .*devices 1 .*ms/proof 303 ' "$s" || fail "the second GPU alone: $(cat "$s")"

# one GPU standing in for two: no run of the second alone
"$script" "$work/b" cuzk-prove 0,0 20 20 1 >/dev/null || fail "exit status $? on a rehearsal"
! grep -q '^other\.' "$work/b/scaling_summary.txt" || fail "0,0 ran the second GPU alone"
grep -q '^two\.bits\.1 .*devices 0,0 .*GPU0 90.5% .*trace GPUs 0 (4 stream tracks)' "$work/b/scaling_summary.txt" ||
  fail "rehearsal: $(cat "$work/b/scaling_summary.txt")"

# a proof that does not verify fails the script and leaves that witness without a ratio
CUZK_FAKE_BAD=two.random "$script" "$work/c" cuzk-prove 0,1 20 20 1 >/dev/null
[ $? -eq 1 ] || fail "a batch with a bad proof did not fail the script"
grep -q '^random: no ratio' "$work/c/scaling_summary.txt" || fail "a ratio from a failed batch: $(cat "$work/c/scaling_summary.txt")"
grep -q '^bits: .*x1.90' "$work/c/scaling_summary.txt" || fail "the good witness lost its ratio"

"$script" "$work/d" cuzk-prove 0 >/dev/null 2>&1
[ $? -eq 2 ] || fail "a one-device list for TWO was not a usage error"
echo "engine_scaling_test: passed"
