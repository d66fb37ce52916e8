#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Runs every GPU test (and the C API's threads test on the GPU backend) and every benchmark and
# writes logs plus a short summary to OUTDIR.
#
#   scripts/gpu-suite.sh OUTDIR [BUILD_DIR]
#
# Without BUILD_DIR it configures and builds (Release, CUDA arch 90, Ninja) into a fresh
# directory ($CUZK_GPU_BUILD_DIR, default build-gpu-suite in the repository) first, building
# only what it runs: every tests/test_*.cu and every benchmarks/bench_*. New tests and
# benchmarks are picked up by name, nothing to register here.
#
# Then, in OUTDIR:
#   <test>.log, <test>.xml         each GPU test's output and gtest XML
#   <bench>.log, <bench>.json      each benchmark's output and Google Benchmark JSON
#   gpu.txt                        nvidia-smi's view of the device
#   summary.txt                    pass/fail per test and the key numbers per benchmark
#
# Environment:
#   CUZK_BENCHMARK_LIB   a folder holding shared libraries the binaries need (e.g. a carried
#                        libbenchmark); BUILD_DIR/lib is used too when it exists
#   CUZK_BENCH_FILTER    --benchmark_filter regex for every benchmark (default: all)
#   CUZK_BENCH_ARGS      extra arguments for every benchmark binary
#   CUZK_SUITE_ONLY      extended regex: only build and run tests/benchmarks whose name matches
#   CUZK_SUITE_TIMEOUT   seconds allowed per binary (default 900)
#   CUZK_SKIP_BENCH=1    run the tests only;  CUZK_SKIP_TESTS=1  the benchmarks only
#   CUZK_COMMIT          the commit to name in the summary when the tree has no .git
#   CUZK_SUITE_CMAKE_ARGS  extra configure arguments, e.g. -DCUZK_USE_INSTANCES=OFF (header-only
#                        build) or -DGMP_INCLUDE_DIR=... -DGMP_LIBRARY=... (a carried GMP)
#   CUZK_SUITE_SANITIZER memcheck, racecheck or synccheck, a comma-separated list of them, or
#                        all (the three): every GPU test runs under `compute-sanitizer --tool T
#                        --error-exitcode 1` once per tool instead of plainly (logs <test>.<tool>.log
#                        and .xml; the summary gives each run's verdict and sanitizer error count).
#                        Benchmarks are neither built nor run; a build made here compiles device
#                        code with -lineinfo (source lines in the reports); the per-binary timeout
#                        defaults to 3600 s (a sanitizer slows kernels 10-100x)
#   CUZK_RACECHECK_FAULT_STRIDE  under racecheck test_gpu_faults fails every Nth fault point and the
#                        last (default 8; 1 for all: ~30 min under racecheck; tests/test_gpu_faults.cu)
#   CUZK_SANITIZER       the compute-sanitizer to use (default: PATH, then $CUDA_HOME/bin and
#                        /usr/local/cuda/bin)
#   CUZK_SANITIZER_ARGS  extra compute-sanitizer arguments for every run (e.g. --leak-check full)
#   CUZK_SANITIZER_FILTER  --gtest_filter for sanitizer runs (default -*Soak*:*soak*:*AnUnknownDeviceIsAClearError*:
#                        thousands of proofs would take days under a sanitizer, and
#                        AnUnknownDeviceIsAClearError makes the invalid-device API error that memcheck
#                        counts on purpose; empty runs every case)
# A build it makes also leaves build-times.txt in OUTDIR: seconds per compiled file (.ninja_log).
# Exit status: non-zero when a test (or a sanitizer run) failed or a target did not build (the
# rest still run); 2 for bad arguments or a requested sanitizer that cannot be found.
set -uo pipefail

if [[ $# -lt 1 ]]; then
    echo "usage: $0 OUTDIR [BUILD_DIR]" >&2
    exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
build_failed=()
selected() { [[ -z ${CUZK_SUITE_ONLY:-} ]] || [[ $1 =~ $CUZK_SUITE_ONLY ]]; }

# ---- sanitizer runs (CUZK_SUITE_SANITIZER) ------------------------------------------------------
san_tools=()
san_args=()
san_filter=""
sanitizer=""
if [[ -n ${CUZK_SUITE_SANITIZER:-} ]]; then
    requested=${CUZK_SUITE_SANITIZER//,/ }
    [[ $requested == all ]] && requested="memcheck racecheck synccheck"
    for tool in $requested; do
        case $tool in
            memcheck | racecheck | synccheck) san_tools+=("$tool") ;;
            *)
                echo "gpu-suite: CUZK_SUITE_SANITIZER: unknown tool '$tool' (memcheck, racecheck, synccheck or all)" >&2
                exit 2
                ;;
        esac
    done
    if [[ -n ${CUZK_SANITIZER:-} ]]; then
        sanitizer=$CUZK_SANITIZER
    elif command -v compute-sanitizer >/dev/null; then
        sanitizer=$(command -v compute-sanitizer)
    else
        for dir in ${CUDA_HOME:+"$CUDA_HOME/bin"} /usr/local/cuda/bin; do
            [[ -x $dir/compute-sanitizer ]] && sanitizer=$dir/compute-sanitizer && break
        done
    fi
    if [[ -z $sanitizer || ! -x $sanitizer ]]; then
        echo "gpu-suite: CUZK_SUITE_SANITIZER=${CUZK_SUITE_SANITIZER} but no compute-sanitizer found (set CUZK_SANITIZER)" >&2
        exit 2
    fi
    read -r -a san_args <<<"${CUZK_SANITIZER_ARGS:-}"
    san_filter=${CUZK_SANITIZER_FILTER--*Soak*:*soak*:*AnUnknownDeviceIsAClearError*}
fi
skip_bench=${CUZK_SKIP_BENCH:-0}
((${#san_tools[@]})) && skip_bench=1  # timings under a sanitizer mean nothing
timeout_s=${CUZK_SUITE_TIMEOUT:-$( ((${#san_tools[@]})) && echo 3600 || echo 900)}

# ---- build (unless given) -------------------------------------------------------------------
if [[ $# -ge 2 ]]; then
    build=$(cd "$2" && pwd)
else
    build=${CUZK_GPU_BUILD_DIR:-$root/build-gpu-suite}
    rm -rf "$build"
    targets=()
    sources=()
    # test_c_api_threads is a host test that also runs here, on the GPU backend (below).
    [[ ${CUZK_SKIP_TESTS:-0} != 1 ]] && sources+=("$root"/tests/test_*.cu "$root"/tests/test_c_api_threads.cpp)
    [[ $skip_bench != 1 ]] && sources+=("$root"/benchmarks/bench_*.cu "$root"/benchmarks/bench_*.cpp)
    for src in "${sources[@]}"; do
        [[ -e $src ]] || continue
        t=$(basename "${src%.*}")
        selected "$t" && targets+=("$t")
    done
    echo "gpu-suite: building ${targets[*]} in $build"
    lineinfo=()
    ((${#san_tools[@]})) && lineinfo=(-DCMAKE_CUDA_FLAGS=-lineinfo)  # before CUZK_SUITE_CMAKE_ARGS: those win
    # shellcheck disable=SC2086
    if ! cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
        -DCUZK_CUDA=ON "${lineinfo[@]}" ${CUZK_SUITE_CMAKE_ARGS:-} >"$out/build.log" 2>&1; then
        echo "gpu-suite: configure failed, see $out/build.log" | tee "$out/summary.txt"
        tail -30 "$out/build.log"
        exit 1
    fi
    # Keep going past a target that does not compile (someone's work in progress): the
    # others still run, and the summary names what did not build.
    build_start=$(date +%s)
    cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" -- -k 0 >>"$out/build.log" 2>&1
    echo "wall $(($(date +%s) - build_start)) s for the build, -j $(nproc)" >"$out/build-times.txt"
    # .ninja_log: start and end (ms) per output; the slowest compiles first.
    awk -F'\t' 'NR > 1 { printf "%8.1f s  %s\n", ($2 - $1) / 1000, $4 }' "$build/.ninja_log" | sort -rn >>"$out/build-times.txt"
    for t in "${targets[@]}"; do
        [[ -x $build/tests/$t || -x $build/benchmarks/$t ]] || build_failed+=("$t")
    done
fi

# ---- libraries a carried build may need ----------------------------------------------------------
libdirs=()
[[ -n ${CUZK_BENCHMARK_LIB:-} ]] && libdirs+=("$CUZK_BENCHMARK_LIB")
[[ -d $build/lib ]] && libdirs+=("$build/lib")
if ((${#libdirs[@]})); then
    joined=$(IFS=:; echo "${libdirs[*]}")
    export LD_LIBRARY_PATH="$joined${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi

summary="$out/summary.txt"
{
    echo "cuzk gpu-suite, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo "${CUZK_COMMIT:-unknown}")"
    echo "build: $build"
    if ((${#san_tools[@]})); then
        echo "sanitizer: $("$sanitizer" --version 2>/dev/null | tail -1), tools ${san_tools[*]}, --error-exitcode 1${san_args[*]:+ ${san_args[*]}}, gtest filter '${san_filter}', timeout ${timeout_s} s; benchmarks skipped"
    fi
} >"$summary"
if command -v nvidia-smi >/dev/null; then
    nvidia-smi >"$out/gpu.txt" 2>&1
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader 2>/dev/null |
        sed 's/^/gpu: /' >>"$summary"
else
    echo "gpu: nvidia-smi not found" >>"$summary"
fi

is_exe() { [[ -f $1 && -x $1 ]]; }
failed=0
declare -A verdicts=([PASS]=0 [FAIL]=0 [SKIPPED]=0)
if ((${#build_failed[@]})); then
    failed=1
    for t in "${build_failed[@]}"; do
        printf '%-8s %-40s (see build.log)\n' "NOBUILD" "$t" >>"$summary"
    done
fi

# ---- GPU tests: test_* executables built from tests/*.cu (ctest label gpu) ---------------------
# One run per test plainly, or one per test and sanitizer tool (CUZK_SUITE_SANITIZER).
runs=("")
((${#san_tools[@]})) && runs=("${san_tools[@]}")
san_failed=0
if [[ ${CUZK_SKIP_TESTS:-0} != 1 ]]; then
    echo "== tests${san_tools[*]:+ under compute-sanitizer (${san_tools[*]})}" >>"$summary"
    for exe in "$build"/tests/test_*; do
        is_exe "$exe" || continue
        name=$(basename "$exe")
        gpu_args=()
        gpu_env=()
        if [[ $name == test_c_api_threads ]]; then
            # The C API's threaded tests on the GPU backend (one handle, its kept workers; the rest
            # of the file runs in CI).
            gpu_env=(CUZK_TEST_C_API_BACKEND=gpu)
            gpu_args=(--gtest_filter='*ThreadsOnOneHandle*:*KeptWorkers*')
        elif [[ ! -e $root/tests/$name.cu ]]; then
            continue  # host tests run in CI, not here
        fi
        selected "$name" || continue
        for tool in "${runs[@]}"; do
            tag=$name${tool:+.$tool}
            cmd=(env "${gpu_env[@]}")
            # under a sanitizer the slowest cases prove fewer times on smaller circuits (tests/gpu_test.hpp)
            [[ -n $tool ]] && cmd+=(CUZK_TEST_UNDER_SANITIZER=1)
            # racecheck: test_gpu_faults fails every 8th fault point (~1.5 s each under it), not each
            [[ $tool == racecheck ]] && cmd+=(CUZK_FAULT_STRIDE="${CUZK_RACECHECK_FAULT_STRIDE:-8}")
            # the whole process group: timeout(1) can leave a sanitizer's target running on the GPU
            cmd+=("$root/scripts/with-time-limit.sh" "$timeout_s")
            if [[ -n $tool ]]; then
                cmd+=("$sanitizer" --tool "$tool" --error-exitcode 1 "${san_args[@]}")
            fi
            cmd+=("$exe" --gtest_output="xml:$out/$tag.xml" "${gpu_args[@]}")
            [[ -n $tool && -n $san_filter && ${#gpu_args[@]} == 0 ]] && cmd+=(--gtest_filter="$san_filter")
            start=$(date +%s)
            "${cmd[@]}" >"$out/$tag.log" 2>&1
            rc=$?
            secs=$(($(date +%s) - start))
            passed=$(grep -o '\[  PASSED  \] [0-9]* test' "$out/$tag.log" | grep -o '[0-9]*' | tail -1)
            skipped=$(grep -o '\[  SKIPPED \] [0-9]* test' "$out/$tag.log" | grep -o '[0-9]*' | tail -1)
            errors=""
            if [[ -n $tool ]]; then
                # compute-sanitizer ends with "========= ERROR SUMMARY: N errors" (racecheck: "RACECHECK
                # SUMMARY: N hazards displayed (E errors, W warnings)", hazards counted); none means it
                # did not finish.
                if [[ $tool == racecheck ]]; then
                    errors=$(grep -o 'RACECHECK SUMMARY: [0-9]* hazard' "$out/$tag.log" | grep -o '[0-9]*' | tail -1)
                else
                    errors=$(grep -o 'ERROR SUMMARY: [0-9]* error' "$out/$tag.log" | grep -o '[0-9]*' | tail -1)
                fi
            fi
            if [[ $rc -ne 0 || (-n $tool && -z $errors) ]]; then
                verdict=FAIL
                failed=1
                [[ -n $tool ]] && san_failed=$((san_failed + 1))
            elif [[ -n $skipped && ${passed:-0} == 0 ]]; then
                verdict=SKIPPED
            else
                verdict=PASS
            fi
            verdicts[$verdict]=$((verdicts[$verdict] + 1))
            printf '%-8s %-40s passed=%s skipped=%s rc=%s %s%ss\n' "$verdict" "$name${tool:+ [$tool]}" "${passed:-0}" \
                "${skipped:-0}" "$rc" "${tool:+sanitizer_errors=${errors:-none} }" "$secs" >>"$summary"
            grep -E '^\[  FAILED  \] [A-Za-z]' "$out/$tag.log" | sort -u | sed 's/^/         /' >>"$summary"
            if [[ -n $tool && ${errors:-0} != 0 ]]; then
                # The first reports, for the summary; the log has them all.
                grep -E '^========= (Invalid|Error|Race|Barrier|Program hit|Leaked|Uninitialized|Saved host backtrace|ERROR|Warning)' \
                    "$out/$tag.log" | head -5 | sed 's/^/         /' >>"$summary"
            fi
        done
    done
fi

# ---- benchmarks: every bench_* executable --------------------------------------------------------
if [[ $skip_bench != 1 ]]; then
    echo "== benchmarks" >>"$summary"
    for exe in "$build"/benchmarks/bench_*; do
        is_exe "$exe" || continue
        name=$(basename "$exe")
        selected "$name" || continue
        args=(--benchmark_out="$out/$name.json" --benchmark_out_format=json)
        [[ -n ${CUZK_BENCH_FILTER:-} ]] && args+=(--benchmark_filter="$CUZK_BENCH_FILTER")
        # shellcheck disable=SC2206
        [[ -n ${CUZK_BENCH_ARGS:-} ]] && args+=($CUZK_BENCH_ARGS)
        start=$(date +%s)
        "$root/scripts/with-time-limit.sh" "$timeout_s" "$exe" "${args[@]}" >"$out/$name.log" 2>&1
        rc=$?
        secs=$(($(date +%s) - start))
        printf '%-8s %-40s rc=%s %ss\n' "$([[ $rc -eq 0 ]] && echo ran || echo FAIL)" "$name" "$rc" "$secs" >>"$summary"
        [[ $rc -ne 0 ]] && tail -5 "$out/$name.log" | sed 's/^/         /' >>"$summary"
        # Key numbers: each benchmark's time, items/s and custom counters (from the JSON).
        if [[ -s $out/$name.json ]] && command -v python3 >/dev/null; then
            python3 - "$out/$name.json" >>"$summary" <<'EOF'
import json, sys
skip = {"name", "run_name", "run_type", "repetitions", "repetition_index", "threads", "iterations",
        "family_index", "per_family_instance_index", "aggregate_name", "aggregate_unit", "time_unit",
        "real_time", "cpu_time", "error_occurred", "error_message", "label"}
data = json.load(open(sys.argv[1]))
for b in data.get("benchmarks", []):
    if b.get("error_occurred"):
        print(f"         {b['name']}: ERROR {b.get('error_message', '')}")
        continue
    parts = [f"{b['real_time']:.4g} {b.get('time_unit', '')}"]
    for k, v in b.items():
        if k not in skip and isinstance(v, (int, float)):
            parts.append(f"{k}={v:.4g}")
    print(f"         {b['name']}: " + " ".join(parts))
EOF
        fi
    done
fi

if ((${#san_tools[@]})); then
    echo "== GPU test runs under compute-sanitizer (${san_tools[*]}): ${verdicts[PASS]} passed, ${verdicts[SKIPPED]} skipped (no GPU?), ${verdicts[FAIL]} failed (${san_failed}), ${#build_failed[@]} did not build" >>"$summary"
else
    echo "== GPU test binaries: ${verdicts[PASS]} passed, ${verdicts[SKIPPED]} skipped (no GPU?), ${verdicts[FAIL]} failed, ${#build_failed[@]} did not build" >>"$summary"
fi
cat "$summary"
exit "$failed"
