// SPDX-License-Identifier: MIT OR Apache-2.0
// 8-lane Montgomery arithmetic with AVX-512 IFMA (vpmadd52luq / vpmadd52huq: the low / high 52
// bits of a 52 x 52-bit product added to a 64-bit lane): 8 field elements at once in L limbs of
// 52 bits, L = 5 for a 4-limb (254/255-bit) field (R' = 2^260), 8 for a 6-limb one (R' = 2^416).
// Used by the readers' on-curve test (io/point_check.hpp) and the host MSM's batch-affine
// additions (msm/batch_affine_ifma.hpp).
//
// mont_mul8(a, b) = a b / R' mod p, not reduced below p: for a < A p and b < B p the result is
// below (A B p / R' + 1) p, so operands of a few p give results of a few p. add and sub work limb
// by limb; carry() brings the limbs back below 2^52, which a product needs.
//
// Elsewhere than x86-64 GCC/Clang, or with CUZK_NO_IFMA defined, only limb52 is compiled
// (CUZK_IFMA is 0); at run time callers take their scalar path where cpu_has_ifma() is false.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/core/bigint.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(CUZK_NO_IFMA)
#define CUZK_IFMA 1
#include <immintrin.h>
#else
#define CUZK_IFMA 0
#endif

namespace cuzk::ifma52 {

/// The bits of one limb.
inline constexpr uint64_t limb_mask = (uint64_t(1) << 52) - 1;

/// Limb i (52 bits) of the integer of `words` 64-bit limbs.
constexpr uint64_t limb52(const uint64_t* w, size_t words, size_t i) {
    const size_t bit = 52 * i, at = bit / 64, shift = bit % 64;
    uint64_t v = at < words ? w[at] >> shift : 0;
    if (shift > 12 && at + 1 < words) v |= w[at + 1] << (64 - shift);
    return v & limb_mask;
}

/// x * k (k small) as N + 1 limbs, the top one last.
template <size_t N>
constexpr bigint<N + 1> times_small(const bigint<N>& x, uint64_t k) {
    bigint<N + 1> out{};
    uint64_t carry = 0;
    for (size_t i = 0; i < N; ++i) {
        const u128 t = u128(x.limb[i]) * k + carry;
        out.limb[i] = uint64_t(t);
        carry = uint64_t(t >> 64);
    }
    out.limb[N] = carry;
    return out;
}

/// Field F (N 64-bit limbs) in L 52-bit limbs: the constants of its 8-lane products.
template <class F>
struct field_constants {
    static constexpr size_t N = F::limbs;
    static constexpr size_t L = (64 * N + 51) / 52;  // 5 for 4 limbs, 8 for 6
    static_assert(N == 4 || N == 6, "the 8-lane products are for 254/255-bit and 381-bit fields");
    /// 52 L - 64 N: R' = R 2^shift.
    static constexpr size_t shift = 52 * L - 64 * N;
    /// -p^-1 mod 2^52.
    static constexpr uint64_t k0 = [] {
        uint64_t inv = 1;  // Newton: inv = p^-1 mod 2^64
        for (int i = 0; i < 7; ++i) inv *= 2 - F::modulus.limb[0] * inv;
        return (0 - inv) & limb_mask;
    }();
    struct limbs {
        uint64_t v[L];
    };
    static constexpr limbs split(const bigint<N>& x) {
        limbs out{};
        for (size_t i = 0; i < L; ++i) out.v[i] = limb52(x.limb, N, i);
        return out;
    }
    /// The integer k x (below 2^(52 L)) in limbs.
    static constexpr limbs times(const bigint<N>& x, uint64_t k) {
        const bigint<N + 1> w = times_small(x, k);
        limbs out{};
        for (size_t i = 0; i < L; ++i) out.v[i] = limb52(w.limb, N + 1, i);
        return out;
    }
    /// k p.
    static constexpr limbs multiple(uint64_t k) { return times(F::modulus, k); }
    /// R mod p.
    static constexpr limbs r_mod_p = split(F::params::r1);
};

}  // namespace cuzk::ifma52

#if CUZK_IFMA

/// Every function here is inlined into a caller compiled for AVX-512 IFMA (a function with
/// __attribute__((target("avx512f,avx512ifma")))), which checked cpu_has_ifma() first.
#define CUZK_IFMA_INLINE __attribute__((target("avx512f,avx512ifma"), always_inline)) inline

namespace cuzk::ifma52 {

// Shifts as GCC vector operations and the gather with an explicit source: GCC 12's intrinsics for
// these start from a self-initialised "undefined" vector, which -Wuninitialized reports wherever
// they are inlined (GCC bug 105593).
using u64x8 = unsigned long long __attribute__((vector_size(64)));
using i64x8 = long long __attribute__((vector_size(64)));
CUZK_IFMA_INLINE __m512i shr(__m512i a, unsigned s) { return __m512i(u64x8(a) >> s); }
CUZK_IFMA_INLINE __m512i shl(__m512i a, unsigned s) { return __m512i(u64x8(a) << s); }
CUZK_IFMA_INLINE __m512i shr_signed(__m512i a, unsigned s) { return __m512i(i64x8(a) >> s); }

/// 8 elements in L limbs of 52 bits, limb j of element k in lane k of v[j].
template <size_t L>
struct vec8 {
    __m512i v[L];
};

template <size_t L>
CUZK_IFMA_INLINE vec8<L> broadcast(const uint64_t (&c)[L]) {
    vec8<L> out;
    for (size_t j = 0; j < L; ++j) out.v[j] = _mm512_set1_epi64(int64_t(c[j]));
    return out;
}

/// Loads one N-limb coordinate of 8 consecutive points (point k at base + k * stride_words) and
/// splits it into 52-bit limbs.
template <size_t N, size_t L>
CUZK_IFMA_INLINE vec8<L> load8(const uint64_t* base, __m512i index) {
    __m512i w[N];
    for (size_t i = 0; i < N; ++i)
        w[i] = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), __mmask8(0xff), index,
                                           reinterpret_cast<const void*>(base + i), 8);
    const __m512i m = _mm512_set1_epi64(int64_t(limb_mask));
    vec8<L> out;
    for (size_t i = 0; i < L; ++i) {
        const size_t bit = 52 * i, at = bit / 64, s = bit % 64;
        __m512i v = at < N ? shr(w[at], unsigned(s)) : _mm512_setzero_si512();
        if (s > 12 && at + 1 < N) v = _mm512_or_si512(v, shl(w[at + 1], unsigned(64 - s)));
        out.v[i] = _mm512_and_si512(v, m);
    }
    return out;
}

/// Carries every limb into the next (signed: limbs may be negative before; the value must not be),
/// leaving limbs below 2^52.
template <size_t L>
CUZK_IFMA_INLINE void carry(vec8<L>& a) {
    const __m512i m = _mm512_set1_epi64(int64_t(limb_mask));
    for (size_t j = 0; j + 1 < L; ++j) {
        a.v[j + 1] = _mm512_add_epi64(a.v[j + 1], shr_signed(a.v[j], 52));
        a.v[j] = _mm512_and_si512(a.v[j], m);
    }
}

template <size_t L>
CUZK_IFMA_INLINE vec8<L> add(const vec8<L>& a, const vec8<L>& b) {
    vec8<L> out;
    for (size_t j = 0; j < L; ++j) out.v[j] = _mm512_add_epi64(a.v[j], b.v[j]);
    return out;
}

template <size_t L>
CUZK_IFMA_INLINE vec8<L> sub(const vec8<L>& a, const vec8<L>& b) {
    vec8<L> out;
    for (size_t j = 0; j < L; ++j) out.v[j] = _mm512_sub_epi64(a.v[j], b.v[j]);
    return out;
}

/// a b / 2^(52 L) mod p, below 2p for a, b below 2p, limbs below 2^52 (carried). Operand scanning:
/// row i adds a_i b, then m p with m = t_0 k0 mod 2^52, which clears t_0's low 52 bits; the row
/// then shifts down one limb, t_0's high bits carried into t_1. A lane holds at most 4 L products'
/// halves (< 2^57): no carries are needed inside the loop.
template <size_t L>
CUZK_IFMA_INLINE vec8<L> mont_mul8(const vec8<L>& a, const vec8<L>& b, const vec8<L>& p, __m512i k0) {
    const __m512i zero = _mm512_setzero_si512();
    __m512i t[L + 1];
    for (size_t j = 0; j <= L; ++j) t[j] = zero;
    for (size_t i = 0; i < L; ++i) {
        for (size_t j = 0; j < L; ++j) {
            t[j] = _mm512_madd52lo_epu64(t[j], a.v[i], b.v[j]);
            t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], a.v[i], b.v[j]);
        }
        const __m512i m = _mm512_madd52lo_epu64(zero, t[0], k0);
        for (size_t j = 0; j < L; ++j) {
            t[j] = _mm512_madd52lo_epu64(t[j], m, p.v[j]);
            t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], m, p.v[j]);
        }
        const __m512i c = shr(t[0], 52);
        for (size_t j = 0; j < L; ++j) t[j] = t[j + 1];
        t[0] = _mm512_add_epi64(t[0], c);
        t[L] = zero;
    }
    vec8<L> out;
    for (size_t j = 0; j < L; ++j) out.v[j] = t[j];
    carry(out);
    return out;
}

/// The CPU runs AVX-512 IFMA (checked once).
inline bool cpu_has_ifma() {
    static const bool has = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma");
    }();
    return has;
}

}  // namespace cuzk::ifma52

#endif  // CUZK_IFMA
