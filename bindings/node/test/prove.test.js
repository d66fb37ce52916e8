// SPDX-License-Identifier: MIT OR Apache-2.0
// For every snarkjs fixture of the curve: prove from a path, a Uint8Array and snarkjs's
// { type: 'mem' } (the object snarkjs's own wtns.calculate fills), and fullProve from the input;
// snarkjs's groth16.verify accepts each proof, publicSignals deep-equal snarkjs's, the proof has
// snarkjs's shape; our verify agrees with snarkjs's on the good proofs and on tampered ones.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { circuits, fixture, loadCuzk, releaseSnarkjs, testCurves } = require('./common.js');

const cuzk = loadCuzk();
const snarkjs = require('snarkjs');

test.after(releaseSnarkjs);

// The same keys and array shapes as snarkjs's proof object, and field elements as decimal strings.
function assertSnarkjsShape(proof, snarkjsProof) {
  assert.deepEqual(Object.keys(proof).sort(), Object.keys(snarkjsProof).sort());
  assert.equal(proof.protocol, snarkjsProof.protocol);
  assert.equal(proof.curve, snarkjsProof.curve);
  for (const k of ['pi_a', 'pi_b', 'pi_c']) {
    assert.equal(proof[k].length, snarkjsProof[k].length, k);
    const flat = proof[k].flat();
    assert.equal(flat.length, snarkjsProof[k].flat().length, k);
    for (const x of flat) assert.match(x, /^[0-9]+$/, k);
  }
}

// Tampered variants of a good proof and its signals: each must be rejected by both verifiers.
function tamperings(proof, pub) {
  const out = [];
  const p1 = structuredClone(proof);
  p1.pi_a[0] = (BigInt(p1.pi_a[0]) + 1n).toString();  // off the curve
  out.push(['pi_a off the curve', p1, pub]);
  const p2 = structuredClone(proof);
  [p2.pi_a, p2.pi_c] = [p2.pi_c, p2.pi_a];  // on the curve, wrong pairing
  out.push(['pi_a and pi_c swapped', p2, pub]);
  const s = [...pub];
  s[0] = (BigInt(s[0]) + 1n).toString();
  out.push(['a public signal + 1', proof, s]);
  return out;
}

for (const curve of testCurves()) {
  for (const name of circuits) {
    test(`${curve}/${name}`, async (t) => {
      const f = fixture(curve, name);
      const wtnsBytes = fs.readFileSync(f.wtns);
      const mem = { type: 'mem' };
      await snarkjs.wtns.calculate(f.input, f.wasm, mem);
      const results = {
        'zkey and witness paths': await cuzk.groth16.prove(f.zkey, f.wtns),
        'Uint8Array key and witness': await cuzk.groth16.prove(new Uint8Array(fs.readFileSync(f.zkey)), new Uint8Array(wtnsBytes)),
        "snarkjs's { type: 'mem' } witness": await cuzk.groth16.prove({ type: 'mem', data: fs.readFileSync(f.zkey) }, mem),
        fullProve: await cuzk.groth16.fullProve(f.input, f.wasm, f.zkey),
        'fullProve, every input in memory': await cuzk.groth16.fullProve(f.input, fs.readFileSync(f.wasm), fs.readFileSync(f.zkey)),
      };
      for (const [how, r] of Object.entries(results)) {
        await t.test(how, async () => {
          assert.deepEqual(Object.keys(r).sort(), ['proof', 'publicSignals']);
          assertSnarkjsShape(r.proof, f.snarkjsProof);
          assert.deepEqual(r.publicSignals, f.snarkjsPublic);
          assert.equal(await snarkjs.groth16.verify(f.vk, r.publicSignals, r.proof), true, 'snarkjs verify');
          assert.equal(await cuzk.groth16.verify(f.vk, r.publicSignals, r.proof), true, 'cuzk verify');
        });
      }
      await t.test("snarkjs's fullProve gives the same publicSignals", async () => {
        const s = await snarkjs.groth16.fullProve(f.input, f.wasm, f.zkey);
        assert.deepEqual(results.fullProve.publicSignals, s.publicSignals);
        assert.equal(await cuzk.groth16.verify(f.vk, s.publicSignals, s.proof), true, "cuzk verifies snarkjs's proof");
      });
      await t.test('our verify agrees with snarkjs on tampered proofs', async () => {
        const good = results['zkey and witness paths'];
        for (const [what, proof, pub] of tamperings(good.proof, good.publicSignals)) {
          const theirs = await snarkjs.groth16.verify(f.vk, pub, proof);
          const ours = await cuzk.groth16.verify(f.vk, pub, proof);
          assert.equal(theirs, false, `snarkjs rejects: ${what}`);
          assert.equal(ours, theirs, `cuzk agrees with snarkjs: ${what}`);
        }
      });
      await t.test('verify takes BigInts and texts as snarkjs callers pass them', async () => {
        const good = results.fullProve;
        const big = (x) => (Array.isArray(x) ? x.map(big) : BigInt(x));
        const proofBig = { ...good.proof, pi_a: big(good.proof.pi_a), pi_b: big(good.proof.pi_b), pi_c: big(good.proof.pi_c) };
        assert.equal(await cuzk.groth16.verify(f.vk, big(good.publicSignals), proofBig), true);
        assert.equal(await cuzk.groth16.verify(JSON.stringify(f.vk), JSON.stringify(good.publicSignals), JSON.stringify(good.proof)), true);
      });
      await t.test('a resident prover: prove, fullProve, verify, info, close', async () => {
        const prover = await cuzk.createProver(f.zkey, { backend: 'cpu', threads: 2 });
        const info = prover.info();
        assert.equal(info.curve, curve);
        assert.equal(info.backend, 'cpu');
        assert.equal(info.nPublic, f.snarkjsPublic.length);
        const a = await prover.prove(wtnsBytes);
        const b = await prover.fullProve(f.input, f.wasm);
        for (const r of [a, b]) {
          assert.deepEqual(r.publicSignals, f.snarkjsPublic);
          assert.equal(await snarkjs.groth16.verify(f.vk, r.publicSignals, r.proof), true);
          assert.equal(await prover.verify(r.publicSignals, r.proof), true);
        }
        const [, bad] = tamperings(a.proof, a.publicSignals)[1];
        assert.equal(await prover.verify(a.publicSignals, bad), false);
        prover.close();
        assert.equal(prover.closed, true);
        assert.equal(prover.info(), null);
        await assert.rejects(prover.prove(wtnsBytes), { name: 'CuzkError', code: cuzk.codes.INVALID_ARGUMENT, message: /closed/ });
      });
    });
  }
}
