#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# cuzk-prove's CPU backend against rapidsnark's prover, side by side on the same BN254 files.
#
#   scripts/rapidsnark-bench.sh OUTDIR CUZK_PROVE RAPIDSNARK_PROVER [LOG_SIZES] [REPS]
#     LOG_SIZES: space-separated log2 domain sizes (default "16 18"); REPS: timed runs per tool (default 5)
#
# rapidsnark (iden3/rapidsnark, its `prover` target) is built outside this repository; give its
# binary by path (../shared/reference/rapidsnark-cpu.md says how it was built last time).
#
# Fixtures, per size 2^k, under OUTDIR/<fixture>_<k>/ (kept and reused by a later run with the
# same inputs; see the stamp files):
#   synthetic   cuzk-setup --curve bn128 --log-size k: the synthetic circuit (2^k - 5
#               constraints, 4 public inputs), INSECURE seeded keys, its witness
#   mulchain    when circom can run here (node_modules/.bin/circom2, circom compiled to wasm, or
#               $CIRCOM): the circuit of tests/interop/circuits/mul_chain.circom with
#               N = 2^k - 3 squarings (N constraints, 2 public signals: a 2^k domain), compiled
#               for bn128, its witness from circom's wasm (`snarkjs wtns calculate`), and
#               INSECURE seeded keys from `cuzk-setup --r1cs` (no Powers of Tau, which takes
#               hours at 2^18 here; snarkjs accepts the proofs all the same)
# cuzk-setup is taken from next to CUZK_PROVE (or $CUZK_SETUP).
#
# Timing: per fixture, one untimed warm-up of each tool, then REPS rounds of
# `rapidsnark zkey wtns proof public` and `cuzk-prove zkey wtns proof public --backend cpu --stages`
# interleaved (A B A B ...): wall time of the whole command (bash `time`: reading the files,
# proving, writing the JSON), its user + sys CPU, and the CPU that everything else on the machine
# used meanwhile (from /proc/stat: a quiet machine shows ~0), its peak resident set (GNU time's
# %M, where /usr/bin/time is GNU time). Median and range per tool. The
# load average (/proc/loadavg) is recorded before and after each fixture. Every proof of both
# tools, warm-ups included, is checked with `snarkjs groth16 verify`, and its public signals are
# compared with the expected ones.
#
# Writes OUTDIR/rapidsnark_bench.md (the table, machine, load, every run's times, cuzk's stage
# table) and per-run logs next to the fixtures. Exits 1 if any proof fails to verify or any
# command fails, 2 on bad arguments or missing tools (node and snarkjs are required).
#
# Environment: CUZK_SETUP, VERIFIER ("snarkjs", the default, or "cuzk": cuzk-verify from next to
# CUZK_PROVE checks every proof and the public signals are compared as text, for a machine without
# node such as the GPU host; the mulchain fixture then needs node too and is skipped), SNARKJS_CLI
# (snarkjs's build/cli.cjs; default: the repo's node_modules), CIRCOM (a circom 2 binary or circom2 wrapper; default the repo's
# node_modules/.bin/circom2; "none" skips the circom fixture), FIXTURES ("synthetic mulchain" by
# default), SEED (cuzk-setup seed, default 1), RAPIDSNARK_DESC (a line naming rapidsnark's
# commits, copied into the report), RAPIDSNARK_STAGES (optional: a copy of rapidsnark's prover
# built with stage markers, run STAGE_RUNS times (default 3) per fixture after the timed rounds,
# never timed with them; its stage table, medians in ms, goes into the report).
#
# The stage copy: rapidsnark's src/logging.hpp with LOG_TRACE(x) defined to print
# "[rs-stage] <ms since the first marker> ms <x>" to stderr (LOG_DEBUG left empty), plus markers
# "main: start" and "main: zkey and wtns mapped" around main_prover.cpp's two FileLoaders and
# "prover made, wtns header read" / "proof done" around prover.cpp's prover->prove(wtnsData).
# Stages are the differences between markers: read = start .. "Start Multiexp A" (mapping both
# files, parsing the headers, making the prover), the MSMs A, B1, B2, C, then "a, b, c" (Start
# Initializing a b c A .. Initializing fft), "H step" (.. Start Multiexp H: 3 iFFT, 3 shifts, 3 FFT,
# a*b-c), "MSM H" (.. proof done).
set -uo pipefail
[ $# -ge 3 ] || { echo "usage: $0 OUTDIR CUZK_PROVE RAPIDSNARK_PROVER [LOG_SIZES] [REPS]" >&2; exit 2; }
out=$1
prove=$(realpath "$2")
rapid=$(realpath "$3")
sizes=${4:-16 18}
reps=${5:-5}
repo=$(cd "$(dirname "$0")/.." && pwd)
bindir=$(dirname "$prove")
setup=${CUZK_SETUP:-$bindir/cuzk-setup}
cli=${SNARKJS_CLI:-$repo/node_modules/snarkjs/build/cli.cjs}
circom=${CIRCOM:-$repo/node_modules/.bin/circom2}
[ "${VERIFIER:-snarkjs}" = cuzk ] && circom=none
fixtures=${FIXTURES:-synthetic mulchain}
seed=${SEED:-1}
[ -x "$prove" ] || { echo "rapidsnark-bench: no executable $prove" >&2; exit 2; }
[ -x "$rapid" ] || { echo "rapidsnark-bench: no executable $rapid" >&2; exit 2; }
[ -x "$setup" ] || { echo "rapidsnark-bench: no cuzk-setup at $setup (set CUZK_SETUP)" >&2; exit 2; }
verifier=${VERIFIER:-snarkjs}
case "$verifier" in
    snarkjs)
        command -v node >/dev/null 2>&1 || { echo "rapidsnark-bench: node is needed (every proof is checked by snarkjs; VERIFIER=cuzk without node)" >&2; exit 2; }
        [ -f "$cli" ] || { echo "rapidsnark-bench: no snarkjs at $cli (npm ci, or set SNARKJS_CLI)" >&2; exit 2; } ;;
    cuzk)
        cuzk_verify=$bindir/cuzk-verify
        [ -x "$cuzk_verify" ] || { echo "rapidsnark-bench: no cuzk-verify at $cuzk_verify" >&2; exit 2; }
        CIRCOM=none ;;
    *) echo "rapidsnark-bench: VERIFIER must be snarkjs or cuzk" >&2; exit 2 ;;
esac
case "$reps" in '' | *[!0-9]* | 0) echo "rapidsnark-bench: REPS must be a positive integer" >&2; exit 2 ;; esac
for k in $sizes; do
    case "$k" in '' | *[!0-9]*) echo "rapidsnark-bench: bad log size '$k'" >&2; exit 2 ;; esac
done
have_circom=0
if [ "$circom" != none ] && [ -x "$circom" ]; then have_circom=1; fi
mkdir -p "$out"
out=$(realpath "$out")
md=$out/rapidsnark_bench.md
runs=$out/runs.tsv
failed=0

sj_version=$(node -e "console.log(require('$(dirname "$cli")/../package.json').version)" 2>/dev/null || echo "?")
circom_version=-
[ $have_circom = 1 ] && circom_version=$("$circom" --version 2>/dev/null | tr "\n" " " | sed "s/ *$//")
load() { cut -d' ' -f1-3 /proc/loadavg; }
busy_jiffies() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8 + $9; exit}' /proc/stat; }
hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {if (NR==0) print "-"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
range() { tr ' ' '\n' | grep -v '^$' | sort -g | awk 'NR==1 {lo=$1} {hi=$1} END {if (NR==0) print "-"; else printf "%.3f-%.3f", lo, hi}'; }
maxof() { tr ' ' '\n' | grep -v '^$' | sort -g | tail -1; }
mib() { case "$1" in '' | *[!0-9]*) echo "-" ;; *) awk -v x="$1" 'BEGIN {printf "%.0f", x / 1024}' ;; esac; }
fmt3() { [ "$1" = "-" ] && echo "-" || awk -v x="$1" 'BEGIN {printf "%.3f", x}'; }
# Equal JSON arrays of decimal strings (public.json of any prover against the expected one).
same_publics() {
    if [ "$verifier" = cuzk ]; then  # both tools write canonical decimal strings; compare without spacing
        [ "$(tr -d ' \t\r\n' <"$1")" = "$(tr -d ' \t\r\n' <"$2")" ]
        return
    fi
    node -e 'const fs=require("fs"); const n=f=>JSON.parse(fs.readFileSync(f)).map(x=>BigInt(x).toString());
             process.exit(JSON.stringify(n(process.argv[1]))===JSON.stringify(n(process.argv[2]))?0:1)' "$1" "$2" 2>/dev/null
}
snarkjs_ok() {  # vk public proof
    if [ "$verifier" = cuzk ]; then
        "$cuzk_verify" "$1" "$2" "$3" 2>&1 | grep -q "OK!"
        return
    fi
    node "$cli" groth16 verify "$1" "$2" "$3" 2>&1 | grep -q "OK!"
}

# One timed command: timed LOG CMD...; sets t_wall, t_cpu (user + sys of the command), t_other
# (CPU seconds the rest of the machine used meanwhile), t_rss (its peak resident set in kB, from
# GNU time's %M; "-" without GNU time), t_rc.
gnu_time=
if [ -x /usr/bin/time ] && /usr/bin/time -f %M true >/dev/null 2>&1; then gnu_time=/usr/bin/time; fi
timed() {
    local log=$1 tf
    shift
    tf=$(mktemp)
    local b0 b1 mf
    mf=$(mktemp)
    b0=$(busy_jiffies)
    if [ -n "$gnu_time" ]; then
        { TIMEFORMAT='%R %U %S'; time "$gnu_time" -o "$mf" -f '%M' "$@" >"$log" 2>&1; } 2>"$tf"
    else
        { TIMEFORMAT='%R %U %S'; time "$@" >"$log" 2>&1; } 2>"$tf"
    fi
    t_rc=$?
    b1=$(busy_jiffies)
    read -r t_wall u s <"$tf"
    # GNU time writes "Command exited with non-zero status N" first on a failure.
    t_rss=$(tail -1 "$mf" 2>/dev/null)
    [ -n "$t_rss" ] || t_rss=-
    rm -f "$tf" "$mf"
    t_cpu=$(awk -v u="$u" -v s="$s" 'BEGIN {printf "%.2f", u + s}')
    t_other=$(awk -v b0="$b0" -v b1="$b1" -v hz="$hz" -v c="$t_cpu" 'BEGIN {x = (b1 - b0) / hz - c; if (x < 0) x = 0; printf "%.2f", x}')
}

# One run of the stage copy (its [rs-stage] lines) as "stage ms" lines.
rs_stage_table() {
    awk '/^\[rs-stage\]/ {t = $2; $1 = $2 = $3 = ""; sub(/^ +/, ""); m[$0] = t}
         END {
             split("read|MSM A|MSM B1|MSM B2|MSM C|a, b, c|H step|MSM H|total (markers)", name, "|")
             split("main: start|Start Multiexp A|Start Multiexp B1|Start Multiexp B2|Start Multiexp C|Start Initializing a b c A|Initializing fft|Start Multiexp H|proof done", at, "|")
             for (i = 1; i <= 8; ++i) printf "%s\t%.1f\n", name[i], m[at[i + 1]] - m[at[i]]
             printf "%s\t%.1f\n", name[9], m["proof done"] - m["main: start"]
         }' "$1"
}

# ---- fixtures -------------------------------------------------------------------------------
# make_synthetic DIR K / make_mulchain DIR K: leave DIR/circuit.zkey, witness.wtns,
# verification_key.json, public.json and DIR/constraints; return non-zero on failure.
stamp_of() { (echo "$@"; sha256sum "$setup" | cut -d' ' -f1; sed -n '/^# ---- fixtures/,/^# ---- end of fixtures/p' "$0") | sha256sum | cut -d' ' -f1; }
make_synthetic() {
    local d=$1 k=$2
    "$setup" --curve bn128 --log-size "$k" --seed "$seed" "$d" >"$d/setup.log" 2>&1 || return 1
    sed -n 's/.*: \([0-9]*\) constraints.*/\1/p' "$d/setup.log" | head -1 >"$d/constraints"
}
make_mulchain() {
    local d=$1 k=$2 n=$(((1 << $2) - 3))
    mkdir -p "$d/src"
    # tests/interop/circuits/mul_chain.circom at size N: N constraints (circom's default -O1
    # folds t[0] <== x and out <== t[N]), public signals out and c, so N + 2 + 1 = 2^k rows.
    sed "s/MulChain(400)/MulChain($n)/" "$repo/tests/interop/circuits/mul_chain.circom" >"$d/src/mulchain.circom"
    grep -q "MulChain($n)" "$d/src/mulchain.circom" || { echo "mul_chain.circom has changed" >"$d/setup.log"; return 1; }
    echo '{"x": "5", "c": "7"}' >"$d/src/input.json"
    # The circom part (minutes at 2^18) is kept apart from the keys: a new cuzk-setup redoes
    # only the keys.
    local cst
    cst=$( (cat "$d/src/mulchain.circom" "$d/src/input.json"; echo "$circom_version $sj_version") | sha256sum | cut -d' ' -f1)
    if [ -f "$d/src/circom.stamp" ] && [ "$(cat "$d/src/circom.stamp")" = "$cst" ] && [ -s "$d/src/mulchain.r1cs" ] &&
        [ -s "$d/src/witness.wtns" ]; then
        echo "reusing $d/src/mulchain.r1cs and witness.wtns" >"$d/setup.log"
    else
        rm -f "$d/src/circom.stamp"
        # circom2 runs under WASI and sees only the current directory tree: compile from inside it.
        (cd "$d/src" && "$circom" mulchain.circom --r1cs --wasm --prime bn128 -o .) >"$d/setup.log" 2>&1 || return 1
        node "$cli" wtns calculate "$d/src/mulchain_js/mulchain.wasm" "$d/src/input.json" "$d/src/witness.wtns" >>"$d/setup.log" 2>&1 ||
            return 1
        rm -rf "$d/src/mulchain_js"
        echo "$cst" >"$d/src/circom.stamp"
    fi
    cp "$d/src/witness.wtns" "$d/witness.wtns"
    "$setup" --r1cs "$d/src/mulchain.r1cs" --wtns "$d/witness.wtns" --seed "$seed" "$d" >>"$d/setup.log" 2>&1 || return 1
    sed -n 's/.*: \([0-9]*\) constraints.*/\1/p' "$d/setup.log" | head -1 >"$d/constraints"
}
# ---- end of fixtures ------------------------------------------------------------------------

load_start=$(load)
{
    echo "# cuzk-prove (CPU) vs rapidsnark"
    echo
    echo "- date: $(date -u +%Y-%m-%d) ($(date -u +%H:%M) UTC)"
    echo "- host: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo) RAM"
    echo "- rapidsnark: $rapid${RAPIDSNARK_DESC:+ ($RAPIDSNARK_DESC)}"
    echo "- cuzk-prove: $prove --backend cpu; fixtures by $setup (INSECURE seeded keys, seed $seed)"
    if [ "$verifier" = cuzk ]; then
        echo "- cuzk-verify ($cuzk_verify) verifies every proof (VERIFIER=cuzk: no node here)"
    else
        echo "- snarkjs $sj_version on node $(node --version) verifies every proof; circom: $circom_version"
    fi
    echo "- command: scripts/rapidsnark-bench.sh OUT $2 $3 \"$sizes\" $reps"
    echo "- per fixture: one untimed warm-up each, then $reps rounds interleaved (rapidsnark, cuzk, rapidsnark, ...);"
    echo "  wall time of the whole command, median (min-max); \"others' CPU\": the most CPU seconds the rest of the"
    echo "  machine used during one timed run (/proc/stat); peak RSS: the largest maximum resident set of the timed runs"
    echo "  (GNU time's %M); load: /proc/loadavg before -> after the fixture"
    echo "- load average at the start: $load_start"
    echo
    echo "| fixture | constraints | domain | rapidsnark (s) | cuzk-prove CPU (s) | cuzk / rapidsnark | CPU s per run (rs / cuzk) | peak RSS MiB (rs / cuzk) | others' CPU (s) | load 1/5/15 before -> after | proofs verified |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|"
} >"$md"
printf 'fixture\tk\ttool\trun\twall_s\tcpu_s\tpeak_rss_kb\tothers_cpu_s\tverified\n' >"$runs"

for k in $sizes; do
    for fx in $fixtures; do
        case "$fx" in
            synthetic) ;;
            mulchain)
                if [ $have_circom = 0 ]; then
                    echo "rapidsnark-bench: no circom ($circom): skipping the mulchain fixture" >&2
                    echo "| mulchain 2^$k | - | 2^$k | skipped: no circom here | | | | | | | |" >>"$md"
                    continue
                fi ;;
            *) echo "rapidsnark-bench: unknown fixture '$fx'" >&2; exit 2 ;;
        esac
        d=$out/${fx}_$k
        mkdir -p "$d"
        st=$(stamp_of "$fx" "$k" "$seed" "$circom_version")
        if [ -f "$d/stamp" ] && [ "$(cat "$d/stamp")" = "$st" ] && [ -s "$d/circuit.zkey" ]; then
            echo "== $fx 2^$k: reusing the fixture in $d" >&2
        else
            echo "== $fx 2^$k: making the fixture (load $(load))" >&2
            rm -f "$d/stamp"
            t0=$SECONDS
            if ! "make_$fx" "$d" "$k"; then
                echo "rapidsnark-bench: making $fx 2^$k failed: $(tail -3 "$d/setup.log")" >&2
                echo "| $fx 2^$k | fixture FAILED (see ${fx}_$k/setup.log) | | | | | | | | | |" >>"$md"
                failed=1
                continue
            fi
            echo "   fixture made in $((SECONDS - t0)) s" >&2
            echo "$st" >"$d/stamp"
        fi
        constraints=$(cat "$d/constraints" 2>/dev/null)
        l0=$(load)
        echo "== $fx 2^$k: $constraints constraints (load $l0)" >&2

        rs_w="" cz_w="" rs_c="" cz_c="" rs_m="" cz_m="" others="" verified=0 total=0
        for r in $(seq 0 "$reps"); do  # run 0 is the warm-up
            for tool in rapidsnark cuzk; do
                p=$d/${tool}_proof_$r.json
                pub=$d/${tool}_public_$r.json
                if [ $tool = rapidsnark ]; then
                    timed "$d/${tool}_$r.log" "$rapid" "$d/circuit.zkey" "$d/witness.wtns" "$p" "$pub"
                else
                    timed "$d/${tool}_$r.log" "$prove" "$d/circuit.zkey" "$d/witness.wtns" "$p" "$pub" --backend cpu --stages
                fi
                total=$((total + 1))
                ok=0
                if [ "$t_rc" -ne 0 ]; then
                    echo "rapidsnark-bench: $tool failed ($fx 2^$k run $r, exit $t_rc): $(tail -2 "$d/${tool}_$r.log")" >&2
                elif ! same_publics "$pub" "$d/public.json"; then
                    echo "rapidsnark-bench: $tool's public signals differ from the expected ones ($fx 2^$k run $r)" >&2
                elif ! snarkjs_ok "$d/verification_key.json" "$pub" "$p"; then
                    echo "rapidsnark-bench: snarkjs rejects $tool's proof ($fx 2^$k run $r)" >&2
                else
                    ok=1
                    verified=$((verified + 1))
                fi
                [ $ok = 1 ] || failed=1
                printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$fx" "$k" "$tool" "$r" "$t_wall" "$t_cpu" "$t_rss" "$t_other" "$ok" >>"$runs"
                tag=$([ "$r" = 0 ] && echo "warm-up" || echo "run $r")
                echo "   $tool $tag: $t_wall s wall, $t_cpu s CPU, peak RSS $t_rss kB, others $t_other s$([ $ok = 1 ] || echo ", FAILED")" >&2
                [ "$r" = 0 ] && continue
                [ $ok = 1 ] || continue  # medians over the runs that worked
                if [ $tool = rapidsnark ]; then rs_w="$rs_w $t_wall"; rs_c="$rs_c $t_cpu"; rs_m="$rs_m $t_rss"
                else cz_w="$cz_w $t_wall"; cz_c="$cz_c $t_cpu"; cz_m="$cz_m $t_rss"; fi
                others="$others $t_other"
            done
        done
        l1=$(load)
        rs_med=$(echo "$rs_w" | median)
        cz_med=$(echo "$cz_w" | median)
        ratio=$(awk -v a="$rs_med" -v b="$cz_med" 'BEGIN {if (a == "-" || b == "-" || a <= 0 || b <= 0) print "-";
                else if (b >= a) printf "%.2fx slower", b / a; else printf "%.2fx faster", a / b}')
        echo "| $fx 2^$k | $constraints | 2^$k | $(fmt3 "$rs_med") ($(echo "$rs_w" | range)) | $(fmt3 "$cz_med") ($(echo "$cz_w" | range)) | $ratio | $(echo "$rs_c" | median) / $(echo "$cz_c" | median) | $(mib "$(echo "$rs_m" | maxof)") / $(mib "$(echo "$cz_m" | maxof)") | $(echo "$others" | maxof) | $l0 -> $l1 | $verified/$total |" >>"$md"
        echo "   rapidsnark $(fmt3 "$rs_med") s, cuzk $(fmt3 "$cz_med") s: cuzk $ratio (load $l0 -> $l1)" >&2
        # Keep cuzk's per-stage table of its last timed run.
        [ -f "$d/cuzk_$reps.log" ] && cp "$d/cuzk_$reps.log" "$d/cuzk_stages.txt"
        if [ -n "${RAPIDSNARK_STAGES:-}" ]; then
            rm -f "$d/rapidsnark_stages.txt"
            for r in $(seq 1 "${STAGE_RUNS:-3}"); do
                if "$RAPIDSNARK_STAGES" "$d/circuit.zkey" "$d/witness.wtns" "$d/rs_stage_proof.json" "$d/rs_stage_public.json" \
                    >"$d/rs_stage_$r.log" 2>&1; then
                    rs_stage_table "$d/rs_stage_$r.log" >>"$d/rapidsnark_stages.txt"
                else
                    echo "rapidsnark-bench: the stage copy failed ($fx 2^$k): $(tail -2 "$d/rs_stage_$r.log")" >&2
                    failed=1
                fi
            done
        fi
    done
done

{
    echo
    echo "- load average at the end: $(load)"
    echo
    echo "## Every run (s; run 0 is the warm-up; wall / user+sys / others' CPU)"
    echo
    echo '```'
    column -t -s "$(printf '\t')" "$runs" 2>/dev/null || cat "$runs"
    echo '```'
    echo
    if [ -n "${RAPIDSNARK_STAGES:-}" ]; then
        echo "## rapidsnark per-stage times (the stage copy $RAPIDSNARK_STAGES, ${STAGE_RUNS:-3} runs after the timed rounds; median ms)"
        echo
        printf '| stage |'
        for k in $sizes; do for fx in $fixtures; do [ -f "$out/${fx}_$k/rapidsnark_stages.txt" ] && printf ' %s 2^%s |' "$fx" "$k"; done; done
        echo
        printf '|---|'
        for k in $sizes; do for fx in $fixtures; do [ -f "$out/${fx}_$k/rapidsnark_stages.txt" ] && printf -- '---|'; done; done
        echo
        for st in "read" "MSM A" "MSM B1" "MSM B2" "MSM C" "a, b, c" "H step" "MSM H" "total (markers)"; do
            printf '| %s |' "$st"
            for k in $sizes; do
                for fx in $fixtures; do
                    f=$out/${fx}_$k/rapidsnark_stages.txt
                    [ -f "$f" ] || continue
                    printf ' %s |' "$(awk -F '\t' -v s="$st" '$1 == s {print $2}' "$f" | median)"
                done
            done
            echo
        done
        echo
    fi
    echo "## cuzk-prove per-stage times (its last timed run of each fixture, ms)"
    for k in $sizes; do
        for fx in $fixtures; do
            f=$out/${fx}_$k/cuzk_stages.txt
            [ -f "$f" ] || continue
            echo
            echo "$fx 2^$k:"
            echo '```'
            cat "$f"
            echo '```'
        done
    done
} >>"$md"
cat "$md"
[ $failed = 0 ] || echo "rapidsnark-bench: FAILED (a command failed or a proof did not verify; see above)" >&2
exit $failed
