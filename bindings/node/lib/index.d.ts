// SPDX-License-Identifier: MIT OR Apache-2.0
// Types of the cuzk package. The groth16 calls take and return what snarkjs's do.

/** A zkey, a witness or a circuit's .wasm: a file name, the bytes, or snarkjs's (fastfile's) objects. */
export type FileInput = string | Uint8Array | { type: 'mem'; data: Uint8Array } | { type: 'file'; fileName: string };

/** A decimal string, as snarkjs writes field elements. */
export type NumericString = string;

/** snarkjs's proof object (proof.json). */
export interface Groth16Proof {
  pi_a: NumericString[];
  pi_b: NumericString[][];
  pi_c: NumericString[];
  protocol: 'groth16';
  curve: 'bn128' | 'bls12381' | string;
}

/** snarkjs's public signals (public.json): decimal strings. */
export type PublicSignals = NumericString[];

/** What prove and fullProve resolve to, as snarkjs's groth16.prove does. */
export interface Groth16ProofResult {
  proof: Groth16Proof;
  publicSignals: PublicSignals;
}

/** A circuit's input signals, as circom's witness calculator takes them. */
export type CircuitSignal = NumericString | bigint | number | CircuitSignal[];
export interface CircuitSignals {
  [name: string]: CircuitSignal;
}

/** snarkjs's verification_key.json (an object, possibly holding BigInts, or its text). */
export type VerificationKey = Record<string, unknown> | string;

/** A logger as snarkjs takes one; only error() is called (for a proof that does not verify). */
export interface Logger {
  error?(message: string): void;
  [level: string]: unknown;
}

/** Options of circom_runtime's witness calculator (passed through). */
export interface WitnessCalcOptions {
  sanityCheck?: boolean;
  [key: string]: unknown;
}

export interface ProverOptions {
  /** 'auto' (default): the GPU when one is present and built in, else the CPU. */
  backend?: 'auto' | 'cpu' | 'gpu';
  /** Host threads per proof; 0 (default): all processors. At most 1024. */
  threads?: number;
  /** Check every proof before returning it (default true). */
  verify?: boolean;
  /** CUDA device ordinal (default 0). */
  gpuDevice?: number;
  /** VRAM the prover may use, resident key included; 0 (default): 90% of the device. */
  vramBudgetBytes?: number | bigint;
  /** Proofs in flight at once, others wait; 0 (default): no limit. */
  maxConcurrentProofs?: number;
}

export interface ProverInfo {
  curve: 'bn128' | 'bls12381';
  backend: 'cpu' | 'gpu';
  verify: boolean;
  threads: number;
  maxConcurrentProofs: number;
  nVars: number;
  nPublic: number;
  domainSize: number;
  proofSize: number;
  publicSize: number;
  hostKeyBytes: number;
  hostProofBytes: number;
  gpuDevice: number | null;
  keyResidentOnGpu: boolean;
  vramBudgetBytes: number;
  deviceKeyBytes: number;
  deviceProofBytes: number;
  note: string;
}

export interface Capabilities {
  curves: Array<'bn128' | 'bls12381'>;
  gpuBackend: boolean;
  gpuCount: number;
  openmp: boolean;
  maxThreads: number;
  x86Adx: boolean;
  precompiledInstances: boolean;
  buildOptions: string;
}

/** The C API's error names, by short name. */
export declare const codes: Readonly<{
  ERROR: 'CUZK_PROVER_ERROR';
  SHORT_BUFFER: 'CUZK_PROVER_ERROR_SHORT_BUFFER';
  INVALID_WITNESS_LENGTH: 'CUZK_PROVER_INVALID_WITNESS_LENGTH';
  INVALID_ARGUMENT: 'CUZK_PROVER_ERROR_INVALID_ARGUMENT';
  INVALID_ZKEY: 'CUZK_PROVER_ERROR_INVALID_ZKEY';
  INVALID_WITNESS: 'CUZK_PROVER_ERROR_INVALID_WITNESS';
  CURVE_MISMATCH: 'CUZK_PROVER_ERROR_CURVE_MISMATCH';
  VERIFY_FAILED: 'CUZK_PROVER_ERROR_VERIFY_FAILED';
  NO_GPU: 'CUZK_PROVER_ERROR_NO_GPU';
  IO: 'CUZK_PROVER_ERROR_IO';
  GPU: 'CUZK_PROVER_ERROR_GPU';
  OUT_OF_MEMORY: 'CUZK_PROVER_ERROR_OUT_OF_MEMORY';
  RANDOMNESS: 'CUZK_PROVER_ERROR_RANDOMNESS';
  VERIFIER_ERROR: 'CUZK_VERIFIER_ERROR';
}>;
export type CuzkErrorCode = (typeof codes)[keyof typeof codes];

export declare class CuzkError extends Error {
  name: 'CuzkError';
  code: CuzkErrorCode;
  /** The C API's numeric code. */
  status: number;
}

export declare const groth16: {
  prove(zkeyFileName: FileInput, witnessFileName: FileInput, logger?: Logger, options?: ProverOptions): Promise<Groth16ProofResult>;
  fullProve(input: CircuitSignals, wasmFile: FileInput, zkeyFileName: FileInput, logger?: Logger,
    wtnsCalcOptions?: WitnessCalcOptions, proverOptions?: ProverOptions): Promise<Groth16ProofResult>;
  verify(vk_verifier: VerificationKey, publicSignals: PublicSignals | bigint[], proof: Groth16Proof | Record<string, unknown>,
    logger?: Logger): Promise<boolean>;
};

export declare class Prover {
  private constructor();
  prove(witness: FileInput): Promise<Groth16ProofResult>;
  fullProve(input: CircuitSignals, wasmFile: FileInput, wtnsCalcOptions?: WitnessCalcOptions): Promise<Groth16ProofResult>;
  verify(publicSignals: PublicSignals | bigint[], proof: Groth16Proof | Record<string, unknown>, logger?: Logger): Promise<boolean>;
  /** null once closed. */
  info(): ProverInfo | null;
  close(): void;
  readonly closed: boolean;
}

export declare function createProver(zkey: FileInput, options?: ProverOptions): Promise<Prover>;

/** The .wtns bytes of a circuit's input (circom_runtime, circom 2 circuits). */
export declare function calculateWitness(input: CircuitSignals, wasmFile: FileInput, wtnsCalcOptions?: WitnessCalcOptions): Promise<Uint8Array>;

/** libcuzk_prover's version, "MAJOR.MINOR.PATCH". */
export declare const version: string;
export declare function capabilities(): Capabilities;

declare const cuzk: {
  groth16: typeof groth16;
  createProver: typeof createProver;
  Prover: typeof Prover;
  CuzkError: typeof CuzkError;
  codes: typeof codes;
  calculateWitness: typeof calculateWitness;
  version: string;
  capabilities: typeof capabilities;
};
export default cuzk;
