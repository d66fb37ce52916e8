#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# cuzk-prove against `snarkjs groth16 prove` on the same zkey and witness.
#
#   scripts/snarkjs-bench.sh OUTDIR CUZK_PROVE [LOG_SIZES] [REPS]
#     LOG_SIZES: space-separated log2 domain sizes (default "10 12 14 16 18"); REPS per tool (default 3)
#
# For each curve and size: cuzk-setup (next to CUZK_PROVE, or $CUZK_SETUP) writes a synthetic circuit
# with a 2^k-row domain and INSECURE seeded keys (circuit.zkey, witness.wtns, verification_key.json)
# to OUTDIR/<curve>_<k>/; then `snarkjs groth16 prove` and `cuzk-prove zkey wtns proof public --stages`
# run REPS times each (wall time of the whole command, as a user sees it: reading the files included;
# median reported); every proof of both tools is checked with `snarkjs groth16 verify` (or with
# cuzk-verify when node is absent). Writes OUTDIR/snarkjs_bench.md (the table, machine, load) and
# per-run logs. Exits non-zero if any proof failed to verify or any command failed.
#
# Without node or snarkjs (a GPU machine with no internet), the snarkjs columns are "-" and only
# cuzk-prove is timed; compare with snarkjs numbers taken elsewhere (docs/PERFORMANCE.md).
#
# Environment: CURVES (default "bn128 bls12381"), CUZK_BACKEND (auto|cpu|gpu, default auto),
# CUZK_SETUP, SNARKJS_CLI (path to snarkjs's build/cli.cjs; default: the repo's node_modules),
# SNARKJS_TIMEOUT (seconds per snarkjs proof, default 1800; a timed-out size is reported, not fatal),
# SNARKJS_MAX_LOG (skip snarkjs above this log size, default: no limit).
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: $0 OUTDIR CUZK_PROVE [LOG_SIZES] [REPS]" >&2; exit 2; }
out=$1
prove=$(realpath "$2")
sizes=${3:-10 12 14 16 18}
reps=${4:-3}
curves=${CURVES:-bn128 bls12381}
backend=${CUZK_BACKEND:-auto}
bindir=$(dirname "$prove")
setup=${CUZK_SETUP:-$bindir/cuzk-setup}
verify=$bindir/cuzk-verify
repo=$(cd "$(dirname "$0")/.." && pwd)
cli=${SNARKJS_CLI:-$repo/node_modules/snarkjs/build/cli.cjs}
sj_timeout=${SNARKJS_TIMEOUT:-1800}
sj_max=${SNARKJS_MAX_LOG:-99}
[ -x "$prove" ] || { echo "no executable $prove" >&2; exit 2; }
[ -x "$setup" ] || { echo "no cuzk-setup at $setup (set CUZK_SETUP)" >&2; exit 2; }
have_snarkjs=0
if command -v node >/dev/null 2>&1 && [ -f "$cli" ]; then
    have_snarkjs=1
    sj_version=$(node -e "console.log(require('$(dirname "$cli")/../package.json').version)" 2>/dev/null || echo "?")
else
    echo "snarkjs-bench: node or snarkjs not found: timing cuzk-prove only" >&2
fi
mkdir -p "$out"
out=$(realpath "$out")
md=$out/snarkjs_bench.md
failed=0

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.6f", b - a}'; }  # no bc on every machine
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {if (NR==0) print "-"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
snarkjs_ok() {  # vk public proof
    node "$cli" groth16 verify "$1" "$2" "$3" 2>&1 | grep -q "OK!"
}

{
    echo "# cuzk-prove vs snarkjs groth16 prove"
    echo
    echo "- date: $(date -u +%Y-%m-%d) ($(date -u +%H:%M) UTC)"
    echo "- host: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo) RAM"
    if command -v nvidia-smi >/dev/null 2>&1; then
        echo "- GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
    fi
    if [ $have_snarkjs = 1 ]; then echo "- snarkjs $sj_version on node $(node --version)"; else echo "- snarkjs: not available here"; fi
    echo "- command: scripts/snarkjs-bench.sh OUT $2 \"$sizes\" $reps (curves: $curves, backend: $backend)"
    echo "- each tool: wall time of the whole command (reading zkey + witness, proving, writing JSON), median of $reps;"
    echo "  \"cuzk prove\" is cuzk-prove's own proving time without the file reads; load = /proc/loadavg before the size"
    echo
    echo "| curve | 2^k | constraints | snarkjs prove (s) | cuzk-prove wall (s) | cuzk prove only (s) | backend | ratio (wall) | load 1/5/15 | proofs verified |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
} >"$md"

for curve in $curves; do
    for k in $sizes; do
        d=$out/${curve}_$k
        mkdir -p "$d"
        l=$(load)
        echo "== $curve 2^$k (load $l)" >&2
        if ! "$setup" --curve "$curve" --log-size "$k" "$d" >"$d/setup.log" 2>&1; then
            echo "| $curve | $k | setup FAILED | | | | | | $l | |" >>"$md"
            failed=1
            continue
        fi
        constraints=$(sed -n 's/.*: \([0-9]*\) constraints.*/\1/p' "$d/setup.log" | head -1)
        verified=0
        total=0

        # snarkjs
        sj_times=""
        sj_note=""
        if [ $have_snarkjs = 1 ] && [ "$k" -le "$sj_max" ]; then
            for r in $(seq "$reps"); do
                t0=$(now)
                timeout "$sj_timeout" node "$cli" groth16 prove "$d/circuit.zkey" "$d/witness.wtns" \
                    "$d/snarkjs_proof.json" "$d/snarkjs_public.json" >"$d/snarkjs_$r.log" 2>&1
                rc=$?
                t1=$(now)
                if [ $rc -ne 0 ]; then
                    sj_note=" (rep $r: exit $rc$([ $rc -eq 124 ] && echo ", timeout ${sj_timeout}s"))"
                    [ $rc -ne 124 ] && failed=1
                    break
                fi
                sj_times="$sj_times $(elapsed "$t0" "$t1")"
                total=$((total + 1))
                if snarkjs_ok "$d/verification_key.json" "$d/snarkjs_public.json" "$d/snarkjs_proof.json"; then
                    verified=$((verified + 1))
                else
                    echo "snarkjs-bench: snarkjs's own proof does not verify ($curve 2^$k rep $r)" >&2
                    failed=1
                fi
                echo "   snarkjs rep $r: $(elapsed "$t0" "$t1" | cut -c1-7) s" >&2
            done
        fi
        sj_med=$(echo "$sj_times" | median)

        # cuzk-prove
        cz_times=""
        cz_prove=""
        cz_backend="?"
        for r in $(seq "$reps"); do
            t0=$(now)
            "$prove" "$d/circuit.zkey" "$d/witness.wtns" "$d/cuzk_proof.json" "$d/cuzk_public.json" \
                --backend "$backend" --stages 2>"$d/cuzk_$r.log"
            rc=$?
            t1=$(now)
            if [ $rc -ne 0 ]; then
                echo "snarkjs-bench: cuzk-prove failed ($curve 2^$k rep $r, exit $rc): $(tail -1 "$d/cuzk_$r.log")" >&2
                failed=1
                break
            fi
            cz_times="$cz_times $(elapsed "$t0" "$t1")"
            cz_prove="$cz_prove $(sed -n 's/.*prove \([0-9.]*\) s.*/\1/p' "$d/cuzk_$r.log" | head -1)"
            cz_backend=$(sed -n 's/.*(\(CPU\|GPU\))$/\1/p' "$d/cuzk_$r.log" | head -1)
            total=$((total + 1))
            ok=0
            if [ $have_snarkjs = 1 ]; then
                snarkjs_ok "$d/verification_key.json" "$d/cuzk_public.json" "$d/cuzk_proof.json" && ok=1
            elif [ -x "$verify" ]; then
                "$verify" "$d/verification_key.json" "$d/cuzk_public.json" "$d/cuzk_proof.json" >/dev/null 2>&1 && ok=1
            fi
            if [ $ok = 1 ]; then verified=$((verified + 1)); else
                echo "snarkjs-bench: cuzk's proof does not verify ($curve 2^$k rep $r)" >&2
                failed=1
            fi
            echo "   cuzk-prove rep $r: $(elapsed "$t0" "$t1" | cut -c1-7) s" >&2
        done
        cz_med=$(echo "$cz_times" | median)
        cz_prove_med=$(echo "$cz_prove" | median)
        ratio="-"
        if [ "$sj_med" != "-" ] && [ "$cz_med" != "-" ]; then
            ratio=$(awk -v a="$sj_med" -v b="$cz_med" 'BEGIN {printf "%.1fx", a / b}')
        fi
        fmt() { [ "$1" = "-" ] && echo "-" || awk -v x="$1" 'BEGIN {printf "%.3f", x}'; }
        echo "| $curve | $k | $constraints | $(fmt "$sj_med")$sj_note | $(fmt "$cz_med") | $(fmt "$cz_prove_med") | $cz_backend | $ratio | $l | $verified/$total |" >>"$md"
        # Keep the per-stage table of the last cuzk run.
        [ -f "$d/cuzk_$reps.log" ] && cp "$d/cuzk_$reps.log" "$d/cuzk_stages.txt"
    done
done

{
    echo
    echo "## cuzk-prove per-stage times (last run of each size, ms)"
    for curve in $curves; do
        for k in $sizes; do
            f=$out/${curve}_$k/cuzk_stages.txt
            [ -f "$f" ] || continue
            echo
            echo "$curve 2^$k:"
            echo '```'
            cat "$f"
            echo '```'
        done
    done
} >>"$md"
cat "$md"
exit $failed
