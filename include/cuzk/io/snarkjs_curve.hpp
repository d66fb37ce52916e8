// snarkjs_curve: the two curves snarkjs supports, as the io/ readers and writers see them.
//
// A traits struct names the fields (Fq, Fq2, Fr), the affine point types the readers fill,
// snarkjs's curve name ("bn128", "bls12381") and the curve coefficients used for on-curve
// checks. Points are plain (x, y) pairs of field elements in Montgomery form, laid out
// exactly like cuzk::affine<G> (two coordinates, identity = (0, 0)), so a prover can
// reinterpret or copy them without conversion.
// TODO(io): alias g1_point/g2_point to cuzk::affine<...> once curves/ publishes G1/G2 group configs.
#pragma once

#include <cstdint>
#include <string_view>

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"

namespace cuzk::io {

/// An affine point over coordinate field F; (0, 0) is the identity (as in the zkey format,
/// where infinity is all-zero bytes, and as in cuzk::affine).
template <class F>
struct affine_point {
    using field = F;
    F x;
    F y;

    constexpr bool is_identity() const { return x.is_zero() && y.is_zero(); }
    constexpr friend bool operator==(const affine_point& a, const affine_point& b) { return a.x == b.x && a.y == b.y; }
    constexpr friend bool operator!=(const affine_point& a, const affine_point& b) { return !(a == b); }
};

/// True for the identity or a point with y^2 = x^3 + b (no subgroup check).
template <class F>
constexpr bool on_curve(const affine_point<F>& p, const F& b) {
    if (p.is_identity()) return true;
    return p.y.square() == p.x.square() * p.x + b;
}

/// BN254, which snarkjs calls "bn128".
struct bn128 {
    using fq = bn254::fq;
    using fq2 = bn254::fp2;
    using fr = bn254::fr;
    using g1_point = affine_point<fq>;
    using g2_point = affine_point<fq2>;
    /// The name in snarkjs's JSON ("curve": ...).
    static constexpr std::string_view snarkjs_name = "bn128";
    /// Human-readable name for messages.
    static constexpr std::string_view name = "BN254";
    /// G1: y^2 = x^3 + 3.
    static fq g1_b() { return fq::from_u64(3); }
    /// G2 (D-type twist): y^2 = x^3 + 3/(9 + u), and 1/(9 + u) = (9 - u)/82.
    static fq2 g2_b() {
        static const fq2 b = [] {
            fq k = fq::from_u64(3) * fq::from_u64(82).inverse();
            return fq2{k * fq::from_u64(9), -k};
        }();
        return b;
    }
};

/// BLS12-381, which snarkjs calls "bls12381".
struct bls12381 {
    using fq = bls12_381::fp;
    using fq2 = bls12_381::fp2;
    using fr = bls12_381::fr;
    using g1_point = affine_point<fq>;
    using g2_point = affine_point<fq2>;
    static constexpr std::string_view snarkjs_name = "bls12381";
    static constexpr std::string_view name = "BLS12-381";
    /// G1: y^2 = x^3 + 4.
    static fq g1_b() { return fq::from_u64(4); }
    /// G2 (M-type twist): y^2 = x^3 + 4(1 + u).
    static fq2 g2_b() { return fq2{fq::from_u64(4), fq::from_u64(4)}; }
};

}  // namespace cuzk::io
