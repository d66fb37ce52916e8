// SPDX-License-Identifier: MIT OR Apache-2.0
// Internal to libcuzk_prover: the verifier of the C interface (verify_c.cpp), shared with the
// resident prover (prover_c.cpp), which verifies against the verifying key of the zkey it holds.
// Not installed.
#pragma once

#include <string>
#include <string_view>

#include "cuzk/c/cuzk_prover.h"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/io/zkey_groth16.hpp"

namespace cuzk::c_api {

/// A verifier's answer: CUZK_VERIFIER_VALID_PROOF or CUZK_VERIFIER_INVALID_PROOF and, for an
/// invalid proof, why. Input that cannot be read is not an answer: verify_texts throws then.
struct verify_outcome {
    int code;
    std::string message;
};

/// Verifies proof.json and public.json (texts as snarkjs writes them) against vk. A proof that
/// can be read but does not verify (a point off the curve, outside the subgroup or at infinity, a
/// coordinate or signal out of range, another number of signals than the key's, a failed pairing)
/// is an outcome; text that is not such JSON throws cuzk::decode_error. Defined for io::bn128 and
/// io::bls12381.
template <class IoCurve>
verify_outcome verify_texts(const groth16::verifying_key<io::groth16_curve_t<IoCurve>>& vk, std::string_view proof_json,
                            std::string_view public_json);

/// verify_texts against the verifying key of a resident prover's zkey (defined in prover_c.cpp,
/// which holds the key).
verify_outcome verify_with_prover_key(const cuzk_prover* prover, std::string_view proof_json,
                                      std::string_view public_json);

}  // namespace cuzk::c_api
