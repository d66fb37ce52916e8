// SPDX-License-Identifier: MIT OR Apache-2.0
// cuzk for Node: snarkjs's groth16.prove / fullProve / verify with the same arguments and results,
// proved by libcuzk_prover (CPU or CUDA GPU, bn128 and bls12381), plus a resident prover that keeps
// a key loaded. The native addon (src/addon.cpp) only calls the C API; argument shapes, snarkjs's
// object forms and errors are handled here. docs/NODE.md is the manual.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

// ---- the addon -------------------------------------------------------------------------------

// The package ships prebuilds/<platform>-<arch>/cuzk.node with libcuzk_prover beside it (found by
// the addon's RUNPATH $ORIGIN). CUZK_NODE_ADDON_DIR points at another such folder (a build tree).
function loadAddon() {
  const dir = process.env.CUZK_NODE_ADDON_DIR ? path.resolve(process.env.CUZK_NODE_ADDON_DIR) :
    path.join(__dirname, '..', 'prebuilds', `${process.platform}-${process.arch}`);
  const file = path.join(dir, 'cuzk.node');
  try {
    return require(file);
  } catch (e) {
    const err = new Error(`cuzk: cannot load the native addon ${file}: ${e.message}` +
      (fs.existsSync(file) ? '' : ` (no prebuilt addon for ${process.platform}-${process.arch}; ` +
        'build one with `npm run build` in the package source, see docs/NODE.md)'));
    err.code = 'ERR_CUZK_ADDON';
    err.cause = e;
    throw err;
  }
}
const addon = loadAddon();

// ---- errors ----------------------------------------------------------------------------------

/** Codes of the C API's error table by their short names: codes.VERIFY_FAILED === 'CUZK_PROVER_ERROR_VERIFY_FAILED'. */
const codes = Object.freeze({
  ERROR: addon.errorName(1),
  SHORT_BUFFER: addon.errorName(2),
  INVALID_WITNESS_LENGTH: addon.errorName(3),
  INVALID_ARGUMENT: addon.errorName(4),
  INVALID_ZKEY: addon.errorName(5),
  INVALID_WITNESS: addon.errorName(6),
  CURVE_MISMATCH: addon.errorName(7),
  VERIFY_FAILED: addon.errorName(8),
  NO_GPU: addon.errorName(9),
  IO: addon.errorName(10),
  GPU: addon.errorName(11),
  OUT_OF_MEMORY: addon.errorName(12),
  RANDOMNESS: addon.errorName(13),
  VERIFIER_ERROR: 'CUZK_VERIFIER_ERROR',
});
const statusOfCode = new Map();
for (let s = 1; s <= 13; s++) statusOfCode.set(addon.errorName(s), s);
statusOfCode.set(codes.VERIFIER_ERROR, 2);

/**
 * Every error cuzk reports: `.code` is the C API's name of the error
 * ('CUZK_PROVER_ERROR_VERIFY_FAILED', ...; see `codes`), `.status` its number (the C code, or 2 =
 * CUZK_VERIFIER_ERROR for verify), `.message` what went wrong and where.
 */
class CuzkError extends Error {
  constructor(code, message, status) {
    super(message);
    this.name = 'CuzkError';
    this.code = code;
    this.status = status === undefined ? statusOfCode.get(code) : status;
  }
}

function fail(code, message) {
  throw new CuzkError(code, message);
}

// A C API result { status, message, ... } as a value or a CuzkError.
function check(r) {
  if (r.status !== 0) throw new CuzkError(addon.errorName(r.status), r.message || addon.errorString(r.status), r.status);
  return r;
}

// ---- inputs ----------------------------------------------------------------------------------

// snarkjs (fastfile) takes a file name, a Uint8Array, { type: 'mem', data } or
// { type: 'file', fileName }; so does every call here. A path stays a path where the C API reads
// files itself (the zkey), and is read here otherwise (the witness).
function describeInput(x, what) {
  if (typeof x === 'string') {
    if (x.length === 0) fail(codes.INVALID_ARGUMENT, `${what}: an empty path`);
    return { path: x };
  }
  if (x instanceof Uint8Array) return { bytes: x };
  if (x && typeof x === 'object') {
    if (x.type === 'mem') {
      if (x.data instanceof Uint8Array) return { bytes: x.data };
      fail(codes.INVALID_ARGUMENT, `${what}: { type: 'mem' } without a Uint8Array in .data`);
    }
    if (x.type === 'file' && typeof x.fileName === 'string') return describeInput(x.fileName, what);
  }
  fail(codes.INVALID_ARGUMENT, `${what}: expected a file name, a Uint8Array or { type: 'mem', data }, got ${typeName(x)}`);
}

function typeName(x) {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'an array';
  if (typeof x === 'object') return x.type !== undefined ? `an object of type '${x.type}'` : 'an object';
  return typeof x;
}

async function readFileOrFail(p, what) {
  try {
    return await fs.promises.readFile(p);
  } catch (e) {
    fail(codes.IO, `${what}: cannot read ${p}: ${e.code || e.message}`);
  }
}

async function bytesOf(x, what) {
  const d = describeInput(x, what);
  return d.bytes || readFileOrFail(d.path, what);
}

// ---- options ---------------------------------------------------------------------------------

const backends = { auto: 0, cpu: 1, gpu: 2 };
const optionNames = ['backend', 'threads', 'verify', 'gpuDevice', 'vramBudgetBytes', 'maxConcurrentProofs'];

function isCount(v, max) {
  return Number.isInteger(v) && v >= 0 && v <= max;
}

// The options of createProver (and of prove's last argument) as the addon takes them. Types and
// names are checked here; the C API checks the ranges (threads up to addon.maxThreads, ...).
function nativeOptions(options) {
  if (options === undefined || options === null) return undefined;
  if (typeof options !== 'object' || Array.isArray(options)) fail(codes.INVALID_ARGUMENT, `options: expected an object, got ${typeName(options)}`);
  for (const k of Object.keys(options)) {
    if (!optionNames.includes(k)) fail(codes.INVALID_ARGUMENT, `options.${k}: not an option (options are ${optionNames.join(', ')})`);
  }
  const o = {};
  const { backend, threads, verify, gpuDevice, vramBudgetBytes, maxConcurrentProofs } = options;
  if (backend !== undefined) {
    if (!Object.hasOwn(backends, backend)) fail(codes.INVALID_ARGUMENT, `options.backend: expected 'auto', 'cpu' or 'gpu', got ${JSON.stringify(backend)}`);
    o.backend = backends[backend];
  }
  if (threads !== undefined) {
    if (!isCount(threads, 0xffffffff)) fail(codes.INVALID_ARGUMENT, `options.threads: expected an integer >= 0 (0: all processors), got ${String(threads)}`);
    if (threads > addon.maxThreads) fail(codes.INVALID_ARGUMENT, `options.threads: ${threads} is more than the ${addon.maxThreads} a prover accepts`);
    o.threads = threads;
  }
  if (verify !== undefined) {
    if (typeof verify !== 'boolean') fail(codes.INVALID_ARGUMENT, `options.verify: expected a boolean, got ${typeName(verify)}`);
    o.verify = verify ? 1 : 0;
  }
  if (gpuDevice !== undefined) {
    if (!isCount(gpuDevice, 0x7fffffff)) fail(codes.INVALID_ARGUMENT, `options.gpuDevice: expected an integer >= 0, got ${String(gpuDevice)}`);
    o.gpuDevice = gpuDevice;
  }
  if (vramBudgetBytes !== undefined) {
    const ok = (typeof vramBudgetBytes === 'bigint' && vramBudgetBytes >= 0n && vramBudgetBytes < (1n << 64n)) ||
      isCount(vramBudgetBytes, Number.MAX_SAFE_INTEGER);
    if (!ok) fail(codes.INVALID_ARGUMENT, `options.vramBudgetBytes: expected an integer >= 0 (0: 90% of the device), got ${String(vramBudgetBytes)}`);
    o.vramBudgetBytes = vramBudgetBytes;
  }
  if (maxConcurrentProofs !== undefined) {
    if (!isCount(maxConcurrentProofs, 0xffffffff)) fail(codes.INVALID_ARGUMENT, `options.maxConcurrentProofs: expected an integer >= 0 (0: no limit), got ${String(maxConcurrentProofs)}`);
    o.maxConcurrentProofs = maxConcurrentProofs;
  }
  return o;
}

// ---- results ---------------------------------------------------------------------------------

// The texts are what `snarkjs groth16 prove` writes; parsed, they are the objects snarkjs's
// groth16.prove returns: { proof: { pi_a, pi_b, pi_c, protocol, curve }, publicSignals: [...] }.
function result(r) {
  check(r);
  return { proof: JSON.parse(r.proof), publicSignals: JSON.parse(r.public) };
}

// snarkjs's callers pass either JSON-ready objects or objects holding BigInts (unstringified).
function toJson(x, what) {
  if (typeof x === 'string') return x;
  if (x === null || typeof x !== 'object') fail(codes.VERIFIER_ERROR, `${what}: expected an object, got ${typeName(x)}`);
  return JSON.stringify(x, (k, v) => (typeof v === 'bigint' ? v.toString() : v));
}

function verifyResult(r, logger) {
  if (r.status === 0) return true;
  if (r.status === 1) {
    if (logger && typeof logger.error === 'function') logger.error(r.message || 'Invalid proof');
    return false;
  }
  throw new CuzkError(codes.VERIFIER_ERROR, r.message || 'verify: the texts are not what snarkjs writes', r.status);
}

// ---- the witness for fullProve: circom's own runtime -----------------------------------------

let witnessCalculatorBuilder;
function loadWitnessCalculator() {
  if (witnessCalculatorBuilder) return witnessCalculatorBuilder;
  try {
    witnessCalculatorBuilder = require('circom_runtime').WitnessCalculatorBuilder;
  } catch (e) {
    const err = new CuzkError(codes.ERROR, 'fullProve computes the witness with circom_runtime, which is not installed ' +
      '(npm install circom_runtime; it comes with snarkjs). prove() needs no witness calculator.');
    err.cause = e;
    throw err;
  }
  return witnessCalculatorBuilder;
}

// snarkjs's unstringifyBigInts: decimal and 0x strings become BigInts, arrays and objects recursively.
function unstringify(x) {
  if (typeof x === 'string' && (/^[0-9]+$/.test(x) || /^0x[0-9a-fA-F]+$/.test(x))) return BigInt(x);
  if (Array.isArray(x)) return x.map(unstringify);
  if (x !== null && typeof x === 'object' && !(x instanceof Uint8Array)) {
    const o = {};
    for (const k of Object.keys(x)) o[k] = unstringify(x[k]);
    return o;
  }
  return x;
}

/** The .wtns bytes of a circuit's input, computed by circom_runtime from the circuit's .wasm (circom 2). */
async function calculateWitness(input, wasm, wtnsCalcOptions) {
  const builder = loadWitnessCalculator();
  const code = await bytesOf(wasm, 'wasm');
  let wc;
  try {
    wc = await builder(code, wtnsCalcOptions);
  } catch (e) {
    fail(codes.INVALID_ARGUMENT, `wasm: not a circom witness calculator: ${e.message}`);
  }
  if (wc.circom_version() < 2) fail(codes.INVALID_ARGUMENT, 'wasm: made by circom 1; fullProve needs a circom 2 circuit (or compute the witness and call prove)');
  try {
    return await wc.calculateWTNSBin(unstringify(input), wtnsCalcOptions && wtnsCalcOptions.sanityCheck);
  } catch (e) {
    fail(codes.INVALID_WITNESS, `input: the witness calculator failed: ${e.message}`);
  }
}

// ---- groth16: snarkjs's calls ----------------------------------------------------------------

/**
 * snarkjs's groth16.prove(zkeyFileName, witnessFileName, logger, options): a proof of the witness
 * with the key, checked against the key's verifying key before it is returned. The key is read
 * for this call only: to prove many witnesses, use createProver.
 */
async function prove(zkey, wtns, logger, options) {
  const z = describeInput(zkey, 'zkey');
  const opts = nativeOptions(options);
  const w = await bytesOf(wtns, 'witness');
  return result(await addon.prove(z.bytes || z.path, w, opts));
}

/** snarkjs's groth16.fullProve(input, wasmFile, zkeyFileName, logger, wtnsCalcOptions, proverOptions). */
async function fullProve(input, wasm, zkey, logger, wtnsCalcOptions, proverOptions) {
  const z = describeInput(zkey, 'zkey');
  const opts = nativeOptions(proverOptions);
  const w = await calculateWitness(input, wasm, wtnsCalcOptions);
  return result(await addon.prove(z.bytes || z.path, w, opts));
}

/**
 * snarkjs's groth16.verify(vk_verifier, publicSignals, proof, logger): true or false, with the
 * stricter checks of cuzk_groth16_verify (docs/C_API.md). Rejects with a CuzkError
 * (CUZK_VERIFIER_ERROR) when the texts are not what snarkjs writes.
 */
async function verify(vk, publicSignals, proof, logger) {
  const r = await addon.verify(toJson(proof, 'proof'), toJson(publicSignals, 'publicSignals'), toJson(vk, 'vk'));
  return verifyResult(r, logger);
}

// ---- the resident prover ---------------------------------------------------------------------

/**
 * A key loaded once (and kept in VRAM on the GPU backend when the budget holds it), proving any
 * number of witnesses, concurrently. Made by createProver.
 */
class Prover {
  #native;
  #pending = 0;  // calls started and not settled, those still reading their input included
  #closing = false;
  constructor(native) {
    this.#native = native;
  }

  // Counts the call from its first (synchronous) step, so that a close() that follows a call
  // frees the key after that call has settled rather than under it.
  #run(fn) {
    if (this.#closing) return Promise.reject(new CuzkError(codes.INVALID_ARGUMENT, 'the prover is closed'));
    this.#pending++;
    return (async () => {
      try {
        return await fn();
      } finally {
        if (--this.#pending === 0 && this.#closing) this.#native.close();
      }
    })();
  }

  /** groth16.prove with this key: { proof, publicSignals }. */
  prove(wtns) {
    return this.#run(async () => result(await this.#native.prove(await bytesOf(wtns, 'witness'))));
  }

  /** groth16.fullProve with this key: the witness from circom_runtime, then prove. */
  fullProve(input, wasm, wtnsCalcOptions) {
    return this.#run(async () => result(await this.#native.prove(await calculateWitness(input, wasm, wtnsCalcOptions))));
  }

  /** groth16.verify against this key's verifying key. */
  verify(publicSignals, proof, logger) {
    return this.#run(async () =>
      verifyResult(await this.#native.verify(toJson(proof, 'proof'), toJson(publicSignals, 'publicSignals')), logger));
  }

  /** What the prover holds and uses (curve, backend, sizes, memory); null once closed. */
  info() {
    return this.#closing ? null : this.#native.info();
  }

  /**
   * Frees the key, at once or, with calls in flight, when the last of them settles. Calls made
   * after close() reject with INVALID_ARGUMENT.
   */
  close() {
    if (this.#closing) return;
    this.#closing = true;
    if (this.#pending === 0) this.#native.close();
  }

  get closed() {
    return this.#closing;
  }
}

/**
 * createProver(zkey, { backend, threads, verify, gpuDevice, vramBudgetBytes, maxConcurrentProofs })
 * -> Promise<Prover>. zkey: a file name, a Uint8Array or { type: 'mem', data }.
 */
async function createProver(zkey, options) {
  const z = describeInput(zkey, 'zkey');
  const r = check(await addon.create(z.bytes || z.path, nativeOptions(options)));
  return new Prover(r.prover);
}

const groth16 = Object.freeze({ prove, fullProve, verify });

module.exports = {
  groth16,
  createProver,
  Prover,
  CuzkError,
  codes,
  calculateWitness,
  version: addon.version,
  capabilities: () => addon.capabilities(),
};
