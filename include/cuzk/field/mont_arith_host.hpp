// Montgomery arithmetic on 64-bit limbs: the host leaf primitives (also usable at compile time).
//
// All functions take and return fully reduced values in [0, p). They require one spare bit
// at the top of the modulus (p < 2^(64N-1)), checked by mont_field, so sums never overflow N limbs.
#pragma once

#include "cuzk/core/bigint.hpp"

namespace cuzk::host_arith {

/// out = a + b mod p.
template <size_t N>
constexpr void mod_add(bigint<N>& out, const bigint<N>& a, const bigint<N>& b, const bigint<N>& p) {
    bigint<N> s{}, d{};
    bigint<N>::add_with_carry(s, a, b);
    uint64_t borrow = bigint<N>::sub_with_borrow(d, s, p);
    out = borrow ? s : d;
}

/// out = a - b mod p.
template <size_t N>
constexpr void mod_sub(bigint<N>& out, const bigint<N>& a, const bigint<N>& b, const bigint<N>& p) {
    bigint<N> d{};
    uint64_t borrow = bigint<N>::sub_with_borrow(d, a, b);
    uint64_t mask = 0 - borrow;
    uint64_t c = 0;
    for (size_t i = 0; i < N; ++i) c = add_carry(d.limb[i], d.limb[i], p.limb[i] & mask, c);
    out = d;
}

/// out = a * b / 2^(64N) mod p (CIOS Montgomery multiplication; inv = -p^-1 mod 2^64).
template <size_t N>
constexpr void mont_mul(bigint<N>& out, const bigint<N>& a, const bigint<N>& b, const bigint<N>& p,
                        uint64_t inv) {
    uint64_t t[N + 2] = {};
    for (size_t i = 0; i < N; ++i) {
        // t += a * b[i]
        uint64_t carry = 0;
        for (size_t j = 0; j < N; ++j) {
            u128 x = u128(a.limb[j]) * b.limb[i] + t[j] + carry;
            t[j] = uint64_t(x);
            carry = uint64_t(x >> 64);
        }
        u128 x = u128(t[N]) + carry;
        t[N] = uint64_t(x);
        t[N + 1] = uint64_t(x >> 64);
        // t = (t + m * p) / 2^64, with m chosen so the low limb cancels
        uint64_t m = t[0] * inv;
        x = u128(m) * p.limb[0] + t[0];
        carry = uint64_t(x >> 64);
        for (size_t j = 1; j < N; ++j) {
            x = u128(m) * p.limb[j] + t[j] + carry;
            t[j - 1] = uint64_t(x);
            carry = uint64_t(x >> 64);
        }
        x = u128(t[N]) + carry;
        t[N - 1] = uint64_t(x);
        t[N] = t[N + 1] + uint64_t(x >> 64);
    }
    bigint<N> r{}, d{};
    for (size_t i = 0; i < N; ++i) r.limb[i] = t[i];
    uint64_t borrow = bigint<N>::sub_with_borrow(d, r, p);
    out = (t[N] != 0 || !borrow) ? d : r;
}

}  // namespace cuzk::host_arith
