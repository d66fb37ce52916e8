// SPDX-License-Identifier: MIT OR Apache-2.0
// Memory: peak RSS within node's baseline + the key + 2 proofs' working set + 64 MiB while a
// resident prover proves 200 witnesses two at a time; RSS after proof 200 within 5% of RSS after
// proof 20; 20 provers created and closed in turn do not grow RSS. Run alone, with --expose-gc and
// --no-opt (test/CMakeLists.txt says why).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { fixture, loadCuzk } = require('./common.js');

const MiB = 1024 * 1024;
const cuzk = loadCuzk();
const f = fixture(process.env.CUZK_TEST_CURVE || 'bls12381', 'poseidon_cmp');

function settledRss() {
  global.gc();
  return process.memoryUsage.rss();
}

test('memory of a resident prover', async () => {
  assert.equal(typeof global.gc, 'function', 'run with --expose-gc');
  const wtns = fs.readFileSync(f.wtns);
  // Warm the allocator and the thread pools with one throwaway prover, so that the baseline is
  // node + the loaded library rather than a process that has not proved yet.
  const warm = await cuzk.createProver(f.zkey);
  await warm.prove(wtns);
  warm.close();
  const baseline = settledRss();

  const prover = await cuzk.createProver(f.zkey);
  const info = prover.info();
  let rss20 = 0;
  for (let i = 0; i < 200; i += 2) {
    await Promise.all([prover.prove(wtns), prover.prove(wtns)]);
    if (i + 2 === 20) rss20 = settledRss();
  }
  const rss200 = settledRss();
  const peak = process.resourceUsage().maxRSS * 1024;
  const bound = baseline + info.hostKeyBytes + 2 * info.hostProofBytes + 64 * MiB;
  console.log(`# baseline ${(baseline / MiB).toFixed(1)} MiB, key ${(info.hostKeyBytes / MiB).toFixed(2)} MiB, ` +
    `proof ${(info.hostProofBytes / MiB).toFixed(2)} MiB; peak ${(peak / MiB).toFixed(1)} MiB (bound ${(bound / MiB).toFixed(1)}); ` +
    `after proof 20 ${(rss20 / MiB).toFixed(1)} MiB, after 200 ${(rss200 / MiB).toFixed(1)} MiB`);
  assert.ok(peak <= bound, `peak RSS ${peak} > ${bound}`);
  assert.ok(Math.abs(rss200 - rss20) <= 0.05 * rss20, `RSS after 20 proofs ${rss20}, after 200 ${rss200}`);
  prover.close();

  // Create and close 20 provers: after the second (the allocator has its arenas by then) RSS stays.
  let rss2 = 0;
  for (let i = 1; i <= 20; i++) {
    const p = await cuzk.createProver(f.zkey);
    await p.prove(wtns);
    p.close();
    if (i === 2) rss2 = settledRss();
  }
  const rssEnd = settledRss();
  console.log(`# create/close: after 2 ${(rss2 / MiB).toFixed(1)} MiB, after 20 ${(rssEnd / MiB).toFixed(1)} MiB`);
  assert.ok(rssEnd <= rss2 + Math.max(0.05 * rss2, info.hostKeyBytes), `RSS grew from ${rss2} to ${rssEnd} over 18 create/close cycles`);
});
