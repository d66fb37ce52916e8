// SPDX-License-Identifier: MIT OR Apache-2.0
// Latency of one proof from Node: snarkjs's groth16.prove, cuzk's groth16.prove (the key read in
// the call, "one-shot"), a resident cuzk prover, and spawning the cuzk-prove CLI, on the same key
// and witness (docs/PERFORMANCE.md, docs/NODE.md).
//
//   node latency.js CUZK_PROVE DIR... [--reps N] [--snarkjs-max-log K]
// Each DIR holds circuit.zkey, witness.wtns and verification_key.json (cuzk-setup's output, whose
// name ends in _<log size>). Medians of N runs after one warm-up run each (which builds snarkjs's
// curve and loads cuzk's library); every method's last proof is checked by snarkjs's verify.
// Prints one JSON line per DIR.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { execFile } = require('node:child_process');
const os = require('node:os');

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  if (i < 0) return dflt;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const reps = Number(opt('--reps', '3'));
const snarkjsMaxLog = Number(opt('--snarkjs-max-log', '99'));
const [cuzkProve, ...dirs] = args;

const cuzk = require('../lib/index.js');
const snarkjs = require('snarkjs');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(fn) {
  await fn();  // warm-up
  const ts = [];
  let last;
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    last = await fn();
    ts.push(performance.now() - t0);
  }
  return { ms: median(ts), last };
}

function spawnProve(d) {
  return new Promise((resolve, reject) => {
    execFile(cuzkProve, [path.join(d, 'circuit.zkey'), path.join(d, 'witness.wtns'), path.join(d, 'cli_proof.json'),
      path.join(d, 'cli_public.json')], (err) => (err ? reject(err) : resolve({
      proof: JSON.parse(fs.readFileSync(path.join(d, 'cli_proof.json'), 'utf8')),
      publicSignals: JSON.parse(fs.readFileSync(path.join(d, 'cli_public.json'), 'utf8')),
    })));
  });
}

(async () => {
  for (const d of dirs) {
    const log = Number(/_(\d+)$/.exec(path.basename(d))[1]);
    const zkey = path.join(d, 'circuit.zkey');
    const wtns = path.join(d, 'witness.wtns');
    const vk = JSON.parse(fs.readFileSync(path.join(d, 'verification_key.json'), 'utf8'));
    const row = { dir: path.basename(d), log, reps, load: os.loadavg()[0] };
    const results = {};
    if (log <= snarkjsMaxLog) results.snarkjs = await timed(() => snarkjs.groth16.prove(zkey, wtns));
    results.oneShot = await timed(() => cuzk.groth16.prove(zkey, wtns));
    const prover = await cuzk.createProver(zkey);
    row.curve = prover.info().curve;
    results.resident = await timed(() => prover.prove(wtns));
    prover.close();
    results.spawnCli = await timed(() => spawnProve(d));
    for (const [k, r] of Object.entries(results)) {
      row[`${k}Ms`] = Number(r.ms.toFixed(1));
      if (!(await snarkjs.groth16.verify(vk, r.last.publicSignals, r.last.proof))) throw new Error(`${d}: ${k}'s proof does not verify`);
    }
    row.loadAfter = os.loadavg()[0];
    console.log(JSON.stringify(row));
  }
  for (const k of ['curve_bn128', 'curve_bls12381']) if (globalThis[k]) await globalThis[k].terminate();
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
