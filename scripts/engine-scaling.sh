#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Does a second GPU double the engine's throughput? The engine's batch on one GPU, on two, and on
# the second alone (the first left out of the device list), interleaved in one machine loan, for a
# 90%-bits and a random witness.
# Each run's log, Chrome trace and per-GPU memory samples go to OUTDIR; OUTDIR/scaling_summary.txt
# has a line per run (ms per proof, GPU busy per device, verified, host RSS peak, VRAM peak per GPU,
# the devices and GPU-stream tracks its trace shows) and, per witness, the throughput ratio of two
# GPUs to one (target >= 1.9).
#
#   scripts/engine-scaling.sh OUTDIR CUZK_PROVE [TWO] [LOG] [PROOFS] [ROUNDS]
#     TWO: the two-GPU device list (default 0,1; 0,0 rehearses everything on one GPU: two slots
#          then share it, and the second-GPU-alone run is left out)
#     LOG: domain 2^LOG (default 24); PROOFS per batch (default 20); ROUNDS: how many times the runs
#          are repeated, interleaved (default 1; the ratio uses the medians)
#   CUZK_SCALING_ARGS: the policy (default "--workers 2 --lock split --staging prestaged")
#   CUZK_SCALING_LIMIT: seconds per run (default 580)
# Exit status 1 if a run failed or a proof did not verify.
set -uo pipefail
[[ $# -ge 2 ]] || { echo "usage: $0 OUTDIR CUZK_PROVE [TWO] [LOG] [PROOFS] [ROUNDS]" >&2; exit 2; }
mkdir -p "$1"
out=$(cd "$1" && pwd)
prove=$2
two=${3:-0,1}
log=${4:-24}
proofs=${5:-20}
rounds=${6:-1}
policy=${CUZK_SCALING_ARGS:---workers 2 --lock split --staging prestaged}
limit=${CUZK_SCALING_LIMIT:-580}
[[ $two =~ ^[0-9]+,[0-9]+$ ]] || { echo "$0: TWO must be two device ids, e.g. 0,1" >&2; exit 2; }
first=${two%,*}
second=${two#*,}
here=$(dirname "$0")
summary=$out/scaling_summary.txt
: >"$summary"
status=0

# name, device list, witness: one batch; appends its line to the summary and its ms per proof to
# OUTDIR/<witness>.<config>.ms
run() {
    local name=$1 devices=$2 witness=$3 smi=""
    local base=$out/$name
    if command -v nvidia-smi >/dev/null; then
        nvidia-smi --query-gpu=index,memory.used --format=csv,noheader,nounits -lms 100 >"$base.vram.csv" 2>/dev/null &
        smi=$!
    fi
    # shellcheck disable=SC2086  # the policy is a list of flags
    "$here/with-time-limit.sh" "$limit" "$prove" --log-size "$log" --witness "$witness" --proofs "$proofs" \
        --backend gpu --devices "$devices" $policy --trace "$base.trace.json" >"$base.log" 2>&1
    local rc=$?
    [[ -n $smi ]] && kill "$smi" 2>/dev/null && wait "$smi" 2>/dev/null
    local ms busy valid rss vram tracks
    ms=$(awk '/throughput: ms per proof/ {print $5}' "$base.log")
    busy=$(awk '/^  GPU [0-9]+: busy/ {sub(":", "", $2); printf "GPU%s %s ", $2, substr($NF, 2, length($NF) - 2)}' "$base.log")
    valid=$(grep -Eo '[0-9]+/[0-9]+ proofs VALID' "$base.log")
    rss=$(awk '/host RSS peak/ {print $4 " GiB"}' "$base.log")
    vram=$([[ -s $base.vram.csv ]] && awk -F', *' '{if ($2 > m[$1]) m[$1] = $2} END {for (g in m) print g, m[g]}' \
        "$base.vram.csv" | sort -n | awk '{printf "GPU%s %.1f GiB ", $1, $2 / 1024}')
    # the trace's processes (one per slot, named after its device) and GPU-stream tracks
    tracks=$([[ -s $base.trace.json ]] &&
        echo "GPUs $(grep -o '"slot [0-9]*: GPU [0-9]*"' "$base.trace.json" | sed 's/.*: GPU //; s/"//' | sort -nu | paste -sd, -)" \
            "($(grep -c '"worker [0-9]* GPU stream"' "$base.trace.json") stream tracks)")
    printf '%-22s devices %-4s rc %-3s ms/proof %-8s busy %-26s %-18s RSS %-10s VRAM peak %s trace %s\n' \
        "$name" "$devices" "$rc" "${ms:-?}" "${busy:-?}" "${valid:-no verdict}" "${rss:-?}" "${vram:-?}" \
        "${tracks:-?}" >>"$summary"
    if [[ $rc -ne 0 || -z $ms || $valid != "$proofs/$proofs proofs VALID" ]]; then
        status=1
        tail -5 "$base.log" | sed 's/^/    /' >>"$summary"
    else
        echo "$ms" >>"$out/$witness.${name%%.*}.ms"
    fi
}

median() { [[ -s $1 ]] && sort -g "$1" | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

echo "== cuzk-prove --log-size $log --proofs $proofs $policy; one GPU: $first, two: $two; $rounds round(s)" >>"$summary"
rm -f "$out"/*.ms
for r in $(seq 1 "$rounds"); do
    for witness in bits random; do
        run "one.$witness.$r" "$first" "$witness"
        run "two.$witness.$r" "$two" "$witness"
        [[ $first != "$second" ]] && run "other.$witness.$r" "$second" "$witness"
    done
done
for witness in bits random; do
    one=$(median "$out/$witness.one.ms")
    both=$(median "$out/$witness.two.ms")
    if [[ -n $one && -n $both ]]; then
        awk -v w="$witness" -v a="$one" -v b="$both" 'BEGIN {
            printf "%s: median ms per proof one GPU %s, two %s: throughput x%.2f (target >= 1.9)\n", w, a, b, a / b }' >>"$summary"
    else
        echo "$witness: no ratio (a run failed)" >>"$summary"
    fi
done
cat "$summary"
exit $status
