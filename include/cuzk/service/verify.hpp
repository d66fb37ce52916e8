// SPDX-License-Identifier: MIT OR Apache-2.0
// The front door's verifier of snarkjs texts: proof.json and public.json against a verifying key,
// with snarkjs's verdicts and the stricter ones cuzk adds. The C API's cuzk_groth16_verify and
// cuzk_groth16_prover_verify are shells over it; compiled once in cuzk::service (src/service/verify.cpp).
//
// What is an invalid proof and what is an error follows snarkjs's groth16.verify, which says
// false (never throws) for a public signal >= r, a proof point that is not on the curve and a
// failed pairing: those are invalid here. Text that snarkjs could not read either (not JSON, a
// missing member, a value that is not a decimal string, a key of an unknown curve) is an error:
// cuzk::decode_error. Stricter than snarkjs, and invalid: a proof point outside the prime-order
// subgroup or at infinity, a coordinate >= the base field's modulus (snarkjs reduces it), and
// another number of public signals than the key's nPublic (snarkjs proves with the signals it is
// given and so may accept a list with trailing zeros left off).
#pragma once

#include <string>
#include <string_view>

#include "cuzk/groth16/keys.hpp"
#include "cuzk/io/zkey_groth16.hpp"

namespace cuzk::service {

/// A verifier's answer. Input that cannot be read is not an answer: the calls throw then.
struct verify_outcome {
    bool valid = false;
    std::string why;  ///< why the proof is invalid; "" for a valid one
};

/// proof.json and public.json (as snarkjs writes them) against vk. Defined for io::bn128 and
/// io::bls12381.
template <class IoCurve>
verify_outcome verify_texts(const groth16::verifying_key<io::groth16_curve_t<IoCurve>>& vk, std::string_view proof_json,
                            std::string_view public_json);

/// The same against a verification_key.json text, on the curve it names (bn128 or bls12381).
verify_outcome verify_with_key_json(std::string_view vk_json, std::string_view proof_json,
                                    std::string_view public_json);

extern template verify_outcome verify_texts<io::bn128>(const groth16::verifying_key<io::groth16_curve_t<io::bn128>>&,
                                                       std::string_view, std::string_view);
extern template verify_outcome verify_texts<io::bls12381>(
    const groth16::verifying_key<io::groth16_curve_t<io::bls12381>>&, std::string_view, std::string_view);

}  // namespace cuzk::service
