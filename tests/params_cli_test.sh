#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# cuzk-prove --porep --write-params writes a PoRep-shaped partition's INSECURE test key as a
# bellperson .params file (after proving and verifying with it); cuzk-params validates the file and
# reports it density-compressed; --write-params without --porep is a usage error.
#   params_cli_test.sh CUZK_PROVE CUZK_PARAMS
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 CUZK_PROVE CUZK_PARAMS" >&2; exit 2; }
prove=$1
params=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "params_cli_test: FAILED: $*" >&2; exit 1; }

"$prove" --porep --log-size 10 --backend cpu --write-params "$work/porep.params" >"$work/prove.log" 2>&1 ||
  fail "cuzk-prove exited $?: $(cat "$work/prove.log")"
grep -q "all proofs verified" "$work/prove.log" || fail "the proof did not verify: $(cat "$work/prove.log")"
[ -s "$work/porep.params" ] || fail "no .params file written"
"$params" "$work/porep.params" >"$work/params.log" 2>&1 || fail "cuzk-params rejects the file: $(cat "$work/params.log")"
grep -q "density-compressed" "$work/params.log" || fail "the file is not density-compressed: $(cat "$work/params.log")"
grep -q "^domain    1024" "$work/params.log" || fail "wrong domain: $(cat "$work/params.log")"
rc=0
"$prove" --log-size 10 --write-params "$work/x.params" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "--write-params without --porep: expected status 2, got $rc"
[ ! -e "$work/x.params" ] || fail "a usage error wrote a file"
echo "params_cli_test: ok"
