// SPDX-License-Identifier: MIT OR Apache-2.0
// domain<F>: a multiplicative subgroup of size n = 2^k of a prime field and a coset of it,
// the evaluation domain of the NTT.
//
// Roots of unity: w_{2^k} = g^((r-1)/2^k) for a generator g that is a quadratic non-residue (so
// that g^((r-1)/2^s) has order exactly 2^s, s the 2-adicity). Which g is a choice, and two
// provers on the same key must make the same one: a key assigns constraint row j to the point
// w^j of the domain it was made on. domain_roots names the choices:
//   snarkjs (the default): g = the field's smallest quadratic non-residue (Config::nonresidue; 5
//     for both BLS12-381 Fr and BN254 Fr, see tests/test_ntt_host.cpp which checks that 2, 3 are
//     squares and 5 is not), as snarkjs/ffjavascript. So a domain of size n evaluates at w_n^i
//     exactly where snarkjs does, and w_{2n}^2 = w_n.
//   bellperson: g = 7, the multiplicative generator of the `ff` crate's PrimeField for BLS12-381
//     Fr, whose ROOT_OF_UNITY = 7^((r-1)/2^32) is, canonically,
//       0x16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b
//     (filecoin-project/blstrs 284624fe src/scalar.rs: `GENERATOR = 7` and ROOT_OF_UNITY, stored
//     there in Montgomery form as limbs 0xb9b58d8c5f0e466a, 0x5b1b4c801819d7ec, 0x0af53ae352a31e64,
//     0x5bf3adda19e9b27b; the canonical value as zkcrypto/bls12_381's docs print it). bellperson's
//     EvaluationDomain (src/domain.rs `from_coeffs`) squares ROOT_OF_UNITY (32 - k) times for a
//     2^k domain, i.e. takes 7^((r-1)/2^k), and uses 7 as its coset shift. Every Filecoin key is
//     on this domain. The two choices give the same domains of 2 and 4 points and differ from 8
//     on (so an odd coset, which needs w_{2n}, differs from n = 4 on).
//
// Coset: the default shift is the roots' generator g as well (5 or 7). It is not in any 2-power
// subgroup (checked: g^n != 1), so the coset g·H is disjoint from H and the vanishing polynomial
// Z(x) = x^n - 1 is the non-zero constant g^n - 1 on it, the property a Groth16 prover divides by.
// Any other shift can be passed; snarkjs's prover uses the "odd" coset with shift w_{2n}, on which
// Z = -2 (domain::odd_coset, domain::snarkjs_odd_coset).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>

#include "cuzk/core/error.hpp"

namespace cuzk::ntt {

/// Which 2-adic roots of unity a domain uses (see the file comment): each names a generator g,
/// a quadratic non-residue, and w_{2^k} = g^((r-1)/2^k).
enum class domain_roots : uint8_t {
    snarkjs = 0,     ///< g = the smallest non-residue (Config::nonresidue): snarkjs, cuzk's default
    bellperson = 1,  ///< g = 7, ff's MULTIPLICATIVE_GENERATOR (blstrs, bellperson: Filecoin keys)
};

inline const char* to_string(domain_roots r) {
    switch (r) {
        case domain_roots::snarkjs: return "snarkjs";
        case domain_roots::bellperson: return "bellperson";
    }
    return "?";
}

/// x with its low `bits` bits reversed (bits = 0 gives 0). Used for bit-reversed orders.
constexpr uint64_t bit_reverse(uint64_t x, unsigned bits) {
    if (bits == 0) return 0;
    x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
    x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
    x = ((x >> 4) & 0x0f0f0f0f0f0f0f0full) | ((x & 0x0f0f0f0f0f0f0f0full) << 4);
    x = ((x >> 8) & 0x00ff00ff00ff00ffull) | ((x & 0x00ff00ff00ff00ffull) << 8);
    x = ((x >> 16) & 0x0000ffff0000ffffull) | ((x & 0x0000ffff0000ffffull) << 16);
    x = (x >> 32) | (x << 32);
    return x >> (64 - bits);
}

/// The NTT evaluation domain H = {w^i : 0 <= i < n}, n = 2^log_size, with a coset shift g.
/// Cheap to construct (a few field exponentiations); holds no tables. Host-side type.
template <class F>
class domain {
public:
    /// Largest supported log2 of the size: the field's 2-adicity.
    static constexpr size_t max_log_size = F::two_adicity;

    /// The generator of the default (snarkjs) roots: the smallest non-residue.
    static constexpr uint64_t root_base = F::config::nonresidue;

    /// The generator g of a choice of roots (5 or 7 for BLS12-381 Fr).
    static constexpr uint64_t root_generator(domain_roots roots) {
        return roots == domain_roots::bellperson ? uint64_t(7) : root_base;
    }

    /// A primitive 2^log_order-th root of unity, g^((r-1) / 2^log_order) with g the generator of
    /// `roots`. Throws invalid_argument if log_order > max_log_size or if g is a square in F
    /// (then no power of it has order 2^max_log_size: bellperson's 7 in a field where 7 is a square).
    static F root_of_unity(size_t log_order, domain_roots roots = domain_roots::snarkjs) {
        check_log_size(log_order, "root_of_unity");
        const F g = generator(roots);
        auto e = (F::modulus - F::integer::from_u64(1)).shr(log_order);
        return g.pow_vartime(e);
    }

    /// The default coset shift of a choice of roots: its generator (5 or 7).
    static F default_coset_shift(domain_roots roots = domain_roots::snarkjs) { return generator(roots); }

    /// Domain of size 2^log_size on the given roots, with their default coset shift.
    /// Throws invalid_argument if log_size > max_log_size (or the roots do not exist in F).
    explicit domain(size_t log_size, domain_roots roots = domain_roots::snarkjs)
        : domain(log_size, default_coset_shift(roots), roots) {}

    /// Domain of size 2^log_size on the given roots whose coset is shift·H. Throws
    /// invalid_argument if log_size is too large or shift^n = 1 (shift in H, or zero), since the
    /// coset would not be disjoint from H.
    domain(size_t log_size, const F& shift, domain_roots roots = domain_roots::snarkjs)
        : log_size_(log_size), size_(size_t(1) << log_size), roots_(roots) {
        check_log_size(log_size, "domain");
        omega_ = root_of_unity(log_size, roots);
        omega_inv_ = omega_.inverse();
        size_inv_ = F::from_u64(size_).inverse();
        shift_ = shift;
        shift_inv_ = shift.inverse();
        shift_pow_n_ = pow_n(shift);
        if (shift_pow_n_.is_one() || shift.is_zero())
            throw invalid_argument("ntt::domain: the coset shift lies in the subgroup of size 2^" +
                                   std::to_string(log_size) + " (shift^n = 1 or shift = 0)");
    }

    /// Domain of n points with the default coset; throws invalid_argument unless n is a power of
    /// two not above 2^max_log_size.
    static domain for_size(size_t n, domain_roots roots = domain_roots::snarkjs) {
        if (n == 0 || !std::has_single_bit(n))
            throw invalid_argument("ntt::domain: size " + std::to_string(n) + " is not a power of two");
        return domain(size_t(std::countr_zero(n)), roots);
    }

    /// The "odd" coset: shift w_{2n}, so the coset holds the odd powers of w_{2n} and Z = x^n - 1
    /// equals -2 on it. Needs log_size < max_log_size.
    static domain odd_coset(size_t log_size, domain_roots roots) {
        if (log_size >= max_log_size)
            throw invalid_argument("ntt::domain::odd_coset: needs log_size < " + std::to_string(max_log_size) +
                                   ", got " + std::to_string(log_size));
        return domain(log_size, root_of_unity(log_size + 1, roots), roots);
    }

    /// snarkjs's Groth16 coset: odd_coset on the snarkjs roots.
    static domain snarkjs_odd_coset(size_t log_size) { return odd_coset(log_size, domain_roots::snarkjs); }

    size_t log_size() const { return log_size_; }
    size_t size() const { return size_; }
    /// Which roots of unity the domain uses.
    domain_roots roots() const { return roots_; }
    /// w: a primitive n-th root of unity.
    const F& root() const { return omega_; }
    const F& root_inverse() const { return omega_inv_; }
    /// 1/n, the scale of the inverse transform.
    const F& size_inverse() const { return size_inv_; }
    /// g: the coset is g·H.
    const F& coset_shift() const { return shift_; }
    const F& coset_shift_inverse() const { return shift_inv_; }

    /// w^i.
    F element(size_t i) const { return omega_.pow_vartime(uint64_t(i % size_)); }
    /// g·w^i, the i-th point of the coset.
    F coset_element(size_t i) const { return shift_ * element(i); }

    /// Z(x) = x^n - 1, the vanishing polynomial of H.
    F vanishing(const F& x) const { return pow_n(x) - F::one(); }
    /// Z on the coset: the constant g^n - 1 (never zero).
    F vanishing_on_coset() const { return shift_pow_n_ - F::one(); }

private:
    static void check_log_size(size_t log_size, const char* where) {
        if (log_size > max_log_size)
            throw invalid_argument(std::string("ntt::") + where + ": size 2^" + std::to_string(log_size) + " exceeds " +
                                   F::config::name + "'s 2-adicity " + std::to_string(max_log_size));
    }
    /// The generator of `roots`, checked to be a non-residue (one Legendre symbol: an exponentiation).
    static F generator(domain_roots roots) {
        const F g = F::from_u64(root_generator(roots));
        if (g.legendre() != -1)
            throw invalid_argument(std::string("ntt::domain: the ") + to_string(roots) + " roots' generator " +
                                   std::to_string(root_generator(roots)) + " is a square in " + F::config::name +
                                   ", so it gives no primitive 2^" + std::to_string(max_log_size) + "-th root");
        return g;
    }
    F pow_n(F x) const {
        for (size_t i = 0; i < log_size_; ++i) x = x.square();
        return x;
    }

    size_t log_size_;
    size_t size_;
    domain_roots roots_;
    F omega_, omega_inv_, size_inv_, shift_, shift_inv_, shift_pow_n_;
};

}  // namespace cuzk::ntt
