#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# scripts/check-tree.py must flag each kind of violation in a small bad sample and pass a clean one.
#   tree_hygiene_test.sh PYTHON REPO
set -euo pipefail
python=$1 repo=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
h=home
printf '// fixed in issue 12\nint a = 1;  // see (#7)\n/* measured 2026-12-04 */\nconst char* p = "/%s/me/x";\n' "$h" > bad.cpp
printf '#!/usr/bin/env bash\n# issue 3 asks for it\necho "#5 is a string"\n' > bad.sh
printf 'int c = 1;\n' > unlicensed.cpp
printf '// SPDX-License-Identifier: MIT OR Apache-2.0\nint b = 1;  // snarkjs#479: a peer issue, allowed\nconst char* t = "/tmp/x.XXXXXX";\n' > good.cpp
out=$("$python" "$repo/scripts/check-tree.py" --files bad.cpp bad.sh unlicensed.cpp || true)
for want in "unlicensed.cpp:1: no licence line" "bad.cpp:1: an issue" "bad.cpp:2: an issue" "bad.cpp:3: a date" "bad.cpp:4: an absolute machine path" "bad.sh:2: an issue"; do
  case $out in *"$want"*) ;; *) echo "tree_hygiene_test: missed '$want' in: $out"; exit 1 ;; esac
done
case $out in *"bad.sh:3"*) echo "tree_hygiene_test: flagged a string as a comment: $out"; exit 1 ;; esac
"$python" "$repo/scripts/check-tree.py" --files good.cpp >/dev/null || { echo "tree_hygiene_test: a clean file failed"; exit 1; }
echo "tree_hygiene_test: every violation found, the clean sample passes"
