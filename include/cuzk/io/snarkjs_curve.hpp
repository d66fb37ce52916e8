// SPDX-License-Identifier: MIT OR Apache-2.0
// snarkjs_curve: the two curves snarkjs supports, as the io/ readers and writers see them.
//
// A traits struct names the fields (Fq, Fq2, Fr), the affine point types the readers fill
// (cuzk::affine<G> of ec/: two coordinates in Montgomery form, identity = (0, 0), exactly the
// zkey layout), snarkjs's curve name ("bn128", "bls12381"), the curve coefficients and the
// matching Groth16 curve bundle (groth16/curve.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"
#include "cuzk/ec/affine.hpp"

namespace cuzk::io {

/// BN254, which snarkjs calls "bn128".
struct bn128 {
    using fq = bn254::fq;
    using fq2 = bn254::fp2;
    using fr = bn254::fr;
    using g1 = bn254::g1;
    using g2 = bn254::g2;
    using g1_point = affine<g1>;
    using g2_point = affine<g2>;
    /// The name in snarkjs's JSON ("curve": ...).
    static constexpr std::string_view snarkjs_name = "bn128";
    /// Human-readable name for messages.
    static constexpr std::string_view name = "BN254";
    /// G1: y^2 = x^3 + 3.
    static fq g1_b() { return g1::b; }
    /// G2 (D-type twist): y^2 = x^3 + 3/(9 + u).
    static fq2 g2_b() { return g2::b; }
};

/// BLS12-381, which snarkjs calls "bls12381".
struct bls12381 {
    using fq = bls12_381::fp;
    using fq2 = bls12_381::fp2;
    using fr = bls12_381::fr;
    using g1 = bls12_381::g1;
    using g2 = bls12_381::g2;
    using g1_point = affine<g1>;
    using g2_point = affine<g2>;
    static constexpr std::string_view snarkjs_name = "bls12381";
    static constexpr std::string_view name = "BLS12-381";
    /// G1: y^2 = x^3 + 4.
    static fq g1_b() { return g1::b; }
    /// G2 (M-type twist): y^2 = x^3 + 4(1 + u).
    static fq2 g2_b() { return g2::b; }
};

/// The curve of a snarkjs file, as its header's primes tell (zkey_curve in zkey.hpp, wtns_curve
/// in wtns.hpp).
enum class curve_id { bn254, bls12_381 };

/// "BN254" or "BLS12-381", for messages.
constexpr std::string_view curve_label(curve_id c) { return c == curve_id::bn254 ? bn128::name : bls12381::name; }

/// The io curve type of an id, for code that picks one of two instantiations.
template <curve_id C>
using io_curve_t = std::conditional_t<C == curve_id::bn254, bn128, bls12381>;

/// True when the little-endian bytes of a prime in a file header are F's modulus.
template <class F>
bool is_modulus(std::span<const uint8_t> prime) {
    if (prime.size() != sizeof(typename F::integer)) return false;
    for (size_t i = 0; i < prime.size(); ++i)
        if (prime[i] != uint8_t(F::modulus.limb[i / 8] >> (8 * (i % 8)))) return false;
    return true;
}

}  // namespace cuzk::io
