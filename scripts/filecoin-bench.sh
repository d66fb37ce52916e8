#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Filecoin-shaped GPU measurements: PoRep-shaped BLS12-381 partitions (groth16::porep_shape: 97% bits,
# key density-compressed) proved by cuzk-prove with the key resident and within a VRAM budget.
#
#   scripts/filecoin-bench.sh OUTDIR CUZK_PROVE [LOG_SIZES] [PROOFS]
#     LOG_SIZES: space-separated log2 domain sizes (default "24 26 27"); PROOFS per run (default 2)
#
# Per size, one `cuzk-prove --curve bls12-381 --log-size K --porep --proofs P --backend gpu
# --rerun-in-vram-gb $CUZK_VRAM_GB`, which proves twice with one circuit and key:
#   resident   key and circuit resident (prestaged, the default policy)
#   budget     --staging chunked --vram-gb $CUZK_VRAM_GB (default 13: a 16 GB consumer card, less
#              what the budget does not count: the device domain's twiddles, 2.1 GB at 2^27, a
#              compressed key's index arrays, 0.7 GB, the CUDA context): the key stays in
#              page-locked host memory and streams into each MSM in chunks; a, b, c are evaluated
#              on the host, and proofs use the compact layout when the full one does not fit
# The process synthesises the circuit and makes INSECURE seeded test keys on the GPU first (2^27:
# about 80 s + 200 s on the H200 machine); only the proofs are timed, and every proof is verified.
#
# Writes OUTDIR/porep_<K>.log (cuzk-prove's two stage tables, then GNU time's report: host peak
# RSS of both runs) and OUTDIR/filecoin_summary.txt (each run's prove/throughput lines, verdict, peak
# RSS, wall). Environment: CUZK_VRAM_GB, CUZK_RUN_TIMEOUT (seconds per run, default 1200),
# CUZK_EXTRA_ARGS (more cuzk-prove arguments for every run). Exit status 1 if a run failed or a
# proof did not verify.
set -uo pipefail
[[ $# -ge 2 ]] || { echo "usage: $0 OUTDIR CUZK_PROVE [LOG_SIZES] [PROOFS]" >&2; exit 2; }
out=$1
prove=$2
sizes=${3:-24 26 27}
proofs=${4:-2}
vram=${CUZK_VRAM_GB:-13}
mkdir -p "$out"
summary=$out/filecoin_summary.txt
: >"$summary"
timer=()
[[ -x /usr/bin/time ]] && timer=(/usr/bin/time -v)
failed=0
run() {  # tag, extra cuzk-prove arguments...
    local tag=$1 log=$out/$1.log
    shift
    local extra=()
    read -r -a extra <<<"${CUZK_EXTRA_ARGS:-}"
    local cmd=("$prove" --curve bls12-381 --log-size "$k" --porep --proofs "$proofs" --backend gpu "$@" "${extra[@]}")
    echo "== $tag ($(date -u +%H:%M:%S) UTC): ${cmd[*]}" >>"$summary"
    timeout "${CUZK_RUN_TIMEOUT:-1200}" "${timer[@]}" "${cmd[@]}" >"$log" 2>&1
    local rc=$?
    grep -E "key |note:|compact|again|prove \(one proof\)|throughput|MSM|upload|VALID|FAILED|Maximum resident|Elapsed" "$log" |
        sed 's/^[[:space:]]*/   /' >>"$summary"
    if [[ $rc -ne 0 ]]; then
        echo "   FAILED (exit $rc)" >>"$summary"
        tail -5 "$log" | sed 's/^/   /' >>"$summary"
        failed=1
    fi
}
for k in $sizes; do
    run "porep_${k}" --rerun-in-vram-gb "$vram"
done
cat "$summary"
exit "$failed"
