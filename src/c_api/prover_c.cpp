// libcuzk_prover: the C entry points of include/cuzk/c/cuzk_prover.h, a shell over the front door
// (service::resident_prover, include/cuzk/service/zkey_prover.hpp), as rapidsnark's prover.cpp is
// over its Groth16Prover: argument checks, the options' C struct, error codes and messages, and
// rapidsnark's buffer rule. Every entry point catches everything and returns a code and a message.
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

#include "options.hpp"

#ifndef CUZK_PROVER_VERSION_STRING
#error "CUZK_PROVER_VERSION_STRING must be defined by the build (src/c_api/CMakeLists.txt)"
#endif
#ifndef CUZK_PROVER_CUDA_ARCH
#define CUZK_PROVER_CUDA_ARCH "none"
#endif

namespace {

namespace service = cuzk::service;
using service::errc;

/// The C code of a front-door error.
int code_of(errc e) {
    switch (e) {
        case errc::invalid_argument: return CUZK_PROVER_ERROR_INVALID_ARGUMENT;
        case errc::invalid_zkey: return CUZK_PROVER_ERROR_INVALID_ZKEY;
        case errc::invalid_witness: return CUZK_PROVER_ERROR_INVALID_WITNESS;
        case errc::witness_length: return CUZK_PROVER_INVALID_WITNESS_LENGTH;
        case errc::curve_mismatch: return CUZK_PROVER_ERROR_CURVE_MISMATCH;
        case errc::verify_failed: return CUZK_PROVER_ERROR_VERIFY_FAILED;
        case errc::no_gpu: return CUZK_PROVER_ERROR_NO_GPU;
        case errc::io: return CUZK_PROVER_ERROR_IO;
        case errc::gpu: return CUZK_PROVER_ERROR_GPU;
        case errc::out_of_memory: return CUZK_PROVER_ERROR_OUT_OF_MEMORY;
        case errc::randomness: return CUZK_PROVER_ERROR_RANDOMNESS;
    }
    return CUZK_PROVER_ERROR;
}

/// Copies msg into the caller's buffer, NUL-terminated and truncated to fit (nothing if none).
void put_message(char* buf, unsigned long long max, std::string_view msg) {
    if (!buf || max == 0) return;
    const size_t n = size_t(std::min<unsigned long long>(msg.size(), max - 1));
    std::memcpy(buf, msg.data(), n);
    buf[n] = '\0';
}

/// Runs body (which returns a code and may write a message on its own) and turns every exception
/// into a code and a message: nothing escapes into C.
template <class Body>
int guarded(char* err, unsigned long long err_max, Body&& body) noexcept {
    try {
        put_message(err, err_max, "");
        return body();
    } catch (const service::error& e) {
        put_message(err, err_max, e.what());
        return code_of(e.code());
    } catch (const cuzk::randomness_error& e) {
        put_message(err, err_max, e.what());
        return CUZK_PROVER_ERROR_RANDOMNESS;
    } catch (const std::bad_alloc&) {
        put_message(err, err_max, "out of host memory");
        return CUZK_PROVER_ERROR_OUT_OF_MEMORY;
    } catch (const cuzk::invalid_argument& e) {
        put_message(err, err_max, e.what());
        return CUZK_PROVER_ERROR_INVALID_ARGUMENT;
    } catch (const std::exception& e) {
        put_message(err, err_max, e.what());
        return CUZK_PROVER_ERROR;
    } catch (...) {
        put_message(err, err_max, "unknown error");
        return CUZK_PROVER_ERROR;
    }
}

[[noreturn]] void null_argument(const char* name) {
    throw service::error(errc::invalid_argument, std::string(name) + " is NULL");
}

// ---- options ----------------------------------------------------------------------------------

/// The C options as the front door's, every field checked.
service::prover_options checked_options(const cuzk_prover_options* given) {
    const cuzk_prover_options o = given ? *given : cuzk::c_api::default_options();
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
    return service::reading(errc::io, [&] { return std::make_shared<const cuzk::io::file_source>(path); });
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

}  // namespace

/// The opaque handle of the C interface.
struct cuzk_prover {
    cuzk::service::resident_prover impl;
    cuzk::service::prover_info info;  // what get_info reports; its note outlives the calls
};

namespace {

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
    switch (code) {
        case CUZK_PROVER_OK: return "CUZK_PROVER_OK";
        case CUZK_PROVER_ERROR: return "CUZK_PROVER_ERROR";
        case CUZK_PROVER_ERROR_SHORT_BUFFER: return "CUZK_PROVER_ERROR_SHORT_BUFFER";
        case CUZK_PROVER_INVALID_WITNESS_LENGTH: return "CUZK_PROVER_INVALID_WITNESS_LENGTH";
        case CUZK_PROVER_ERROR_INVALID_ARGUMENT: return "CUZK_PROVER_ERROR_INVALID_ARGUMENT";
        case CUZK_PROVER_ERROR_INVALID_ZKEY: return "CUZK_PROVER_ERROR_INVALID_ZKEY";
        case CUZK_PROVER_ERROR_INVALID_WITNESS: return "CUZK_PROVER_ERROR_INVALID_WITNESS";
        case CUZK_PROVER_ERROR_CURVE_MISMATCH: return "CUZK_PROVER_ERROR_CURVE_MISMATCH";
        case CUZK_PROVER_ERROR_VERIFY_FAILED: return "CUZK_PROVER_ERROR_VERIFY_FAILED";
        case CUZK_PROVER_ERROR_NO_GPU: return "CUZK_PROVER_ERROR_NO_GPU";
        case CUZK_PROVER_ERROR_IO: return "CUZK_PROVER_ERROR_IO";
        case CUZK_PROVER_ERROR_GPU: return "CUZK_PROVER_ERROR_GPU";
        case CUZK_PROVER_ERROR_OUT_OF_MEMORY: return "CUZK_PROVER_ERROR_OUT_OF_MEMORY";
        case CUZK_PROVER_ERROR_RANDOMNESS: return "CUZK_PROVER_ERROR_RANDOMNESS";
    }
    return "unknown";
}

CUZK_PROVER_API const char* cuzk_prover_error_string(int code) {
    switch (code) {
        case CUZK_PROVER_OK: return "success";
        case CUZK_PROVER_ERROR: return "error";
        case CUZK_PROVER_ERROR_SHORT_BUFFER: return "an output buffer is too small";
        case CUZK_PROVER_INVALID_WITNESS_LENGTH: return "the witness length differs from the key's";
        case CUZK_PROVER_ERROR_INVALID_ARGUMENT: return "invalid argument";
        case CUZK_PROVER_ERROR_INVALID_ZKEY: return "invalid zkey";
        case CUZK_PROVER_ERROR_INVALID_WITNESS: return "invalid witness file";
        case CUZK_PROVER_ERROR_CURVE_MISMATCH: return "the witness is for another curve than the key";
        case CUZK_PROVER_ERROR_VERIFY_FAILED:
            return "the proof does not verify: the witness does not satisfy the circuit";
        case CUZK_PROVER_ERROR_NO_GPU: return "no GPU backend or no GPU";
        case CUZK_PROVER_ERROR_IO: return "a file cannot be read";
        case CUZK_PROVER_ERROR_GPU: return "a CUDA call failed";
        case CUZK_PROVER_ERROR_OUT_OF_MEMORY: return "out of memory";
        case CUZK_PROVER_ERROR_RANDOMNESS: return "the randomness source failed";
    }
    return "unknown error code";
}

CUZK_PROVER_API const char* cuzk_prover_version(void) { return CUZK_PROVER_VERSION_STRING; }

CUZK_PROVER_API int cuzk_prover_abi_version(void) { return CUZK_PROVER_ABI_VERSION; }

CUZK_PROVER_API int cuzk_prover_get_capabilities(cuzk_prover_capabilities* caps) {
    if (!caps || caps->struct_size != sizeof(cuzk_prover_capabilities)) return CUZK_PROVER_ERROR_INVALID_ARGUMENT;
#if defined(_OPENMP)
    const int openmp = 1, threads = omp_get_max_threads();
#else
    const int openmp = 0, threads = 1;
#endif
#if defined(CUZK_PRECOMPILED)
    const int instances = 1;
#else
    const int instances = 0;
#endif
    static const std::string options = std::string("cuda=") + (service::gpu_backend_compiled() ? "on" : "off") +
                                       " cuda_arch=" + CUZK_PROVER_CUDA_ARCH + " openmp=" + (openmp ? "on" : "off") +
                                       " x86_adx=" + (CUZK_HOST_ADX ? "on" : "off") +
                                       " instances=" + (instances ? "on" : "off");
    caps->curves = CUZK_PROVER_CURVE_BN254 | CUZK_PROVER_CURVE_BLS12_381;
    caps->gpu_backend = service::gpu_backend_compiled();
    caps->gpu_count = service::gpu_device_count();
    caps->openmp = openmp;
    caps->max_threads = threads;
    caps->x86_adx = CUZK_HOST_ADX;
    caps->precompiled_instances = instances;
    caps->build_options = options.c_str();
    return CUZK_PROVER_OK;
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

CUZK_PROVER_API int cuzk_groth16_prover_get_info(const cuzk_prover* prover, cuzk_prover_info* info, char* error_msg,
                                                 unsigned long long error_msg_maxsize) {
    return guarded(error_msg, error_msg_maxsize, [&] {
        if (!prover) null_argument("prover");
        if (!info) null_argument("info");
        if (info->struct_size != sizeof(cuzk_prover_info))
            throw service::error(errc::invalid_argument, "info->struct_size is " + std::to_string(info->struct_size) +
                                                             ", expected " + std::to_string(sizeof(cuzk_prover_info)));
        const service::prover_info& i = prover->info;
        info->curve = i.bn254 ? CUZK_PROVER_CURVE_BN254 : CUZK_PROVER_CURVE_BLS12_381;
        info->curve_name = i.bn254 ? "bn128" : "bls12381";
        info->backend = i.in_use == service::backend::gpu ? CUZK_PROVER_BACKEND_GPU : CUZK_PROVER_BACKEND_CPU;
        info->verify = i.verify;
        info->threads = i.threads;
        info->max_concurrent_proofs = i.max_in_flight;
        info->n_vars = i.n_vars;
        info->n_public = i.n_public;
        info->domain_size = i.domain_size;
        info->proof_size = i.proof_json_max_bytes;
        info->public_size = i.public_json_max_bytes;
        info->host_key_bytes = i.host_key_bytes;
        info->host_proof_bytes = i.host_proof_bytes;
        info->gpu_device = i.gpu_device;
        info->key_resident_on_gpu = i.key_resident_on_gpu;
        info->vram_budget_bytes = i.vram_budget_bytes;
        info->device_key_bytes = i.device_key_bytes;
        info->device_proof_bytes = i.device_proof_bytes;
        info->note = i.note.c_str();
        return CUZK_PROVER_OK;
    });
}

}  // extern "C"
