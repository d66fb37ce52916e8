// SPDX-License-Identifier: MIT OR Apache-2.0
// Small helpers shared by the extension towers (fp2, fp6, fp12): multiplication by small
// compile-time integers (non-residues such as 9 + u) and exact division of compile-time
// integers by small divisors (Frobenius exponents (p^k - 1) / 6).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/core/bigint.hpp"
#include "cuzk/field/mont_arith_host.hpp"

namespace cuzk::tower {

/// k * a for a compile-time k >= 0 by double-and-add (for k = 9: three doublings, one add).
template <uint64_t K, class F>
CUZK_HD constexpr F mul_small(const F& a) {
    if constexpr (K == 0) {
        return F::zero();
    } else if constexpr (K == 1) {
        return a;
    } else if constexpr (K % 2 == 0) {
        return mul_small<K / 2>(a).dbl();
    } else {
        return mul_small<K - 1>(a) + a;
    }
}

/// k * a for a compile-time signed k (negative k multiplies by |k| and negates).
template <int64_t K, class F>
CUZK_HD constexpr F mul_small_signed(const F& a) {
    if constexpr (K < 0) {
        return -mul_small<uint64_t(-K)>(a);
    } else {
        return mul_small<uint64_t(K)>(a);
    }
}

/// x / d for a small divisor d; throws at compile time when d does not divide x (callers
/// only divide when the remainder is provably zero, e.g. (p - 1) / 6 for p = 1 mod 6).
template <size_t N>
constexpr bigint<N> div_exact_small(const bigint<N>& x, uint64_t d) {
    bigint<N> q{};
    u128 rem = 0;
    for (size_t i = N; i-- > 0;) {
        u128 cur = (rem << 64) | x.limb[i];
        q.limb[i] = uint64_t(cur / d);
        rem = cur % d;
    }
    if (rem != 0) throw "div_exact_small: divisor does not divide the value";
    return q;
}

/// x mod d for a small divisor d.
template <size_t N>
constexpr uint64_t mod_small(const bigint<N>& x, uint64_t d) {
    u128 rem = 0;
    for (size_t i = N; i-- > 0;) rem = ((rem << 64) | x.limb[i]) % d;
    return uint64_t(rem);
}

/// Compile-time Fp2 arithmetic on raw Montgomery limbs, for deriving tower constants.
///
/// mont_field's operators take the PTX path whenever nvcc compiles device code, and that path
/// cannot run in a constant expression; this helper always uses the constexpr host
/// primitives, so the constants come out the same in host and device compilation passes.
template <class Fp2>
struct ct_fp2 {
    using base = typename Fp2::base;
    using integer = typename base::integer;
    using params = typename base::params;

    integer c0, c1;  // Montgomery form

    static constexpr integer mul(const integer& a, const integer& b) {
        integer r{};
        host_arith::mont_mul(r, a, b, params::modulus, params::mont_inv64);
        return r;
    }
    static constexpr integer add(const integer& a, const integer& b) {
        integer r{};
        host_arith::mod_add(r, a, b, params::modulus);
        return r;
    }
    static constexpr integer sub(const integer& a, const integer& b) {
        integer r{};
        host_arith::mod_sub(r, a, b, params::modulus);
        return r;
    }
    static constexpr integer from_u64(uint64_t v) { return mul(integer::from_u64(v), params::r2); }
    /// beta * a with beta = Fp2::nonresidue (a small signed integer).
    static constexpr integer mul_beta(const integer& a) {
        constexpr int64_t beta = Fp2::nonresidue;
        integer m = mul(a, from_u64(uint64_t(beta < 0 ? -beta : beta)));
        return beta < 0 ? sub(integer{}, m) : m;
    }

    static constexpr ct_fp2 one() { return ct_fp2{params::r1, integer{}}; }
    static constexpr ct_fp2 from_small(uint64_t a0, uint64_t a1) { return ct_fp2{from_u64(a0), from_u64(a1)}; }
    static constexpr ct_fp2 from(const Fp2& a) { return ct_fp2{a.c0.mont, a.c1.mont}; }
    constexpr Fp2 get() const {
        return Fp2{base::from_montgomery_unchecked(c0), base::from_montgomery_unchecked(c1)};
    }

    constexpr friend ct_fp2 operator*(const ct_fp2& a, const ct_fp2& b) {
        integer v0 = mul(a.c0, b.c0), v1 = mul(a.c1, b.c1);
        return ct_fp2{add(v0, mul_beta(v1)), add(mul(a.c0, b.c1), mul(a.c1, b.c0))};
    }
    constexpr friend bool operator==(const ct_fp2& a, const ct_fp2& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
    constexpr ct_fp2 conjugate() const { return ct_fp2{c0, sub(integer{}, c1)}; }
    template <size_t M>
    constexpr ct_fp2 pow(const bigint<M>& e) const {
        ct_fp2 acc = one();
        for (size_t i = e.num_bits(); i-- > 0;) {
            acc = acc * acc;
            if (e.bit(i)) acc = acc * *this;
        }
        return acc;
    }
    /// Inverse by Fermat in Fp on the norm (a must be non-zero).
    constexpr ct_fp2 inverse() const {
        integer n = sub(mul(c0, c0), mul_beta(mul(c1, c1)));
        integer e = params::modulus - integer::from_u64(2);
        integer ni = params::r1;
        for (size_t i = e.num_bits(); i-- > 0;) {
            ni = mul(ni, ni);
            if (e.bit(i)) ni = mul(ni, n);
        }
        return ct_fp2{mul(c0, ni), sub(integer{}, mul(c1, ni))};
    }
};

}  // namespace cuzk::tower
