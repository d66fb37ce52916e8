#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The Node package as users get it:
#   package_test.sh REPO_ROOT PREBUILDS_DIR WORK_DIR
# stages the package (bindings/node's published files, the licences and the built prebuilds/),
# runs `npm pack`, checks the tarball's list (the addon and the library in, no fixtures, sources or
# build trees), then installs it offline in a clean folder with a PATH that holds node and npm and
# no compiler, and proves there through require and through import; snarkjs's CLI verifies the proof.
set -euo pipefail
root=$1
prebuilds=$2
work=$3
pkg="$root/bindings/node"
snarkjs="$root/node_modules/snarkjs/build/cli.cjs"
fx="$CUZK_INTEROP_DIR/bn128/poseidon_cmp"

rm -rf "$work"
mkdir -p "$work/stage/lib" "$work/app" "$work/bin"
cp "$pkg/package.json" "$pkg/README.md" "$work/stage/"
cp "$pkg/lib/index.js" "$pkg/lib/index.mjs" "$pkg/lib/index.d.ts" "$work/stage/lib/"
cp "$root/LICENSE-MIT" "$root/LICENSE-APACHE" "$work/stage/"
cp -r "$prebuilds" "$work/stage/prebuilds"

(cd "$work/stage" && npm pack --silent --pack-destination "$work" >"$work/pack.out")
tarball="$work/$(tail -n1 "$work/pack.out")"
[ -f "$tarball" ] || { echo "package_test: npm pack made no tarball ($(cat "$work/pack.out"))" >&2; exit 1; }
size=$(stat -c %s "$tarball")
tar tzf "$tarball" | sort >"$work/list"
echo "package_test: $(basename "$tarball"), $size bytes, $(wc -l <"$work/list") files:"
sed 's/^/  /' "$work/list"
for f in package/package.json package/lib/index.js package/lib/index.mjs package/lib/index.d.ts \
         package/LICENSE-MIT package/LICENSE-APACHE package/README.md \
         package/prebuilds/linux-x64/cuzk.node; do
  grep -qx "$f" "$work/list" || { echo "package_test: $f is missing from the tarball" >&2; exit 1; }
done
grep -q '^package/prebuilds/linux-x64/libcuzk_prover\.so' "$work/list" ||
  { echo "package_test: libcuzk_prover is missing from the tarball" >&2; exit 1; }
if grep -E '\.(zkey|wtns|wasm|r1cs|ptau|o|a|cpp|h|tgz)$|/(test|src|node_modules|build|CMakeFiles)/|CMake|fixtures' "$work/list"; then
  echo "package_test: the tarball holds fixtures, sources or build trees (above)" >&2
  exit 1
fi

# A PATH with node and npm only: no compiler, no make, no cmake.
for tool in node npm; do ln -s "$(command -v $tool)" "$work/bin/$tool"; done
for tool in cc gcc g++ c++ clang make cmake; do
  if PATH="$work/bin" command -v "$tool" >/dev/null 2>&1; then echo "package_test: $tool is on the clean PATH" >&2; exit 1; fi
done
cat >"$work/app/package.json" <<'JSON'
{ "name": "cuzk-package-test", "version": "1.0.0", "private": true }
JSON
(cd "$work/app" && env -i HOME="$work/home" PATH="$work/bin" npm_config_cache="$work/npm-cache" \
   npm install --offline --no-audit --no-fund --loglevel=error "$tarball")
[ -f "$work/app/node_modules/cuzk/prebuilds/linux-x64/cuzk.node" ] || { echo "package_test: not installed" >&2; exit 1; }

cd "$work/app"
env -i PATH="$work/bin" node -e "
  const cuzk = require('cuzk');
  cuzk.groth16.prove('$fx/poseidon_cmp.zkey', '$fx/poseidon_cmp.wtns').then((r) => {
    require('fs').writeFileSync('proof.json', JSON.stringify(r.proof));
    require('fs').writeFileSync('public.json', JSON.stringify(r.publicSignals));
    console.log('require: proved, version ' + cuzk.version);
  });"
env -i PATH="$work/bin" node --input-type=module -e "
  import cuzk, { groth16, createProver, CuzkError, codes } from 'cuzk';
  import { readFileSync } from 'node:fs';
  const vk = JSON.parse(readFileSync('$fx/verification_key.json', 'utf8'));
  const prover = await createProver('$fx/poseidon_cmp.zkey');
  const r = await prover.prove('$fx/poseidon_cmp.wtns');
  prover.close();
  if (!(await groth16.verify(vk, r.publicSignals, r.proof))) throw new Error('import: proof does not verify');
  if (cuzk.groth16 !== groth16 || typeof CuzkError !== 'function' || codes.IO !== 'CUZK_PROVER_ERROR_IO') throw new Error('import: exports differ');
  console.log('import: proved and verified');"
node "$snarkjs" groth16 verify "$fx/verification_key.json" public.json proof.json
cmp <(node -e "console.log(JSON.stringify(require('./public.json')))") <(node -e "console.log(JSON.stringify(require('$fx/public.json')))")
echo "package_test: OK ($size bytes)"
