// SPDX-License-Identifier: MIT OR Apache-2.0
// The ES module face of the package: the same objects as lib/index.js (one addon, loaded once).
import cuzk from './index.js';

export const { groth16, createProver, Prover, CuzkError, codes, calculateWitness, version, capabilities } = cuzk;
export default cuzk;
