// SPDX-License-Identifier: MIT OR Apache-2.0
/* cuzk_prover.h: the C interface of cuzk's Groth16 prover for circom/snarkjs files (libcuzk_prover).
 *
 * Plain C99, no C++ types. The calls mirror rapidsnark's src/prover.h (iden3/rapidsnark): the
 * same arguments in the same order, the same error codes 0..3 and the same buffer rules, under
 * the prefix cuzk_ (groth16_prover -> cuzk_groth16_prover, ...), so that a rapidsnark binding
 * switches by changing the library name and the prefix. On top of that: options for the resident
 * prover (backend, verification, threads, VRAM), a randomness callback, size and capability
 * queries, and error codes that say what went wrong.
 *
 *   char proof[4096], pub[4096], err[256];
 *   unsigned long long proof_size = sizeof proof, pub_size = sizeof pub;
 *   int rc = cuzk_groth16_prover_zkey_file("circuit.zkey", wtns, wtns_size,
 *                                          proof, &proof_size, pub, &pub_size, err, sizeof err);
 *   if (rc != CUZK_PROVER_OK) fprintf(stderr, "%s: %s\n", cuzk_prover_error_name(rc), err);
 *
 * Both curves snarkjs supports are handled (bn128 and bls12381), detected from the zkey. Every
 * proof is checked against the key's verifying key before it is returned (on by default; see
 * cuzk_prover_options.verify): a witness that does not satisfy the circuit gives
 * CUZK_PROVER_ERROR_VERIFY_FAILED and no proof.
 *
 * Output buffers (rapidsnark's rules): *proof_size and *public_size give the capacities of the
 * buffers in bytes. A buffer needs room for the JSON text and its terminating NUL. On success
 * the texts are written NUL-terminated and *proof_size / *public_size are set to their lengths
 * without the NUL. When either buffer is too small nothing is written, both sizes are set to the
 * bytes needed (with the NUL) and CUZK_PROVER_ERROR_SHORT_BUFFER is returned; the proof is
 * randomised, so retry with at least cuzk_groth16_prover_get_info's proof_size (or
 * cuzk_groth16_proof_size), which always suffices. On any error no output buffer is written.
 *
 * Error messages: error_msg receives a NUL-terminated message of at most error_msg_maxsize bytes
 * (truncated if longer); it may be NULL, or error_msg_maxsize 0, to get none. On success it is set
 * to the empty string.
 *
 * The JSON is what `snarkjs groth16 prove` writes (proof.json and public.json, byte for byte the
 * same layout), which `snarkjs groth16 verify` accepts.
 *
 * Thread safety: every function may be called from any thread. One resident prover serves any
 * number of concurrent cuzk_groth16_prover_prove calls; destroy it only after they have returned.
 * See docs/C_API.md for a worked example and the Python binding (examples/python/cuzk_prover.py).
 */
#ifndef CUZK_C_CUZK_PROVER_H
#define CUZK_C_CUZK_PROVER_H

#include <stddef.h>

#if defined(__GNUC__) || defined(__clang__)
#define CUZK_PROVER_API __attribute__((visibility("default")))
#else
#define CUZK_PROVER_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- error codes -------------------------------------------------------------------------- */

/* 0..3 are rapidsnark's PROVER_OK, PROVER_ERROR, PROVER_ERROR_SHORT_BUFFER and
 * PROVER_INVALID_WITNESS_LENGTH with the same meaning; the others refine PROVER_ERROR. */
#define CUZK_PROVER_OK 0                     /* success */
#define CUZK_PROVER_ERROR 1                  /* an error no other code describes (see the message) */
#define CUZK_PROVER_ERROR_SHORT_BUFFER 2     /* an output buffer is too small: sizes needed returned */
#define CUZK_PROVER_INVALID_WITNESS_LENGTH 3 /* the witness has another number of values than the key */
#define CUZK_PROVER_ERROR_INVALID_ARGUMENT 4 /* a NULL pointer, a bad option, an uninitialised struct */
#define CUZK_PROVER_ERROR_INVALID_ZKEY 5     /* the zkey is malformed, truncated or not a Groth16 key */
#define CUZK_PROVER_ERROR_INVALID_WITNESS 6  /* the .wtns is malformed or truncated */
#define CUZK_PROVER_ERROR_CURVE_MISMATCH 7   /* the witness is for another curve than the key */
#define CUZK_PROVER_ERROR_VERIFY_FAILED 8    /* the proof does not verify: the witness does not satisfy the circuit */
#define CUZK_PROVER_ERROR_NO_GPU 9           /* backend GPU asked for, but no GPU or no GPU backend in this build */
#define CUZK_PROVER_ERROR_IO 10              /* a file cannot be opened or read */
#define CUZK_PROVER_ERROR_GPU 11             /* a CUDA call failed */
#define CUZK_PROVER_ERROR_OUT_OF_MEMORY 12   /* host memory (or the VRAM budget) is exhausted */
#define CUZK_PROVER_ERROR_RANDOMNESS 13      /* the randomness source failed */

/* The name of a code ("CUZK_PROVER_ERROR_VERIFY_FAILED"), or "unknown" for another value. */
CUZK_PROVER_API const char* cuzk_prover_error_name(int code);
/* A one-line description of a code, static storage. */
CUZK_PROVER_API const char* cuzk_prover_error_string(int code);

/* ---- version and capabilities -------------------------------------------------------------- */

/* Version of this C interface: changes only when a declaration here changes incompatibly. */
#define CUZK_PROVER_ABI_VERSION 1

/* The library's version, "MAJOR.MINOR.PATCH" (cuzk's project version). */
CUZK_PROVER_API const char* cuzk_prover_version(void);
/* CUZK_PROVER_ABI_VERSION of the library that is loaded (compare with the header's). */
CUZK_PROVER_API int cuzk_prover_abi_version(void);

/* Curves, as bits of cuzk_prover_capabilities.curves and values of cuzk_prover_info.curve. */
#define CUZK_PROVER_CURVE_BN254 1u     /* snarkjs "bn128" (alt_bn128) */
#define CUZK_PROVER_CURVE_BLS12_381 2u /* snarkjs "bls12381" */

/* What this build and this machine offer. Set struct_size = sizeof(cuzk_prover_capabilities). */
typedef struct cuzk_prover_capabilities {
    unsigned int struct_size;
    unsigned int curves;       /* bit set of CUZK_PROVER_CURVE_* the library proves */
    int gpu_backend;           /* 1 if the CUDA backend is compiled in */
    int gpu_count;             /* CUDA devices visible to this process now (0 without the backend) */
    int openmp;                /* 1 if the CPU backend runs on several threads (OpenMP) */
    int max_threads;           /* threads a CPU proof uses by default */
    int x86_adx;               /* 1 if host field multiplication uses BMI2/ADX */
    int precompiled_instances; /* 1 if the GPU kernels come from cuzk::instances */
    const char* build_options; /* e.g. "cuda=on cuda_arch=90 openmp=on x86_adx=on instances=on", static */
} cuzk_prover_capabilities;

/* Fills *caps (caps->struct_size must be set). Returns CUZK_PROVER_OK or
 * CUZK_PROVER_ERROR_INVALID_ARGUMENT (NULL, or a struct_size this library does not know). */
CUZK_PROVER_API int cuzk_prover_get_capabilities(cuzk_prover_capabilities* caps);

/* ---- sizes --------------------------------------------------------------------------------- */

/* Bytes (with the NUL) that always hold public.json for the key: rapidsnark's
 * groth16_public_size_for_zkey_buf / _file. Reads only the zkey's header. */
CUZK_PROVER_API int cuzk_groth16_public_size_for_zkey_buf(const void* zkey_buffer, unsigned long long zkey_size,
                                                          unsigned long long* public_size, char* error_msg,
                                                          unsigned long long error_msg_maxsize);
CUZK_PROVER_API int cuzk_groth16_public_size_for_zkey_file(const char* zkey_file_path, unsigned long long* public_size,
                                                           char* error_msg, unsigned long long error_msg_maxsize);

/* Bytes (with the NUL) that always hold proof.json, for either curve (rapidsnark's
 * groth16_proof_size; a resident prover's get_info gives the bound of its own curve). */
CUZK_PROVER_API void cuzk_groth16_proof_size(unsigned long long* proof_size);

/* ---- one-shot proving -------------------------------------------------------------------- */

/* Reads the zkey (buffer or file), proves the witness (the bytes of a .wtns file), verifies the
 * proof and writes proof.json and public.json into the caller's buffers, with the default options
 * (backend auto, verification on, all threads). Each call pays for reading the key: to prove many
 * witnesses, create a resident prover. The zkey buffer is only read during the call. */
CUZK_PROVER_API int cuzk_groth16_prover(const void* zkey_buffer, unsigned long long zkey_size, const void* wtns_buffer,
                                        unsigned long long wtns_size, char* proof_buffer,
                                        unsigned long long* proof_size, char* public_buffer,
                                        unsigned long long* public_size, char* error_msg,
                                        unsigned long long error_msg_maxsize);
CUZK_PROVER_API int cuzk_groth16_prover_zkey_file(const char* zkey_file_path, const void* wtns_buffer,
                                                  unsigned long long wtns_size, char* proof_buffer,
                                                  unsigned long long* proof_size, char* public_buffer,
                                                  unsigned long long* public_size, char* error_msg,
                                                  unsigned long long error_msg_maxsize);

/* ---- the resident prover ------------------------------------------------------------------ */

/* A proving key loaded once (and, on the GPU backend, kept in VRAM when the budget holds it),
 * proving any number of witnesses from any number of threads. Opaque. */
typedef struct cuzk_prover cuzk_prover;

/* Backends, for cuzk_prover_options.backend and cuzk_prover_info.backend. */
#define CUZK_PROVER_BACKEND_AUTO 0 /* the GPU when one is present and the backend is built, else the CPU */
#define CUZK_PROVER_BACKEND_CPU 1
#define CUZK_PROVER_BACKEND_GPU 2 /* an error (CUZK_PROVER_ERROR_NO_GPU) when there is none */

/* Options of a resident prover. Initialise with cuzk_prover_options_init, then change fields. */
typedef struct cuzk_prover_options {
    unsigned int struct_size;             /* sizeof(cuzk_prover_options), set by _init */
    int backend;                          /* CUZK_PROVER_BACKEND_*; default AUTO */
    int verify;                           /* 1 (default): check every proof before returning it.
                                             0: return proofs unchecked (a bad witness then gives
                                             a proof that verifiers reject) */
    unsigned int threads;                 /* host threads per proof (OpenMP); 0 (default): all.
                                             At most CUZK_PROVER_MAX_THREADS (create refuses more
                                             with CUZK_PROVER_ERROR_INVALID_ARGUMENT); more than
                                             the processors available use those (info.threads) */
    int gpu_device;                       /* CUDA device ordinal, >= 0; default 0; unused on the CPU */
    unsigned long long vram_budget_bytes; /* VRAM the prover may use, resident key included;
                                             0 (default): 90% of the device's memory; any value */
    unsigned int max_concurrent_proofs;   /* proofs in flight at once (others wait); bounds the
                                             per-proof host and device memory; 0 (default): no limit;
                                             any value */
} cuzk_prover_options;

/* The largest cuzk_prover_options.threads that create accepts. Every other field out of its
 * range (struct_size, backend, verify not 0 or 1, a negative gpu_device) is refused at create
 * the same way, with a message naming the field; docs/LIMITS.md lists every range. */
#define CUZK_PROVER_MAX_THREADS 1024u

/* Sets every field to its default. */
CUZK_PROVER_API void cuzk_prover_options_init(cuzk_prover_options* options);

/* rapidsnark's groth16_prover_create / _create_zkey_file: a resident prover with the default
 * options. *prover is set to the new prover on success and to NULL on failure. The zkey buffer is
 * copied into the prover's key (once, validated in place) and may be freed when this returns; a
 * file is read straight into the key's storage. */
CUZK_PROVER_API int cuzk_groth16_prover_create(cuzk_prover** prover, const void* zkey_buffer,
                                               unsigned long long zkey_size, char* error_msg,
                                               unsigned long long error_msg_maxsize);
CUZK_PROVER_API int cuzk_groth16_prover_create_zkey_file(cuzk_prover** prover, const char* zkey_file_path,
                                                         char* error_msg, unsigned long long error_msg_maxsize);

/* The same with options (NULL: the defaults). */
CUZK_PROVER_API int cuzk_groth16_prover_create_with_options(cuzk_prover** prover, const void* zkey_buffer,
                                                            unsigned long long zkey_size,
                                                            const cuzk_prover_options* options, char* error_msg,
                                                            unsigned long long error_msg_maxsize);
CUZK_PROVER_API int cuzk_groth16_prover_create_zkey_file_with_options(cuzk_prover** prover, const char* zkey_file_path,
                                                                      const cuzk_prover_options* options,
                                                                      char* error_msg,
                                                                      unsigned long long error_msg_maxsize);

/* rapidsnark's groth16_prover_prove: proves the witness (.wtns bytes, read only during the call)
 * and writes proof.json and public.json (see the buffer rules at the top). Thread-safe. */
CUZK_PROVER_API int cuzk_groth16_prover_prove(cuzk_prover* prover, const void* wtns_buffer,
                                              unsigned long long wtns_size, char* proof_buffer,
                                              unsigned long long* proof_size, char* public_buffer,
                                              unsigned long long* public_size, char* error_msg,
                                              unsigned long long error_msg_maxsize);

/* A source of the proof's randomisers r and s: fills out[0 .. len) with random bytes and returns
 * 0, or returns non-zero on failure (the call then fails with CUZK_PROVER_ERROR_RANDOMNESS).
 * A proof is zero-knowledge only if these bytes are unpredictable and never reused: a repeated
 * or guessable stream reveals the witness. The default is the operating system's CSPRNG
 * (getrandom); a callback is for hardware entropy sources and for reproducible tests. The bytes are
 * taken 8 at a time as little-endian 64-bit words. Each of r and s is drawn at most 64 times (a
 * draw is redone when it is zero or not below the group order, which a working source makes
 * happen less than half of the time); a source that fails 64 draws (one stuck at all-zero or
 * all-0xff bytes) gives CUZK_PROVER_ERROR_RANDOMNESS. */
typedef int (*cuzk_random_fn)(void* ctx, unsigned char* out, size_t len);

/* cuzk_groth16_prover_prove with the randomisers drawn from random(ctx, ...) (called on the
 * calling thread, during the call). random NULL: the operating system's CSPRNG. */
CUZK_PROVER_API int cuzk_groth16_prover_prove_with_random(cuzk_prover* prover, const void* wtns_buffer,
                                                          unsigned long long wtns_size, cuzk_random_fn random,
                                                          void* random_ctx, char* proof_buffer,
                                                          unsigned long long* proof_size, char* public_buffer,
                                                          unsigned long long* public_size, char* error_msg,
                                                          unsigned long long error_msg_maxsize);

/* Frees the prover and its host and device memory. NULL is allowed. No prove call may be running. */
CUZK_PROVER_API void cuzk_groth16_prover_destroy(cuzk_prover* prover);

/* What a resident prover holds and uses. Set struct_size = sizeof(cuzk_prover_info). */
typedef struct cuzk_prover_info {
    unsigned int struct_size;
    unsigned int curve;                    /* CUZK_PROVER_CURVE_* of the key */
    const char* curve_name;                /* snarkjs's name: "bn128" or "bls12381" (static) */
    int backend;                           /* CUZK_PROVER_BACKEND_CPU or _GPU: the one in use */
    int verify;                            /* 1 if proofs are verified before they are returned */
    unsigned int threads;                  /* host threads per proof (0: all), at most the processors */
    unsigned int max_concurrent_proofs;    /* 0: no limit */
    unsigned long long n_vars;             /* witness length the key expects (with the constant 1) */
    unsigned long long n_public;           /* public signals (without the constant 1) */
    unsigned long long domain_size;        /* rows of the proving domain (a power of two) */
    unsigned long long proof_size;         /* bytes (with the NUL) that always hold a proof.json */
    unsigned long long public_size;        /* bytes (with the NUL) that always hold a public.json */
    unsigned long long host_key_bytes;     /* host memory of the resident key (points and coefficients) */
    unsigned long long host_proof_bytes;   /* host memory of one proof in flight: witness, a|b|c and the
                                              MSM inputs (without the MSMs' bucket arrays, a few MB) */
    int gpu_device;                        /* the CUDA device, or -1 on the CPU backend */
    int key_resident_on_gpu;               /* 1 if the key stays in VRAM between proofs */
    unsigned long long vram_budget_bytes;  /* the budget drawn on (0 on the CPU backend) */
    unsigned long long device_key_bytes;   /* VRAM held by the resident key (0 if not resident) */
    unsigned long long device_proof_bytes; /* VRAM one proof in flight reserves */
    const char* note;                      /* why the GPU was not used or the key is not resident,
                                              or ""; valid until the prover is destroyed */
} cuzk_prover_info;

/* Fills *info. Returns CUZK_PROVER_OK or CUZK_PROVER_ERROR_INVALID_ARGUMENT. */
CUZK_PROVER_API int cuzk_groth16_prover_get_info(const cuzk_prover* prover, cuzk_prover_info* info, char* error_msg,
                                                 unsigned long long error_msg_maxsize);

/* ---- verification (rapidsnark's src/verifier.h) ------------------------------------------- */

/* The verifier's codes: rapidsnark's VERIFIER_VALID_PROOF, VERIFIER_INVALID_PROOF and
 * VERIFIER_ERROR with the same values. */
#define CUZK_VERIFIER_VALID_PROOF 0   /* the proof verifies */
#define CUZK_VERIFIER_INVALID_PROOF 1 /* the texts can be read and the proof does not verify */
#define CUZK_VERIFIER_ERROR 2         /* a NULL argument, or a text that is not what snarkjs writes */

/* rapidsnark's groth16_verify: checks proof.json against public.json (the public signals) and
 * verification_key.json, all NUL-terminated texts as snarkjs writes them, on the curve the key
 * names (bn128 or bls12381). Invalid, as snarkjs's groth16.verify says false: a signal >= r, a
 * proof point not on the curve, a failed pairing. Invalid too, where snarkjs is more lenient: a
 * proof point outside the prime-order subgroup or at infinity, a coordinate >= q, and another
 * number of signals than the key's nPublic. Errors: text that is not JSON of that shape, a key of
 * another curve than the proof's "curve", a key whose points are not in their groups. error_msg
 * says why a proof is invalid or what the error is ("" for a valid proof). */
CUZK_PROVER_API int cuzk_groth16_verify(const char* proof, const char* inputs, const char* verification_key,
                                        char* error_msg, unsigned long long error_msg_maxsize);

/* cuzk_groth16_verify against the verifying key of a resident prover's zkey. Thread-safe. */
CUZK_PROVER_API int cuzk_groth16_prover_verify(const cuzk_prover* prover, const char* proof, const char* inputs,
                                               char* error_msg, unsigned long long error_msg_maxsize);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_C_CUZK_PROVER_H */
