// SPDX-License-Identifier: MIT OR Apache-2.0
// The Groth16 verifier: validation of every untrusted input, then one multi-pairing.
//
//   e(A, B) = e(alpha, beta) * e(IC(x), gamma) * e(C, delta),   IC(x) = IC_0 + sum x_i IC_i
//
// checked as e(-A, B) e(alpha, beta) e(IC(x), gamma) e(C, delta) = 1 with one final
// exponentiation. Stricter than snarkjs's verifier: proof points must be in the prime-order
// subgroups, not only on the curve, so verdicts on crafted input may differ from snarkjs's.
#pragma once

#include <span>
#include <string>

#include "cuzk/core/error.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/ec/subgroup.hpp"
#include "cuzk/groth16/curve.hpp"
#include "cuzk/groth16/keys.hpp"

namespace cuzk::groth16 {

/// Why a proof was rejected (ok when it was accepted).
enum class verdict { ok, point_at_infinity, point_not_on_curve, point_not_in_subgroup, pairing_check_failed };

inline const char* to_string(verdict v) {
    switch (v) {
        case verdict::ok: return "ok";
        case verdict::point_at_infinity: return "a proof point is the point at infinity";
        case verdict::point_not_on_curve: return "a proof point is not on the curve";
        case verdict::point_not_in_subgroup: return "a proof point is not in the prime-order subgroup";
        case verdict::pairing_check_failed: return "the pairing check failed";
    }
    return "?";
}

namespace detail {

template <class G>
verdict check_proof_point(const affine<G>& p) {
    if (p.is_identity()) return verdict::point_at_infinity;
    if (!p.is_on_curve()) return verdict::point_not_on_curve;
    if (!is_in_subgroup(p)) return verdict::point_not_in_subgroup;
    return verdict::ok;
}

}  // namespace detail

/// Verifies `pi` for the public inputs (without the leading one) and says why it failed.
/// Throws invalid_argument when the number of inputs does not match the key: that is a
/// caller's mistake, not a bad proof. Public inputs as field elements are below r by type;
/// use verify_canonical for integers from untrusted sources.
template <class Curve>
verdict verify_verdict(const verifying_key<Curve>& vk, std::span<const typename Curve::fr> inputs, const proof<Curve>& pi) {
    using G1 = typename Curve::g1;
    if (vk.ic.empty()) throw invalid_argument("verify: verifying key has no IC points");
    if (inputs.size() != vk.num_public())
        throw invalid_argument("verify: " + std::to_string(inputs.size()) + " public inputs, the key expects " +
                               std::to_string(vk.num_public()));
    for (verdict v : {detail::check_proof_point(pi.a), detail::check_proof_point(pi.b), detail::check_proof_point(pi.c)})
        if (v != verdict::ok) return v;
    jacobian<G1> ic = jacobian<G1>::from_affine(vk.ic[0]);
    for (size_t i = 0; i < inputs.size(); ++i) ic += mul_vartime(vk.ic[i + 1], inputs[i]);
    const affine<G1> g1s[4] = {-pi.a, vk.alpha_g1, to_affine(ic), pi.c};
    const affine<typename Curve::g2> g2s[4] = {pi.b, vk.beta_g2, vk.gamma_g2, vk.delta_g2};
    return Curve::pairing_product_is_one(g1s, g2s) ? verdict::ok : verdict::pairing_check_failed;
}

/// True when `pi` is a valid proof for `inputs` (see verify_verdict).
template <class Curve>
bool verify(const verifying_key<Curve>& vk, std::span<const typename Curve::fr> inputs, const proof<Curve>& pi) {
    return verify_verdict(vk, inputs, pi) == verdict::ok;
}

/// verify() for public inputs given as canonical integers (as they arrive in public.json):
/// throws decode_error for an input >= r instead of reducing it (x + r must not verify as x).
template <class Curve>
bool verify_canonical(const verifying_key<Curve>& vk, std::span<const typename Curve::fr::integer> inputs,
                      const proof<Curve>& pi) {
    using Fr = typename Curve::fr;
    std::vector<Fr> xs;
    xs.reserve(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
        if (inputs[i] >= Fr::modulus)
            throw decode_error("verify: public input " + std::to_string(i) + " is not below the group order r");
        xs.push_back(Fr::from_canonical(inputs[i]));
    }
    return verify(vk, std::span<const Fr>(xs), pi);
}

}  // namespace cuzk::groth16

/// The verifier (its pairings) for Curve: see cuzk/instances.hpp.
#define CUZK_HOST_VERIFIER_INSTANCES(prefix, Curve)                                                      \
    prefix template ::cuzk::groth16::verdict cuzk::groth16::verify_verdict<Curve>(                       \
        const ::cuzk::groth16::verifying_key<Curve>&, std::span<const typename Curve::fr>,               \
        const ::cuzk::groth16::proof<Curve>&);

#if defined(CUZK_HOST_PRECOMPILED)
#include "cuzk/instances.hpp"
CUZK_FOR_EACH_INSTANCE_CURVE(CUZK_HOST_VERIFIER_INSTANCES, extern)
#endif
