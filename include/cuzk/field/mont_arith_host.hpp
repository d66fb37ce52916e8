// Montgomery arithmetic on 64-bit limbs: the host leaf primitives (also usable at compile time).
//
// All functions take and return fully reduced values in [0, p). They require one spare bit
// at the top of the modulus (p < 2^(64N-1)), checked by mont_field, so sums never overflow N limbs.
#pragma once

#include <type_traits>

#include "cuzk/core/bigint.hpp"
#include "cuzk/field/mont_arith_x86.hpp"

namespace cuzk::host_arith {

/// out = a + b mod p.
template <size_t N>
constexpr void mod_add(bigint<N>& out, const bigint<N>& a, const bigint<N>& b, const bigint<N>& p) {
#if CUZK_HOST_ADX
    if (!std::is_constant_evaluated()) return x86::mod_add_x86(out, a, b, p);
#endif
    bigint<N> s{}, d{};
    bigint<N>::add_with_carry(s, a, b);
    uint64_t borrow = bigint<N>::sub_with_borrow(d, s, p);
    const uint64_t keep = 0 - borrow;  // a mask, not a branch: constant time
    for (size_t i = 0; i < N; ++i) out.limb[i] = (s.limb[i] & keep) | (d.limb[i] & ~keep);
}

/// out = a - b mod p.
template <size_t N>
constexpr void mod_sub(bigint<N>& out, const bigint<N>& a, const bigint<N>& b, const bigint<N>& p) {
#if CUZK_HOST_ADX
    if (!std::is_constant_evaluated()) return x86::mod_sub_x86(out, a, b, p);
#endif
    bigint<N> d{};
    uint64_t borrow = bigint<N>::sub_with_borrow(d, a, b);
    uint64_t mask = 0 - borrow;
    uint64_t c = 0;
    for (size_t i = 0; i < N; ++i) c = add_carry(d.limb[i], d.limb[i], p.limb[i] & mask, c);
    out = d;
}

/// out = a * b / 2^(64N) mod p: CIOS Montgomery multiplication (inv = -p^-1 mod 2^64).
///
/// Uses the "no-carry" form (Consensys/goff): when the modulus' top limb is below 2^63 - 1,
/// the running total never needs an extra carry word, so the multiply and reduce steps of
/// each row share one pass. Every cuzk field qualifies (checked by static_assert).
template <size_t N>
constexpr void mont_mul(bigint<N>& out, const bigint<N>& a, const bigint<N>& b, const bigint<N>& p,
                        uint64_t inv) {
#if CUZK_HOST_ADX
    if (!std::is_constant_evaluated()) {
        if constexpr (N == 4) return x86::mont_mul_adx_4(out, a, b, p, inv);
        if constexpr (N == 6) return x86::mont_mul_adx_6(out, a, b, p, inv);
    }
#endif
    uint64_t t[N] = {};
CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) {
        u128 x = u128(a.limb[0]) * b.limb[i] + t[0];
        uint64_t carry_ab = uint64_t(x >> 64);
        const uint64_t m = uint64_t(x) * inv;  // makes the low limb of t + m*p vanish
        x = u128(m) * p.limb[0] + uint64_t(x);
        uint64_t carry_mp = uint64_t(x >> 64);
CUZK_UNROLL
        for (size_t j = 1; j < N; ++j) {
            x = u128(a.limb[j]) * b.limb[i] + t[j] + carry_ab;
            carry_ab = uint64_t(x >> 64);
            x = u128(m) * p.limb[j] + uint64_t(x) + carry_mp;
            carry_mp = uint64_t(x >> 64);
            t[j - 1] = uint64_t(x);  // shifted down one limb: the division by 2^64
        }
        t[N - 1] = carry_ab + carry_mp;
    }
    bigint<N> r{}, d{};
    for (size_t i = 0; i < N; ++i) r.limb[i] = t[i];
    uint64_t borrow = bigint<N>::sub_with_borrow(d, r, p);
    const uint64_t keep = 0 - borrow;  // r < p: keep r (a mask, not a branch: constant time)
    for (size_t i = 0; i < N; ++i) out.limb[i] = (r.limb[i] & keep) | (d.limb[i] & ~keep);
}

/// True when mont_mul's no-carry form is valid for modulus p.
template <size_t N>
constexpr bool no_carry_modulus(const bigint<N>& p) {
    return p.limb[N - 1] < (~uint64_t(0) >> 1) - 1;
}

}  // namespace cuzk::host_arith
