// SPDX-License-Identifier: MIT OR Apache-2.0
// The readers' on-curve test over many points: y^2 = x^3 + b for 8 points at a time with AVX-512
// IFMA where the CPU has it, affine::is_on_curve otherwise.
//
// A zkey reader tests every point of the key; at 2^20 (BN254) that was about half of the read's
// CPU time with the scalar Montgomery products (perf, docs/log/2026-12.md "Reading snarkjs
// keys"). IFMA (vpmadd52luq / vpmadd52huq: the low / high 52 bits of a 52 x 52-bit product added
// to a 64-bit lane) multiplies 8 field elements at once in 52-bit limbs: 5 limbs for BN254's Fp
// (R' = 2^260), 8 for BLS12-381's (R' = 2^416).
//
// The test works on the raw integers of the file (x = X R, y = Y R with R = 2^(64N), cuzk's
// Montgomery form), so it needs no conversion: Y^2 = X^3 + B becomes y^2 / R = x^3 / R^2 + b
// (b = B R, the stored constant) mod p, and with the products m(u, v) = u v / R' of this file:
//
//   m(m(y, y), R mod p)  =  m(m(x, x), x)  +  b R^2 / R'^2        (mod p)
//
// (multiply the first equation by R^2 / R'^2: y^2 R / R'^2 on the left, x^3 / R'^2 on the right).
// In Fp2 = Fp[u]/(u^2 + 1) (both curves' G2) the same with Fp2 products, the real factors R and
// R^2 / R'^2 applying to both coordinates. Products are not reduced below p: with inputs below
// 2p (sums of two canonical values), (u v + m p) / R' < 2p (BN254: u v / R' < 2^250 < p;
// BLS12-381: < 2^348). The two sides are compared through D = left - right + k p, shifted into
// (0, 7p) and carried with signed shifts: the point is on the curve iff D is one of p .. 6p.
//
// Every function is for public data (a key being read): branches and early exits depend on it.
// Elsewhere than x86-64 GCC/Clang, or with CUZK_NO_IFMA defined, only the scalar path is compiled;
// at run time it is taken where the CPU lacks AVX-512 IFMA (checked once, cpuid).
//
// Cost per point, one core of a 2-core development VM (AMD EPYC Zen 5; a loop over
// 4096 points, 200 times): BN254 G1 68 -> 14.5 ns, G2 242 -> 34.6 ns; BLS12-381 G1 111 -> 30 ns,
// G2 356 -> 84 ns (is_on_curve -> this). The 2^20 BN254 zkey read: docs/log/2026-12.md "Reading
// snarkjs keys: the on-curve test 8 points at a time".
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/core/bigint.hpp"
#include "cuzk/field/ifma52.hpp"

namespace cuzk::io {

namespace detail {

/// x / 2^k mod p (p odd), at compile time.
template <size_t N>
constexpr bigint<N> halve_mod(bigint<N> x, const bigint<N>& p, size_t k) {
    for (size_t s = 0; s < k; ++s) {
        uint64_t carry = 0;
        if (x.limb[0] & 1) carry = bigint<N>::add_with_carry(x, x, p);
        for (size_t i = 0; i < N; ++i) x.limb[i] = (x.limb[i] >> 1) | (i + 1 < N ? x.limb[i + 1] << 63 : carry << 63);
    }
    return x;
}

/// The constants of the IFMA test for base field F: the 8-lane products' constants and the
/// curve constant's scaling.
template <class F>
struct ifma_field : ifma52::field_constants<F> {
    using base = ifma52::field_constants<F>;
    using base::L;
    using base::N;
    using typename base::limbs;
    using base::multiple;
    using base::shift;
    using base::split;
    /// v R^2 / R'^2 = v / 2^(2 shift) mod p: the right side's constant for b = v.
    static constexpr limbs scaled(const bigint<N>& v) { return split(halve_mod(v, F::modulus, 2 * shift)); }
    /// k p - scaled(v) limb by limb: a limb may wrap; the carry of the reduction fixes it.
    static constexpr limbs multiple_minus_scaled(uint64_t k, const bigint<N>& v) {
        const limbs kp = multiple(k), sv = scaled(v);
        limbs out{};
        for (size_t j = 0; j < L; ++j) out.v[j] = kp.v[j] - sv.v[j];
        return out;
    }
};

}  // namespace detail

#if CUZK_IFMA

namespace detail {

using namespace ifma52;

/// Lanes where d (carried, in (0, 7p)) is one of p, 2p, .. 6p.
template <size_t L>
CUZK_IFMA_INLINE __mmask8 multiple_of_p(const vec8<L>& d, const vec8<L> (&kp)[6]) {
    __mmask8 any = 0;
    for (size_t k = 0; k < 6; ++k) {
        __mmask8 eq = 0xff;
        for (size_t j = 0; j < L; ++j) eq &= _mm512_cmpeq_epi64_mask(d.v[j], kp[k].v[j]);
        any |= eq;
    }
    return any;
}

/// acc | every limb of c.
template <size_t L>
CUZK_IFMA_INLINE __m512i or_limbs(__m512i acc, const vec8<L>& c) {
    for (size_t j = 0; j < L; ++j) acc = _mm512_or_si512(acc, c.v[j]);
    return acc;
}

/// Lanes whose point is all zeros (the identity), from its coordinates.
template <size_t L, class... V>
CUZK_IFMA_INLINE __mmask8 all_zero(const V&... coords) {
    __m512i acc = _mm512_setzero_si512();
    ((acc = or_limbs(acc, coords)), ...);
    return _mm512_cmpeq_epi64_mask(acc, _mm512_setzero_si512());
}

/// Lanes (of 8 points from pts) on the curve; G1 (coordinates in Fp).
template <class Point>
__attribute__((target("avx512f,avx512ifma"))) __mmask8 on_curve8_g1(const Point* pts) {
    using F = typename Point::field;
    using C = ifma_field<F>;
    constexpr size_t N = C::N, L = C::L;
    constexpr auto pl = C::split(F::modulus);
    constexpr auto r1 = C::r_mod_p;
    // 3p - b R^2/R'^2: D = left - x^3 + 3p - K
    constexpr auto kb = C::multiple_minus_scaled(3, Point::group::b.mont);
    const vec8<L> p = broadcast<L>(pl.v), c1 = broadcast<L>(r1.v), k = broadcast<L>(kb.v);
    const __m512i k0 = _mm512_set1_epi64(int64_t(C::k0));
    constexpr size_t stride = sizeof(Point) / 8;
    const __m512i index = _mm512_set_epi64(7 * stride, 6 * stride, 5 * stride, 4 * stride, 3 * stride, 2 * stride,
                                           stride, 0);
    const uint64_t* base = reinterpret_cast<const uint64_t*>(pts);
    const vec8<L> x = load8<N, L>(base, index), y = load8<N, L>(base + N, index);
    const vec8<L> ysq = mont_mul8(y, y, p, k0), xsq = mont_mul8(x, x, p, k0);
    const vec8<L> left = mont_mul8(ysq, c1, p, k0), xcube = mont_mul8(xsq, x, p, k0);
    vec8<L> d = add(sub(left, xcube), k);
    carry(d);
    vec8<L> kp[6];
    for (size_t m = 0; m < 6; ++m) kp[m] = broadcast<L>(C::multiple(m + 1).v);
    return multiple_of_p(d, kp) | all_zero<L>(x, y);
}

/// Lanes (of 8 points from pts) on the curve; G2 (coordinates in Fp2 with u^2 = -1).
template <class Point>
__attribute__((target("avx512f,avx512ifma"))) __mmask8 on_curve8_g2(const Point* pts) {
    using F = typename Point::field::base;
    using C = ifma_field<F>;
    constexpr size_t N = C::N, L = C::L;
    constexpr auto pl = C::split(F::modulus);
    constexpr auto r1 = C::r_mod_p;
    // D0 = left0 - (x2_0 x0 - x2_1 x1) - K0 + 3p, D1 = left1 - (x2_0 x1 + x2_1 x0) - K1 + 5p: both in (0, 7p).
    constexpr auto k0c = C::multiple_minus_scaled(3, Point::group::b.c0.mont);
    constexpr auto k1c = C::multiple_minus_scaled(5, Point::group::b.c1.mont);
    const vec8<L> p = broadcast<L>(pl.v), c1 = broadcast<L>(r1.v);
    const __m512i k0 = _mm512_set1_epi64(int64_t(C::k0));
    constexpr size_t stride = sizeof(Point) / 8;
    const __m512i index = _mm512_set_epi64(7 * stride, 6 * stride, 5 * stride, 4 * stride, 3 * stride, 2 * stride,
                                           stride, 0);
    const uint64_t* base = reinterpret_cast<const uint64_t*>(pts);
    const vec8<L> x0 = load8<N, L>(base, index), x1 = load8<N, L>(base + N, index);
    const vec8<L> y0 = load8<N, L>(base + 2 * N, index), y1 = load8<N, L>(base + 3 * N, index);
    // y^2 = (y0 + y1)(y0 - y1) + 2 y0 y1 u; inputs below 2p (y0 - y1 + p, 2 y0).
    vec8<L> ys = add(y0, y1), yd = add(sub(y0, y1), p), y2 = add(y0, y0);
    carry(yd);
    carry(ys);
    carry(y2);
    vec8<L> xs = add(x0, x1), xd = add(sub(x0, x1), p), x2 = add(x0, x0);
    carry(xd);
    carry(xs);
    carry(x2);
    const vec8<L> ysq0 = mont_mul8(ys, yd, p, k0), ysq1 = mont_mul8(y2, y1, p, k0);
    const vec8<L> xsq0 = mont_mul8(xs, xd, p, k0), xsq1 = mont_mul8(x2, x1, p, k0);
    const vec8<L> left0 = mont_mul8(ysq0, c1, p, k0), left1 = mont_mul8(ysq1, c1, p, k0);
    const vec8<L> a00 = mont_mul8(xsq0, x0, p, k0), a11 = mont_mul8(xsq1, x1, p, k0);
    const vec8<L> a01 = mont_mul8(xsq0, x1, p, k0), a10 = mont_mul8(xsq1, x0, p, k0);
    vec8<L> d0 = add(add(sub(left0, a00), a11), broadcast<L>(k0c.v));
    vec8<L> d1 = add(sub(sub(left1, a01), a10), broadcast<L>(k1c.v));
    carry(d0);
    carry(d1);
    vec8<L> kp[6];
    for (size_t m = 0; m < 6; ++m) kp[m] = broadcast<L>(C::multiple(m + 1).v);
    return (multiple_of_p(d0, kp) & multiple_of_p(d1, kp)) | all_zero<L>(x0, x1, y0, y1);
}

}  // namespace detail

#endif  // CUZK_IFMA

/// How first_off_curve_vartime tests points.
enum class curve_check_path {
    automatic,  ///< IFMA where the CPU has it and the curve fits, else scalar
    scalar,     ///< affine::is_on_curve, one point at a time
};

namespace detail {

/// Point's base field has 4 or 6 limbs and, for Fp2 coordinates, u^2 = -1: what the IFMA test covers.
template <class Point>
constexpr bool ifma_fits() {
    using field = typename Point::field;
    if constexpr (requires { typename field::base; }) {
        return field::nonresidue == -1 && (field::base::limbs == 4 || field::base::limbs == 6);
    } else {
        return field::limbs == 4 || field::limbs == 6;
    }
}

}  // namespace detail

/// True when first_off_curve_vartime takes the 8-point IFMA path for Point on this CPU.
template <class Point>
bool curve_check_vectorised() {
#if CUZK_IFMA
    if constexpr (detail::ifma_fits<Point>()) return ifma52::cpu_has_ifma();
#endif
    return false;
}

/// The first index i < n with pts[i] not on its curve (y^2 != x^3 + b; the identity, all zeros,
/// is on it), or n. Every coordinate must be below q (the readers check that first). 8 points at a
/// time with AVX-512 IFMA where curve_check_vectorised, the rest one at a time.
template <class Point>
uint64_t first_off_curve_vartime(const Point* pts, uint64_t n, curve_check_path path = curve_check_path::automatic) {
    uint64_t i = 0;
#if CUZK_IFMA
    if constexpr (detail::ifma_fits<Point>()) {
        if (path == curve_check_path::automatic && curve_check_vectorised<Point>()) {
            for (; i + 8 <= n; i += 8) {
                __mmask8 ok;
                if constexpr (requires { pts[0].x.c1; }) ok = detail::on_curve8_g2(pts + i);
                else ok = detail::on_curve8_g1(pts + i);
                if (ok != 0xff) return i + uint64_t(__builtin_ctz(unsigned(~ok) & 0xffu));
            }
        }
    }
#else
    (void)path;
#endif
    for (; i < n; ++i)
        if (!pts[i].is_on_curve()) return i;
    return n;
}

}  // namespace cuzk::io
