#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Runs a command in a process group of its own with a time limit on the whole group.
#
#   scripts/with-time-limit.sh SECONDS COMMAND [ARGS...]
#
# At the limit TERM, then 20 s later KILL, go to every process of the group, and the exit status is
# 124 (as timeout(1)'s); otherwise the command's own. Why not timeout(1): it stops a
# compute-sanitizer at its limit but can leave the sanitizer's target (a 2^26 NTT test, seen once)
# running on the GPU, whose memory then fails test_gpu_faults' device-wide cudaMemGetInfo check.
set -u
[[ $# -ge 2 ]] || { echo "usage: $0 SECONDS COMMAND [ARGS...]" >&2; exit 2; }
limit=$1
shift
cut=$(mktemp)
rm -f "$cut"
set -m  # background jobs get process groups of their own
"$@" &
pid=$!
{ sleep "$limit"; : >"$cut"; kill -TERM -- "-$pid"; sleep 20; kill -KILL -- "-$pid"; } 2>/dev/null &
watchdog=$!
set +m
trap 'kill -TERM -- "-$pid" "-$watchdog" 2>/dev/null; exit 143' TERM INT
wait "$pid"
rc=$?
kill -- "-$watchdog" 2>/dev/null
if [[ -e $cut ]]; then
    rm -f "$cut"
    kill -KILL -- "-$pid" 2>/dev/null  # the group can outlive its leader (a child ignoring TERM)
    exit 124
fi
exit "$rc"
