// domain<F>: a multiplicative subgroup of size n = 2^k of a prime field and a coset of it,
// the evaluation domain of the NTT.
//
// Roots of unity follow snarkjs/ffjavascript: w_{2^k} = z^((r-1)/2^k) where z is the field's
// smallest quadratic non-residue (Config::nonresidue; 5 for both BLS12-381 Fr and BN254 Fr, see
// tests/test_ntt_domain.cpp which checks that 2, 3 are squares and 5 is not). So a domain of
// size n evaluates at w_n^i exactly where snarkjs does, and w_{2n}^2 = w_n.
//
// Coset: the default shift is z as well (5). It is not in any 2-power subgroup (checked:
// z^n != 1), so the coset z·H is disjoint from H and the vanishing polynomial Z(x) = x^n - 1 is
// the non-zero constant z^n - 1 on it, the property a Groth16 prover divides by. Any other shift
// can be passed; snarkjs's prover uses the "odd" coset with shift w_{2n}, on which Z = -2
// (domain::snarkjs_odd_coset).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>

#include "cuzk/core/error.hpp"

namespace cuzk::ntt {

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

    /// The generator of the 2^two_adicity subgroup's roots: the smallest non-residue.
    static constexpr uint64_t root_base = F::config::nonresidue;

    /// A primitive 2^log_order-th root of unity, root_base^((r-1) / 2^log_order).
    /// Throws invalid_argument if log_order > max_log_size.
    static F root_of_unity(size_t log_order) {
        check_log_size(log_order, "root_of_unity");
        auto e = (F::modulus - F::integer::from_u64(1)).shr(log_order);
        return F::from_u64(root_base).pow_vartime(e);
    }

    /// The default coset shift: root_base (5 for BLS12-381 Fr and BN254 Fr).
    static F default_coset_shift() { return F::from_u64(root_base); }

    /// Domain of size 2^log_size with the default coset shift.
    /// Throws invalid_argument if log_size > max_log_size.
    explicit domain(size_t log_size) : domain(log_size, default_coset_shift()) {}

    /// Domain of size 2^log_size whose coset is shift·H. Throws invalid_argument if log_size is
    /// too large or shift^n = 1 (shift in H, or zero), since the coset would not be disjoint from H.
    domain(size_t log_size, const F& shift) : log_size_(log_size), size_(size_t(1) << log_size) {
        check_log_size(log_size, "domain");
        omega_ = root_of_unity(log_size);
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
    static domain for_size(size_t n) {
        if (n == 0 || !std::has_single_bit(n))
            throw invalid_argument("ntt::domain: size " + std::to_string(n) + " is not a power of two");
        return domain(size_t(std::countr_zero(n)));
    }

    /// snarkjs's Groth16 coset: shift w_{2n}, so the coset holds the odd powers of w_{2n} and
    /// Z = x^n - 1 equals -2 on it. Needs log_size < max_log_size.
    static domain snarkjs_odd_coset(size_t log_size) {
        if (log_size >= max_log_size)
            throw invalid_argument("ntt::domain::snarkjs_odd_coset: needs log_size < " + std::to_string(max_log_size) +
                                   ", got " + std::to_string(log_size));
        return domain(log_size, root_of_unity(log_size + 1));
    }

    size_t log_size() const { return log_size_; }
    size_t size() const { return size_; }
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
    F pow_n(F x) const {
        for (size_t i = 0; i < log_size_; ++i) x = x.square();
        return x;
    }

    size_t log_size_;
    size_t size_;
    F omega_, omega_inv_, size_inv_, shift_, shift_inv_, shift_pow_n_;
};

}  // namespace cuzk::ntt
