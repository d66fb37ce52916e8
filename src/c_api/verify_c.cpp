// SPDX-License-Identifier: MIT OR Apache-2.0
// libcuzk_prover: cuzk_groth16_verify and cuzk_groth16_prover_verify, rapidsnark's groth16_verify
// (its src/verifier.h codes) over the front door's verifier (include/cuzk/service/verify.hpp,
// which says what is invalid and what is an error).
#include <new>
#include <string>

#include "cuzk/c/cuzk_prover.h"
#include "cuzk/service/verify.hpp"

#include "shell.hpp"

namespace {

/// Runs body and turns its outcome or exception into a verifier code and a message.
template <class Body>
int guarded_verify(char* err, unsigned long long err_max, Body&& body) noexcept {
    using cuzk::c_api::put_message;
    try {
        put_message(err, err_max, "");
        const cuzk::service::verify_outcome out = body();
        if (!out.valid) put_message(err, err_max, "invalid proof: " + out.why);
        return out.valid ? CUZK_VERIFIER_VALID_PROOF : CUZK_VERIFIER_INVALID_PROOF;
    } catch (const std::bad_alloc&) {
        put_message(err, err_max, "out of host memory");
    } catch (const std::exception& e) {
        put_message(err, err_max, e.what());
    } catch (...) {
        put_message(err, err_max, "unknown error");
    }
    return CUZK_VERIFIER_ERROR;
}

}  // namespace

extern "C" {

CUZK_PROVER_API int cuzk_groth16_verify(const char* proof, const char* inputs, const char* verification_key,
                                        char* error_msg, unsigned long long error_msg_maxsize) {
    return guarded_verify(error_msg, error_msg_maxsize, [&] {
        if (!proof) throw cuzk::invalid_argument("proof is NULL");
        if (!inputs) throw cuzk::invalid_argument("inputs is NULL");
        if (!verification_key) throw cuzk::invalid_argument("verification_key is NULL");
        return cuzk::service::verify_with_key_json(verification_key, proof, inputs);
    });
}

CUZK_PROVER_API int cuzk_groth16_prover_verify(const cuzk_prover* prover, const char* proof, const char* inputs,
                                               char* error_msg, unsigned long long error_msg_maxsize) {
    return guarded_verify(error_msg, error_msg_maxsize, [&] {
        if (!prover) throw cuzk::invalid_argument("prover is NULL");
        if (!proof) throw cuzk::invalid_argument("proof is NULL");
        if (!inputs) throw cuzk::invalid_argument("inputs is NULL");
        return prover->impl.verify(proof, inputs);
    });
}

}  // extern "C"
