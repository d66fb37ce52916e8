#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# compute-sanitizer over GPU test cases, one process per case and tool, many at once: a slow case
# then holds up only itself, and a time limit cuts one case, not the rest of its binary
# (scripts/gpu-suite.sh's CUZK_SUITE_SANITIZER runs whole binaries instead).
#
#   scripts/sanitizer-cases.sh BUILD_DIR OUTDIR [JOBS] [TIMEOUT_S]
#     JOBS: processes at once (default 24: the sanitizers keep the host busier than the GPU);
#     TIMEOUT_S: per case (default 500)
#
# Cases: every case of every tests/test_*.cu binary in BUILD_DIR/tests except test_soak_gpu and
# test_gpu_faults, plus test_c_api_threads on the GPU backend (CUZK_TEST_C_API_BACKEND=gpu), under
# each tool of CUZK_SANITIZER_TOOLS (default "memcheck racecheck synccheck"). Environment:
#   CUZK_SANITIZER_BINARIES  extended regex: only these binaries (default: all)
#   CUZK_SANITIZER_CASES     --gtest_filter used to list the cases (default
#                            -*AnUnknownDeviceIsAClearError*: it makes an invalid-device error on purpose)
# Then test_gpu_faults runs alone under each tool (it asserts cudaMemGetInfo levels, so nothing
# else may use the GPU meanwhile), unless CUZK_SANITIZER_BINARIES leaves it out.
#
# Every case runs with CUZK_TEST_UNDER_SANITIZER=1: the slowest cases then prove fewer times on
# smaller circuits (tests/gpu_test.hpp's sanitized()).
# Under racecheck test_gpu_faults fails every 8th fault point and the last (CUZK_FAULT_STRIDE; set
# CUZK_RACECHECK_FAULT_STRIDE=1 for all): racecheck checks the kernels, the same in every proof, and
# each point costs ~1.5 s under it.
# Writes OUTDIR/<tool>.<binary>.<case>.log and OUTDIR/summary.txt: one line per case with its exit
# status, the tool's error (racecheck: hazard) count and seconds; 124 means the time limit cut it.
# Exit status 1 if any case failed or reported an error, 0 otherwise (cut cases included in 1).
set -uo pipefail
[[ $# -ge 2 ]] || { echo "usage: $0 BUILD_DIR OUTDIR [JOBS] [TIMEOUT_S]" >&2; exit 2; }
tests=$(cd "$1/tests" && pwd) || exit 2
mkdir -p "$2"
out=$(cd "$2" && pwd)
jobs=${3:-24}
limit=${4:-500}
tools=${CUZK_SANITIZER_TOOLS:-memcheck racecheck synccheck}
only=${CUZK_SANITIZER_BINARIES:-.}
filter=${CUZK_SANITIZER_CASES:--*AnUnknownDeviceIsAClearError*}
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
[[ -x $sanitizer ]] || { echo "$0: compute-sanitizer not found" >&2; exit 2; }
summary=$out/summary.txt
: >"$summary"

list_cases() {  # binary: its cases as Suite.Case, one a line
    CUZK_TEST_C_API_BACKEND=gpu "$tests/$1" --gtest_filter="$filter" --gtest_list_tests |
        awk '/^[^ ]/ {s = $1} /^  / {print s $1}'
}
binaries=()
for src in "$(dirname "$0")"/../tests/test_*.cu; do
    b=$(basename "$src" .cu)
    [[ $b == test_soak_gpu || $b == test_gpu_faults ]] && continue
    [[ -x $tests/$b && $b =~ $only ]] && binaries+=("$b")
done
[[ -x $tests/test_c_api_threads && test_c_api_threads =~ $only ]] && binaries+=(test_c_api_threads)

cases=$out/cases.txt
: >"$cases"
for tool in $tools; do
    for b in "${binaries[@]}"; do
        # test_c_api_threads: only the cases that prove on the GPU backend
        f=$filter
        [[ $b == test_c_api_threads ]] && f='*KeptWorkers*:*ThreadsOnOneHandle*'
        filter=$f list_cases "$b" | sed "s|^|$tool $b |"
    done
done >>"$cases"
echo "== $(wc -l <"$cases") cases, $jobs at once, ${limit} s each; $("$sanitizer" --version | tail -1)" >>"$summary"

run_case() {  # tool binary case
    local log=$out/$1.$2.${3//[\/*]/_}.log t0=$SECONDS rc errors stride=1
    [[ $1 == racecheck ]] && stride=$racecheck_fault_stride
    # with-time-limit.sh, not timeout(1): a cut case's target must not stay on the GPU
    CUZK_TEST_C_API_BACKEND=gpu CUZK_TEST_UNDER_SANITIZER=1 CUZK_FAULT_STRIDE=$stride "$limiter" "$limit" "$sanitizer" --tool "$1" --error-exitcode 1 \
        "$tests/$2" --gtest_filter="$3" >"$log" 2>&1
    rc=$?
    errors=$(grep -o -E '(ERROR|RACECHECK) SUMMARY: [0-9]+' "$log" | grep -o '[0-9]*$' | tail -1)
    printf '%s %s %s rc=%s errors=%s %ss\n' "$1" "$2" "$3" "$rc" "${errors:-none}" "$((SECONDS - t0))" >>"$summary"
}
export -f run_case
limiter=$(cd "$(dirname "$0")" && pwd)/with-time-limit.sh
racecheck_fault_stride=${CUZK_RACECHECK_FAULT_STRIDE:-8}
export out tests limit sanitizer summary limiter racecheck_fault_stride
# shellcheck disable=SC2016  # expanded by the inner bash
xargs -r -P "$jobs" -L 1 bash -c 'run_case "$0" "$1" "$2"' <"$cases"

if [[ -x $tests/test_gpu_faults && test_gpu_faults =~ $only ]]; then
    for tool in $tools; do run_case "$tool" test_gpu_faults '*'; done
fi
bad=$(grep -c -v -E 'rc=0 errors=0 |^==' "$summary")
echo "== $(grep -c -E 'rc=0 errors=0 ' "$summary") passed with 0 errors, $bad failed, cut or reported errors" >>"$summary"
cat "$summary"
[[ $bad -eq 0 ]]
