// SPDX-License-Identifier: MIT OR Apache-2.0
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
/// mont_mul_portable is the C++ form (also the constant-evaluated one); mont_mul picks the x86
/// ADX form at run time where the compiler targets it.
template <size_t N>
constexpr void mont_mul_portable(bigint<N>& out, const bigint<N>& a, const bigint<N>& b, const bigint<N>& p,
                                 uint64_t inv) {
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
    reduce_once(out, t, p);
}

/// out = a * b / 2^(64N) mod p: mont_mul_portable, or the x86 ADX form at run time.
template <size_t N>
constexpr void mont_mul(bigint<N>& out, const bigint<N>& a, const bigint<N>& b, const bigint<N>& p, uint64_t inv) {
#if CUZK_HOST_ADX
    if (!std::is_constant_evaluated()) {
        if constexpr (N == 4) return x86::mont_mul_adx_4(out, a, b, p, inv);
        if constexpr (N == 6) return x86::mont_mul_adx_6(out, a, b, p, inv);
    }
#endif
    mont_mul_portable(out, a, b, p, inv);
}

/// out = a^2 / 2^(64N) mod p: a dedicated Montgomery squaring (inv = -p^-1 mod 2^64).
///
/// The 2N-limb square first, as rows a_i (a_i + 2^64 D_i) at limb 2i, D_i = 2 floor(a / 2^(64(i+1)))
/// (limbs 2 a_{i+1}, then those of 2a): each cross product a_i a_j (i < j) once, already doubled,
/// and no shift pass. 2a fits N limbs: a < p < 2^(64N-1) (no_carry_modulus). Then N reduction
/// rows on the low half (m = t_0 * inv makes the low limb of t + m p vanish; the row shifts down
/// one limb) and the high half added: N(N+1)/2 + N^2 products against mont_mul's 2N^2. The sum
/// (a^2 + M p) / 2^(64N) is below 2p.
template <size_t N>
constexpr void mont_sqr_portable(bigint<N>& out, const bigint<N>& a, const bigint<N>& p, uint64_t inv) {
    uint64_t a2[N] = {};  // the limbs of 2a
CUZK_UNROLL
    for (size_t j = 1; j < N; ++j) a2[j] = (a.limb[j] << 1) | (a.limb[j - 1] >> 63);
    uint64_t w[2 * N] = {};
CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) {  // row i: words 2i .. i+N
        u128 x = u128(a.limb[i]) * a.limb[i] + w[2 * i];
        w[2 * i] = uint64_t(x);
        uint64_t carry = uint64_t(x >> 64);
CUZK_UNROLL
        for (size_t j = i + 1; j < N; ++j) {
            const uint64_t m = j == i + 1 ? a.limb[j] << 1 : a2[j];  // 2 a_{i+1} without a_i's bit
            x = u128(a.limb[i]) * m + w[i + j] + carry;
            w[i + j] = uint64_t(x);
            carry = uint64_t(x >> 64);
        }
        w[i + N] = carry;
    }
    uint64_t t[N];
    for (size_t i = 0; i < N; ++i) t[i] = w[i];
CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) {  // reduction rows on the low half
        const uint64_t m = t[0] * inv;
        u128 x = u128(m) * p.limb[0] + t[0];
        uint64_t c = uint64_t(x >> 64);
CUZK_UNROLL
        for (size_t j = 1; j < N; ++j) {
            x = u128(m) * p.limb[j] + t[j] + c;
            t[j - 1] = uint64_t(x);  // shifted down one limb: the division by 2^64
            c = uint64_t(x >> 64);
        }
        t[N - 1] = c;
    }
    uint64_t c = 0;
    for (size_t i = 0; i < N; ++i) c = add_carry(t[i], t[i], w[N + i], c);  // no carry out: below 2p
    reduce_once(out, t, p);
}

/// out = a^2 / 2^(64N) mod p: what mont_field::square runs on the host. The x86 ADX squarings
/// where the compiler targets them; otherwise mont_sqr_portable for 6 limbs and the portable
/// multiplication for 4, where the compilers' code for the squaring is not reliably faster
/// (square_portable vs mul_portable on Zen 5, bench_field and a loop of 8 chains: 4 limbs GCC 12
/// 6% faster to 2% slower, clang 14 5-9% slower; 6 limbs GCC 10-11% faster, clang equal).
template <size_t N>
constexpr void mont_sqr(bigint<N>& out, const bigint<N>& a, const bigint<N>& p, uint64_t inv) {
#if CUZK_HOST_ADX
    if (!std::is_constant_evaluated()) {
        if constexpr (N == 4) return x86::mont_sqr_adx_4(out, a, p, inv);
        if constexpr (N == 6) return x86::mont_sqr_adx_6(out, a, p, inv);
    }
#endif
    if constexpr (N >= 6) {
        mont_sqr_portable(out, a, p, inv);
    } else {
        mont_mul_portable(out, a, a, p, inv);
    }
}

/// True when mont_mul's no-carry form is valid for modulus p.
template <size_t N>
constexpr bool no_carry_modulus(const bigint<N>& p) {
    return p.limb[N - 1] < (~uint64_t(0) >> 1) - 1;
}

}  // namespace cuzk::host_arith
