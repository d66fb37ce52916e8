// SPDX-License-Identifier: MIT OR Apache-2.0
// What the Node package's tests share: the package under test (lib/index.js with the addon from
// CUZK_NODE_ADDON_DIR, a build tree), the snarkjs fixtures (CUZK_INTEROP_DIR, made by
// tests/interop/make_fixtures.sh) and the witness edits the error tests use. snarkjs, the oracle,
// comes from the repository's pinned toolchain (the root package-lock.json).
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const fixturesRoot = process.env.CUZK_INTEROP_DIR;
if (!fixturesRoot) throw new Error('CUZK_INTEROP_DIR is not set (the snarkjs fixtures, tests/interop)');

const curves = ['bn128', 'bls12381'];
const circuits = ['mul_chain', 'multi_public', 'poseidon_cmp'];

function fixture(curve, name) {
  const dir = path.join(fixturesRoot, curve, name);
  const json = (f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
  return {
    curve,
    name,
    dir,
    zkey: path.join(dir, `${name}.zkey`),
    wtns: path.join(dir, `${name}.wtns`),
    wasm: path.join(dir, `${name}.wasm`),
    input: JSON.parse(fs.readFileSync(path.join(fixturesRoot, curve, 'src', `${name}.input.json`), 'utf8')),
    vk: json('verification_key.json'),
    snarkjsProof: json('proof.json'),
    snarkjsPublic: json('public.json'),
  };
}

function loadCuzk() {
  return require('../lib/index.js');
}

// The .wtns layout (iden3 binfile): "wtns", version, number of sections, then sections of
// (id u32, size u64, bytes); section 1 holds n8 (u32), the prime (n8 bytes) and the number of
// values (u32); section 2 the values, n8 bytes each, little-endian.
function wtnsLayout(bytes) {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.toString('latin1', 0, 4) !== 'wtns') throw new Error('not a .wtns');
  const nSections = b.readUInt32LE(8);
  let off = 12;
  const sections = {};
  for (let i = 0; i < nSections; i++) {
    const id = b.readUInt32LE(off);
    const size = Number(b.readBigUInt64LE(off + 4));
    sections[id] = { start: off + 12, size };
    off += 12 + size;
  }
  const h = sections[1].start;
  const n8 = b.readUInt32LE(h);
  let prime = 0n;
  for (let i = n8 - 1; i >= 0; i--) prime = (prime << 8n) | BigInt(b[h + 4 + i]);
  return { n8, prime, count: b.readUInt32LE(h + 4 + n8), values: sections[2].start };
}

// A copy of the witness with value `index` replaced by value + 1 (mod the prime): still a
// well-formed witness, which no longer satisfies the circuit when that wire is constrained.
// Index 1 is the first public signal, an output every fixture constrains.
function tamperWitness(bytes, index = 1) {
  const out = Buffer.from(bytes);
  const { n8, prime, values } = wtnsLayout(out);
  const at = values + index * n8;
  let v = 0n;
  for (let i = n8 - 1; i >= 0; i--) v = (v << 8n) | BigInt(out[at + i]);
  v = (v + 1n) % prime;
  for (let i = 0; i < n8; i++) { out[at + i] = Number(v & 0xffn); v >>= 8n; }
  return out;
}

// snarkjs (ffjavascript) keeps each curve it has built, with its worker threads, in a global;
// the test process exits only once they are terminated.
async function releaseSnarkjs() {
  for (const k of ['curve_bn128', 'curve_bls12381']) {
    if (globalThis[k]) {
      await globalThis[k].terminate();
      delete globalThis[k];
    }
  }
}

// The curve of the test file: CUZK_TEST_CURVE (one ctest per curve), else both.
function testCurves() {
  const c = process.env.CUZK_TEST_CURVE;
  return c ? [c] : curves;
}

module.exports = { fixturesRoot, curves, circuits, fixture, loadCuzk, wtnsLayout, tamperWitness, releaseSnarkjs, testCurves };
