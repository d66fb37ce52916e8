// SPDX-License-Identifier: MIT OR Apache-2.0
// Each way a call can fail gets its own code and a message that says what is wrong: a witness that
// does not satisfy the circuit (verify-failed, and no proof), another circuit's witness, another
// curve's witness, a truncated zkey, a missing file, bad options and bad arguments.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { fixture, loadCuzk, tamperWitness } = require('./common.js');

const cuzk = loadCuzk();
const { codes, CuzkError } = cuzk;

const bn = fixture('bn128', 'poseidon_cmp');
const bnOther = fixture('bn128', 'mul_chain');
const bls = fixture('bls12381', 'poseidon_cmp');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cuzk-node-errors-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

// Rejects with a CuzkError of that code whose message matches.
async function rejectsWith(promise, code, message) {
  let caught;
  try {
    await promise;
  } catch (e) {
    caught = e;
  }
  assert.ok(caught, `expected a rejection with ${code}`);
  assert.ok(caught instanceof CuzkError, `a CuzkError, got ${caught && caught.constructor.name}: ${caught && caught.message}`);
  assert.ok(caught instanceof Error);
  assert.equal(caught.name, 'CuzkError');
  assert.equal(caught.code, code, caught.message);
  assert.equal(typeof caught.status, 'number');
  assert.match(caught.message, message);
  return caught;
}

test('the error class and the code table', () => {
  assert.equal(codes.VERIFY_FAILED, 'CUZK_PROVER_ERROR_VERIFY_FAILED');
  assert.equal(codes.INVALID_WITNESS_LENGTH, 'CUZK_PROVER_INVALID_WITNESS_LENGTH');
  const names = Object.values(codes);
  assert.equal(new Set(names).size, names.length, 'every code its own name');
  const e = new CuzkError(codes.IO, 'x');
  assert.equal(e.status, 10);
});

for (const [what, f] of [['bn128', bn], ['bls12381', bls]]) {
  test(`${what}: a tampered witness rejects with verify-failed and gives no proof`, async () => {
    const bad = tamperWitness(fs.readFileSync(f.wtns));
    const e = await rejectsWith(cuzk.groth16.prove(f.zkey, bad), codes.VERIFY_FAILED, /verif/i);
    assert.equal(e.status, 8);
    assert.equal(e.proof, undefined);
    const prover = await cuzk.createProver(f.zkey);
    await rejectsWith(prover.prove(bad), codes.VERIFY_FAILED, /verif/i);
    // The same prover still proves a good witness afterwards.
    const good = await prover.prove(f.wtns);
    assert.deepEqual(good.publicSignals, f.snarkjsPublic);
    prover.close();
  });
}

test('with verify off, a tampered witness gives a proof that does not verify', async () => {
  const bad = tamperWitness(fs.readFileSync(bn.wtns));
  const r = await cuzk.groth16.prove(bn.zkey, bad, undefined, { verify: false });
  assert.equal(await cuzk.groth16.verify(bn.vk, r.publicSignals, r.proof), false);
});

test("another circuit's witness", async () => {
  await rejectsWith(cuzk.groth16.prove(bn.zkey, bnOther.wtns), codes.INVALID_WITNESS_LENGTH, /witness/i);
});

test("another curve's witness", async () => {
  await rejectsWith(cuzk.groth16.prove(bn.zkey, bls.wtns), codes.CURVE_MISMATCH, /BLS12-381.*BN254|BN254.*BLS12-381/);
  await rejectsWith(cuzk.groth16.prove(bls.zkey, bn.wtns), codes.CURVE_MISMATCH, /BLS12-381.*BN254|BN254.*BLS12-381/);
});

test('a truncated zkey, a malformed witness', async () => {
  const z = fs.readFileSync(bn.zkey);
  const cut = path.join(tmp, 'cut.zkey');
  fs.writeFileSync(cut, z.subarray(0, Math.floor(z.length / 2)));
  await rejectsWith(cuzk.groth16.prove(cut, bn.wtns), codes.INVALID_ZKEY, /zkey|truncat|section/i);
  await rejectsWith(cuzk.groth16.prove(z.subarray(0, 100), bn.wtns), codes.INVALID_ZKEY, /zkey|truncat|section/i);
  await rejectsWith(cuzk.createProver(cut), codes.INVALID_ZKEY, /./);
  const w = fs.readFileSync(bn.wtns);
  await rejectsWith(cuzk.groth16.prove(bn.zkey, w.subarray(0, w.length - 7)), codes.INVALID_WITNESS, /wtns|witness/i);
  await rejectsWith(cuzk.groth16.prove(bn.zkey, new Uint8Array(0)), codes.INVALID_WITNESS, /wtns|witness/i);
});

test('a missing file', async () => {
  const missing = path.join(tmp, 'no-such.zkey');
  await rejectsWith(cuzk.groth16.prove(missing, bn.wtns), codes.IO, /no-such\.zkey/);
  await rejectsWith(cuzk.createProver(missing), codes.IO, /no-such\.zkey/);
  await rejectsWith(cuzk.groth16.prove(bn.zkey, path.join(tmp, 'no-such.wtns')), codes.IO, /no-such\.wtns.*ENOENT/);
  await rejectsWith(cuzk.groth16.fullProve(bn.input, path.join(tmp, 'no-such.wasm'), bn.zkey), codes.IO, /no-such\.wasm/);
});

test('bad options', async () => {
  const cases = [
    [{ backend: 'tpu' }, /options\.backend/],
    [{ threads: -1 }, /options\.threads/],
    [{ threads: 1.5 }, /options\.threads/],
    [{ threads: 100000 }, /options\.threads.*1024/],
    [{ verify: 1 }, /options\.verify/],
    [{ gpuDevice: -2 }, /options\.gpuDevice/],
    [{ vramBudgetBytes: -1 }, /options\.vramBudgetBytes/],
    [{ maxConcurrentProofs: 'many' }, /options\.maxConcurrentProofs/],
    [{ thread: 2 }, /options\.thread: not an option/],
    ['fast', /options: expected an object/],
  ];
  for (const [options, message] of cases) {
    await rejectsWith(cuzk.createProver(bn.zkey, options), codes.INVALID_ARGUMENT, message);
    await rejectsWith(cuzk.groth16.prove(bn.zkey, bn.wtns, undefined, options), codes.INVALID_ARGUMENT, message);
  }
  // Accepted, each at an edge of its range.
  const p = await cuzk.createProver(bn.zkey, { backend: 'cpu', threads: 1024, verify: true, gpuDevice: 0, vramBudgetBytes: 1n << 40n, maxConcurrentProofs: 1 });
  assert.equal(p.info().threads <= require('node:os').availableParallelism(), true);
  p.close();
});

test('the GPU backend asked for where the build or the machine has none', async (t) => {
  const caps = cuzk.capabilities();
  if (caps.gpuBackend && caps.gpuCount > 0) return t.skip('a GPU is present');
  await rejectsWith(cuzk.createProver(bn.zkey, { backend: 'gpu' }), codes.NO_GPU, /GPU/i);
});

test('bad arguments', async () => {
  await rejectsWith(cuzk.groth16.prove(42, bn.wtns), codes.INVALID_ARGUMENT, /zkey: expected a file name/);
  await rejectsWith(cuzk.groth16.prove(bn.zkey, { type: 'bigMem' }), codes.INVALID_ARGUMENT, /witness: expected .*type 'bigMem'/);
  await rejectsWith(cuzk.groth16.prove(bn.zkey, { type: 'mem' }), codes.INVALID_ARGUMENT, /witness: \{ type: 'mem' \} without/);
  await rejectsWith(cuzk.groth16.prove('', bn.wtns), codes.INVALID_ARGUMENT, /empty path/);
  await rejectsWith(cuzk.groth16.fullProve(bn.input, bn.zkey, bn.zkey), codes.INVALID_ARGUMENT, /wasm: not a circom witness calculator/);
  await rejectsWith(cuzk.groth16.fullProve({ a: '1' }, bn.wasm, bn.zkey), codes.INVALID_WITNESS, /witness calculator failed/);
  await rejectsWith(cuzk.groth16.verify(bn.vk, ['1'], 'not json'), codes.VERIFIER_ERROR, /./);
  await rejectsWith(cuzk.groth16.verify(null, ['1'], bn.snarkjsProof), codes.VERIFIER_ERROR, /vk: expected an object/);
});
