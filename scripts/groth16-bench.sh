#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# End-to-end Groth16 timings on a GPU: cuzk-prove over curves, sizes, witness shapes and
# policies. Each configuration's output (per-stage medians, verification) goes to
# OUTDIR/prove_<curve>_<log>_<witness>[_<policy>].log; OUTDIR/groth16_summary.txt collects
# the "prove (one proof)" and throughput lines.
#
#   scripts/groth16-bench.sh OUTDIR CUZK_PROVE [SIZES] [PROOFS]
#     SIZES: space-separated log sizes (default "16 20 22 24"); PROOFS per run (default 3)
set -uo pipefail
out=$1
prove=$2
sizes=${3:-16 20 22 24}
proofs=${4:-3}
mkdir -p "$out"
summary=$out/groth16_summary.txt
: >"$summary"
run() {  # name, args...
    local name=$1
    shift
    echo "== $name: cuzk-prove $*" | tee -a "$summary"
    if timeout 420 "$prove" "$@" >"$out/$name.log" 2>&1; then
        grep -E "prove \(one proof\)|throughput|MSM|NTT|VALID|key " "$out/$name.log" | sed 's/^/   /' >>"$summary"
    else
        echo "   FAILED (exit $?)" >>"$summary"
        tail -5 "$out/$name.log" | sed 's/^/   /' >>"$summary"
    fi
}
for curve in bls12-381 bn254; do
    for k in $sizes; do
        run "prove_${curve}_${k}_random" --curve "$curve" --log-size "$k" --witness random --proofs "$proofs" --backend gpu
    done
    k=${sizes##* }
    run "prove_${curve}_${k}_bits" --curve "$curve" --log-size "$k" --witness bits --proofs "$proofs" --backend gpu
done
# Policies at one size (BLS12-381, 2^20 unless asked otherwise): lock, staging, G2 placement, workers.
k=${CUZK_POLICY_LOG:-20}
for p in "--lock device" "--lock none" "--staging on-demand" "--staging streamed" "--g2 cpu" \
         "--workers 2 --lock split" "--workers 2 --lock device" "--workers 4 --lock split"; do
    tag=$(echo "$p" | tr -d '-' | tr ' ' '_')
    run "prove_bls12-381_${k}_random_${tag}" --curve bls12-381 --log-size "$k" --proofs 8 --backend gpu $p
done
