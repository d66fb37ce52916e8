// SPDX-License-Identifier: MIT OR Apache-2.0
// libcuzk_prover: the C entry points of include/cuzk/c/cuzk_prover.h, a shell over the front door
// (service::resident_prover, include/cuzk/service/zkey_prover.hpp), as rapidsnark's prover.cpp is
// over its Groth16Prover: argument checks, the options' C struct, error codes and messages, and
// rapidsnark's buffer rule. Every entry point catches everything and returns a code and a message
// (shell.hpp); info_c.cpp reports what a prover is, verify_c.cpp verifies.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <string_view>

#include "cuzk/c/cuzk_prover.h"
#include "cuzk/service/zkey_prover.hpp"

#include "shell.hpp"
#include "options.hpp"

namespace {

namespace service = cuzk::service;
using service::errc;
using namespace cuzk::c_api;

/// Every code's name and what it means, for cuzk_prover_error_name and _string.
struct code_text {
    int code;
    const char* name;
    const char* text;
};
#define CUZK_CODE(c, text) {c, #c, text}
constexpr code_text code_texts[] = {
    CUZK_CODE(CUZK_PROVER_OK, "success"),
    CUZK_CODE(CUZK_PROVER_ERROR, "error"),
    CUZK_CODE(CUZK_PROVER_ERROR_SHORT_BUFFER, "an output buffer is too small"),
    CUZK_CODE(CUZK_PROVER_INVALID_WITNESS_LENGTH, "the witness length differs from the key's"),
    CUZK_CODE(CUZK_PROVER_ERROR_INVALID_ARGUMENT, "invalid argument"),
    CUZK_CODE(CUZK_PROVER_ERROR_INVALID_ZKEY, "invalid zkey"),
    CUZK_CODE(CUZK_PROVER_ERROR_INVALID_WITNESS, "invalid witness file"),
    CUZK_CODE(CUZK_PROVER_ERROR_CURVE_MISMATCH, "the witness is for another curve than the key"),
    CUZK_CODE(CUZK_PROVER_ERROR_VERIFY_FAILED, "the proof does not verify: the witness does not satisfy the circuit"),
    CUZK_CODE(CUZK_PROVER_ERROR_NO_GPU, "no GPU backend or no GPU"),
    CUZK_CODE(CUZK_PROVER_ERROR_IO, "a file cannot be read"),
    CUZK_CODE(CUZK_PROVER_ERROR_GPU, "a CUDA call failed"),
    CUZK_CODE(CUZK_PROVER_ERROR_OUT_OF_MEMORY, "out of memory"),
    CUZK_CODE(CUZK_PROVER_ERROR_RANDOMNESS, "the randomness source failed"),
};
#undef CUZK_CODE

const code_text* text_of(int code) {
    for (const code_text& t : code_texts)
        if (t.code == code) return &t;
    return nullptr;
}

// ---- options ----------------------------------------------------------------------------------

/// sizeof(cuzk_prover_options) of the first version of the struct (CUZK_PROVER_ABI_VERSION 1):
/// the smallest struct_size a caller can own. A later version appends fields and keeps this.
constexpr unsigned int first_options_size = sizeof(cuzk_prover_options);

/// The caller's struct, read no further than its struct_size says: a caller built against an
/// older, smaller struct owns only struct_size bytes, and copying sizeof(cuzk_prover_options)
/// read past its end. struct_size is read first, on its own; a size below the first version's is
/// refused unread, and fields a smaller struct lacks keep their defaults (options_error then
/// judges the size itself).
cuzk_prover_options read_options(const cuzk_prover_options* given) {
    cuzk_prover_options o = cuzk::c_api::default_options();
    if (!given) return o;
    unsigned int size = 0;
    std::memcpy(&size, given, sizeof size);
    if (size < first_options_size)
        throw service::error(errc::invalid_argument,
                             "options: struct_size is " + std::to_string(size) + ", below the first version's " +
                                 std::to_string(first_options_size) + " (initialise with cuzk_prover_options_init)");
    std::memcpy(&o, given, std::min<size_t>(size, sizeof o));
    o.struct_size = size;
    return o;
}

/// The C options as the front door's, every field checked.
service::prover_options checked_options(const cuzk_prover_options* given) {
    const cuzk_prover_options o = read_options(given);
    if (std::string why = cuzk::c_api::options_error(o); !why.empty()) throw service::error(errc::invalid_argument, why);
    service::prover_options p;
    p.where = o.backend == CUZK_PROVER_BACKEND_CPU   ? service::backend::cpu
              : o.backend == CUZK_PROVER_BACKEND_GPU ? service::backend::gpu
                                                     : service::backend::automatic;
    p.verify = o.verify == 1;
    p.threads = cuzk::c_api::threads_in_use(o.threads);
    p.max_in_flight = o.max_concurrent_proofs;
    p.devices = {o.gpu_device};
    p.vram_budget_bytes = size_t(o.vram_budget_bytes);
    // A GPU asked for where none can be is an option's error, known before the key is read: the
    // same code whatever the key holds.
    if (p.where == service::backend::gpu && !service::gpu_backend_compiled())
        throw service::error(errc::no_gpu, "backend GPU: this build of cuzk has no GPU backend (CUDA was not enabled)");
    if (p.where == service::backend::gpu && service::gpu_device_count() == 0)
        throw service::error(errc::no_gpu, "backend GPU: no CUDA device is present");
    return p;
}

// ---- sources and outputs ------------------------------------------------------------------

std::shared_ptr<const cuzk::io::byte_source> zkey_buffer_source(const void* p, unsigned long long n, const char* name) {
    if (!p) null_argument(name);
    return std::make_shared<cuzk::io::memory_source>(
        std::span<const uint8_t>(static_cast<const uint8_t*>(p), size_t(n)), "zkey buffer");
}

std::shared_ptr<const cuzk::io::byte_source> zkey_file_source(const char* path) {
    if (!path) null_argument("zkey_file_path");
    return service::reading(errc::io, [&] { return std::make_shared<const cuzk::io::mapped_source>(path); });
}

/// rapidsnark's buffer rule: both texts fit, NUL included, or neither is written and both sizes
/// needed are returned with CUZK_PROVER_ERROR_SHORT_BUFFER.
int write_outputs(const service::proof_texts& t, char* proof_buffer, unsigned long long* proof_size,
                  char* public_buffer, unsigned long long* public_size, char* err, unsigned long long err_max) {
    const unsigned long long need_proof = t.proof.size() + 1, need_public = t.pub.size() + 1;
    if (*proof_size < need_proof || *public_size < need_public) {
        char msg[256];
        std::snprintf(msg, sizeof msg,
                      "buffer too small: proof needs %llu bytes (given %llu), public needs %llu bytes (given %llu)",
                      need_proof, *proof_size, need_public, *public_size);
        *proof_size = need_proof;
        *public_size = need_public;
        put_message(err, err_max, msg);
        return CUZK_PROVER_ERROR_SHORT_BUFFER;
    }
    std::memcpy(proof_buffer, t.proof.c_str(), need_proof);
    std::memcpy(public_buffer, t.pub.c_str(), need_public);
    *proof_size = t.proof.size();
    *public_size = t.pub.size();
    return CUZK_PROVER_OK;
}

void check_outputs(const char* proof_buffer, const unsigned long long* proof_size, const char* public_buffer,
                   const unsigned long long* public_size) {
    if (!proof_buffer) null_argument("proof_buffer");
    if (!proof_size) null_argument("proof_size");
    if (!public_buffer) null_argument("public_buffer");
    if (!public_size) null_argument("public_size");
}

int create(cuzk_prover** prover, std::shared_ptr<const cuzk::io::byte_source> (*open)(const void*, unsigned long long),
           const void* a, unsigned long long b, const cuzk_prover_options* options, char* err,
           unsigned long long err_max) {
    if (prover) *prover = nullptr;
    return guarded(err, err_max, [&] {
        if (!prover) null_argument("prover");
        const service::prover_options o = checked_options(options);
        auto impl = service::resident_prover::open(open(a, b), o);
        auto info = impl.info();
        *prover = new cuzk_prover{std::move(impl), std::move(info)};
        return CUZK_PROVER_OK;
    });
}

std::shared_ptr<const cuzk::io::byte_source> open_buffer(const void* p, unsigned long long n) {
    return zkey_buffer_source(p, n, "zkey_buffer");
}
std::shared_ptr<const cuzk::io::byte_source> open_file(const void* path, unsigned long long) {
    return zkey_file_source(static_cast<const char*>(path));
}

int prove(cuzk_prover* prover, const void* wtns, unsigned long long wtns_size, cuzk_random_fn random, void* random_ctx,
          char* proof_buffer, unsigned long long* proof_size, char* public_buffer, unsigned long long* public_size,
          char* err, unsigned long long err_max) {
    return guarded(err, err_max, [&] {
        if (!prover) null_argument("prover");
        if (!wtns) null_argument("wtns_buffer");
        check_outputs(proof_buffer, proof_size, public_buffer, public_size);
        service::random_bytes rnd;
        if (random)
            rnd = [random, random_ctx](std::span<unsigned char> out) {
                if (random(random_ctx, out.data(), out.size()) != 0)
                    throw service::error(errc::randomness, "the randomness callback reported a failure");
            };
        const service::proof_texts t =
            prover->impl.prove(std::span<const uint8_t>(static_cast<const uint8_t*>(wtns), size_t(wtns_size)), rnd);
        return write_outputs(t, proof_buffer, proof_size, public_buffer, public_size, err, err_max);
    });
}

/// The one-shot calls: a prover with the default options for one proof.
int one_shot(std::shared_ptr<const cuzk::io::byte_source> (*open)(const void*, unsigned long long), const void* a,
             unsigned long long b, const void* wtns, unsigned long long wtns_size, char* proof_buffer,
             unsigned long long* proof_size, char* public_buffer, unsigned long long* public_size, char* err,
             unsigned long long err_max) {
    // The arguments are checked before the key is read, so that a NULL costs no zkey read.
    const int rc = guarded(err, err_max, [&] {
        if (!wtns) null_argument("wtns_buffer");
        check_outputs(proof_buffer, proof_size, public_buffer, public_size);
        return CUZK_PROVER_OK;
    });
    if (rc != CUZK_PROVER_OK) return rc;
    cuzk_prover* p = nullptr;
    if (int c = create(&p, open, a, b, nullptr, err, err_max); c != CUZK_PROVER_OK) return c;
    const int c = prove(p, wtns, wtns_size, nullptr, nullptr, proof_buffer, proof_size, public_buffer, public_size, err,
                        err_max);
    cuzk_groth16_prover_destroy(p);
    return c;
}

}  // namespace

extern "C" {

CUZK_PROVER_API const char* cuzk_prover_error_name(int code) {
    const code_text* t = text_of(code);
    return t ? t->name : "unknown";
}

CUZK_PROVER_API const char* cuzk_prover_error_string(int code) {
    const code_text* t = text_of(code);
    return t ? t->text : "unknown error code";
}

CUZK_PROVER_API int cuzk_groth16_public_size_for_zkey_buf(const void* zkey_buffer, unsigned long long zkey_size,
                                                          unsigned long long* public_size, char* error_msg,
                                                          unsigned long long error_msg_maxsize) {
    return guarded(error_msg, error_msg_maxsize, [&] {
        if (!public_size) null_argument("public_size");
        *public_size = service::public_json_max_bytes(zkey_buffer_source(zkey_buffer, zkey_size, "zkey_buffer"));
        return CUZK_PROVER_OK;
    });
}

CUZK_PROVER_API int cuzk_groth16_public_size_for_zkey_file(const char* zkey_file_path, unsigned long long* public_size,
                                                           char* error_msg, unsigned long long error_msg_maxsize) {
    return guarded(error_msg, error_msg_maxsize, [&] {
        if (!public_size) null_argument("public_size");
        *public_size = service::public_json_max_bytes(zkey_file_source(zkey_file_path));
        return CUZK_PROVER_OK;
    });
}

CUZK_PROVER_API void cuzk_groth16_proof_size(unsigned long long* proof_size) {
    if (proof_size) *proof_size = service::proof_json_max_bytes();
}

CUZK_PROVER_API int cuzk_groth16_prover(const void* zkey_buffer, unsigned long long zkey_size, const void* wtns_buffer,
                                        unsigned long long wtns_size, char* proof_buffer,
                                        unsigned long long* proof_size, char* public_buffer,
                                        unsigned long long* public_size, char* error_msg,
                                        unsigned long long error_msg_maxsize) {
    return one_shot(open_buffer, zkey_buffer, zkey_size, wtns_buffer, wtns_size, proof_buffer, proof_size,
                    public_buffer, public_size, error_msg, error_msg_maxsize);
}

CUZK_PROVER_API int cuzk_groth16_prover_zkey_file(const char* zkey_file_path, const void* wtns_buffer,
                                                  unsigned long long wtns_size, char* proof_buffer,
                                                  unsigned long long* proof_size, char* public_buffer,
                                                  unsigned long long* public_size, char* error_msg,
                                                  unsigned long long error_msg_maxsize) {
    return one_shot(open_file, zkey_file_path, 0, wtns_buffer, wtns_size, proof_buffer, proof_size, public_buffer,
                    public_size, error_msg, error_msg_maxsize);
}

CUZK_PROVER_API void cuzk_prover_options_init(cuzk_prover_options* options) {
    if (options) *options = cuzk::c_api::default_options();
}

CUZK_PROVER_API int cuzk_groth16_prover_create(cuzk_prover** prover, const void* zkey_buffer,
                                               unsigned long long zkey_size, char* error_msg,
                                               unsigned long long error_msg_maxsize) {
    return create(prover, open_buffer, zkey_buffer, zkey_size, nullptr, error_msg, error_msg_maxsize);
}

CUZK_PROVER_API int cuzk_groth16_prover_create_zkey_file(cuzk_prover** prover, const char* zkey_file_path,
                                                         char* error_msg, unsigned long long error_msg_maxsize) {
    return create(prover, open_file, zkey_file_path, 0, nullptr, error_msg, error_msg_maxsize);
}

CUZK_PROVER_API int cuzk_groth16_prover_create_with_options(cuzk_prover** prover, const void* zkey_buffer,
                                                            unsigned long long zkey_size,
                                                            const cuzk_prover_options* options, char* error_msg,
                                                            unsigned long long error_msg_maxsize) {
    return create(prover, open_buffer, zkey_buffer, zkey_size, options, error_msg, error_msg_maxsize);
}

CUZK_PROVER_API int cuzk_groth16_prover_create_zkey_file_with_options(cuzk_prover** prover, const char* zkey_file_path,
                                                                      const cuzk_prover_options* options,
                                                                      char* error_msg,
                                                                      unsigned long long error_msg_maxsize) {
    return create(prover, open_file, zkey_file_path, 0, options, error_msg, error_msg_maxsize);
}

CUZK_PROVER_API int cuzk_groth16_prover_prove(cuzk_prover* prover, const void* wtns_buffer,
                                              unsigned long long wtns_size, char* proof_buffer,
                                              unsigned long long* proof_size, char* public_buffer,
                                              unsigned long long* public_size, char* error_msg,
                                              unsigned long long error_msg_maxsize) {
    return prove(prover, wtns_buffer, wtns_size, nullptr, nullptr, proof_buffer, proof_size, public_buffer, public_size,
                 error_msg, error_msg_maxsize);
}

CUZK_PROVER_API int cuzk_groth16_prover_prove_with_random(cuzk_prover* prover, const void* wtns_buffer,
                                                          unsigned long long wtns_size, cuzk_random_fn random,
                                                          void* random_ctx, char* proof_buffer,
                                                          unsigned long long* proof_size, char* public_buffer,
                                                          unsigned long long* public_size, char* error_msg,
                                                          unsigned long long error_msg_maxsize) {
    return prove(prover, wtns_buffer, wtns_size, random, random_ctx, proof_buffer, proof_size, public_buffer,
                 public_size, error_msg, error_msg_maxsize);
}

CUZK_PROVER_API void cuzk_groth16_prover_destroy(cuzk_prover* prover) { delete prover; }

}  // extern "C"
