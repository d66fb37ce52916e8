#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# scripts/with-time-limit.sh: a command that ends in time keeps its exit status; at the limit the
# status is 124 and no process of the command's group survives, not even a grandchild that
# ignores TERM (the shape of compute-sanitizer's target, which timeout(1) left on the GPU).
#   with_time_limit_test.sh SCRIPTS_DIR
set -uo pipefail
[ $# -eq 1 ] || { echo "usage: $0 SCRIPTS_DIR" >&2; exit 2; }
limit=$1/with-time-limit.sh
fail() { echo "with_time_limit_test: FAILED: $*" >&2; exit 1; }
tag=cuzk-time-limit-$$

"$limit" 10 bash -c 'exit 7'
[ $? -eq 7 ] || fail "the command's own exit status is not kept"

start=$SECONDS
# parent exits on TERM; its child ignores TERM and would run for 60 s
"$limit" 1 bash -c "bash -c \"trap '' TERM; exec -a $tag sleep 60\" & wait"
rc=$?
[ $rc -eq 124 ] || fail "exit status $rc at the limit, expected 124"
[ $((SECONDS - start)) -lt 30 ] || fail "took $((SECONDS - start)) s for a 1 s limit"
sleep 0.5
if pgrep -f "^$tag" >/dev/null; then
    pkill -KILL -f "^$tag"
    fail "a grandchild that ignores TERM outlived the limit"
fi
echo "with_time_limit_test: passed"
