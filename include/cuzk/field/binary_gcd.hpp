// SPDX-License-Identifier: MIT OR Apache-2.0
// Variable-time modular inversion by binary GCD with 31-step batches, host and device.
//
//   bigint<N> y = detail::binary_gcd_inverse(x, p);    // x * y = 1 mod p (x != 0, p odd)
//
// The method of T. Pornin, "Optimized Binary GCD for Modular Inversion" (IACR ePrint 2020/972),
// written from the paper's description: the classic binary GCD on (a, b) = (x, p) keeps
// a = u x and b = v x (mod p); 31 of its steps are run at a time on 64-bit stand-ins for a and
// b (their low 31 bits, exact, and their top 33 bits), recording the steps as a 2x2 matrix of
// small signed integers, which is then applied once to the full-width a, b, u and v. The low
// bits decide every parity exactly, so the new a and b are exact multiples of 2^31; the top bits
// only steer the comparisons, and a comparison they get wrong costs a sign flip, not a wrong
// result. About 2 * bits / 31 + 2 batches (25 for a 381-bit prime) instead of the ~450
// multiplications of Fermat's a^(p-2).
//
// Time depends on the value: use it for public data (MSM buckets, setup, verification);
// mont_field::inverse() (Fermat) stays the constant-time choice for secrets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "cuzk/core/bigint.hpp"

namespace cuzk::detail {

/// Leading zero bits of a non-zero 64-bit word.
CUZK_HD constexpr unsigned clz64(uint64_t x) {
#if CUZK_DEVICE_CODE
    if (!std::is_constant_evaluated()) return unsigned(__clzll(static_cast<long long>(x)));
#endif
    unsigned n = 0;
    while ((x >> 63) == 0) {
        x <<= 1;
        ++n;
    }
    return n;
}

/// An (N+1)-limb two's-complement integer: the full-width values of one batch update.
template <size_t N>
struct wide_signed {
    uint64_t limb[N + 1];

    CUZK_HD constexpr bool negative() const { return (limb[N] >> 63) != 0; }
    CUZK_HD constexpr void negate() {
        uint64_t c = 1;
        for (size_t i = 0; i <= N; ++i) c = add_carry(limb[i], ~limb[i], 0, c);
    }
    /// Arithmetic shift right by s in (0, 64).
    CUZK_HD constexpr void shift_right(unsigned s) {
        for (size_t i = 0; i < N; ++i) limb[i] = (limb[i] >> s) | (limb[i + 1] << (64 - s));
        limb[N] = uint64_t(int64_t(limb[N]) >> s);
    }
    /// The low N limbs (the caller knows the value is in [0, 2^(64N))).
    CUZK_HD constexpr bigint<N> low() const {
        bigint<N> r{};
        for (size_t i = 0; i < N; ++i) r.limb[i] = limb[i];
        return r;
    }
};

/// f * x as a wide signed value, for |f| < 2^63.
template <size_t N>
CUZK_HD constexpr wide_signed<N> scaled(const bigint<N>& x, int64_t f) {
    const uint64_t m = f < 0 ? uint64_t(0) - uint64_t(f) : uint64_t(f);
    wide_signed<N> r{};
    uint64_t carry = 0;
    for (size_t i = 0; i < N; ++i) {
        const u128 t = u128(x.limb[i]) * m + carry;
        r.limb[i] = uint64_t(t);
        carry = uint64_t(t >> 64);
    }
    r.limb[N] = carry;
    if (f < 0) r.negate();
    return r;
}

/// f * x + g * y (both products fit: |f|, |g| <= 2^31 and x, y < 2^(64N)).
template <size_t N>
CUZK_HD constexpr wide_signed<N> combine(const bigint<N>& x, int64_t f, const bigint<N>& y, int64_t g) {
    wide_signed<N> a = scaled(x, f);
    const wide_signed<N> b = scaled(y, g);
    uint64_t c = 0;
    for (size_t i = 0; i <= N; ++i) c = add_carry(a.limb[i], a.limb[i], b.limb[i], c);
    return a;
}

/// The 64-bit stand-in of x for a batch: exact below 2^(64) when n <= 64, otherwise x's top 33
/// bits (below bit n) above its low 31 bits.
template <size_t N>
CUZK_HD constexpr uint64_t approximation(const bigint<N>& x, unsigned n) {
    if (n <= 64) return x.limb[0];
    const unsigned lo = n - 64, w = lo / 64, b = lo % 64;  // the 64-bit window [n - 64, n)
    uint64_t top = x.limb[w] >> b;
    if (b != 0 && w + 1 < N) top |= x.limb[w + 1] << (64 - b);
    return ((top >> 31) << 31) | (x.limb[0] & 0x7fffffffu);
}

template <size_t N>
CUZK_HD constexpr unsigned bit_length(const bigint<N>& x) {
    for (size_t i = N; i-- > 0;)
        if (x.limb[i] != 0) return unsigned(64 * i + 64 - clz64(x.limb[i]));
    return 0;
}

/// The batches binary_gcd_inverse allows itself before giving up (it never needed more than
/// 2 * bits / 31 + 2 in testing; see the tests). Giving up returns false: callers fall back.
template <size_t N>
inline constexpr unsigned binary_gcd_max_batches = (2 * 64 * N) / 31 + 4;

/// y with x * y = 1 mod p, for 0 < x < p, p odd, p < 2^(64N - 1). Returns false (y untouched)
/// only if the batch bound above is exceeded, which the analysis says cannot happen; `batches`
/// (optional) receives the number of batches used.
template <size_t N>
CUZK_HD constexpr bool binary_gcd_inverse(bigint<N>& y, const bigint<N>& x, const bigint<N>& p,
                                          unsigned* batches = nullptr) {
    // -p^-1 mod 2^31 (Newton), to divide u and v by 2^31 modulo p (a Montgomery step).
    uint64_t pinv = 1;
    for (int i = 0; i < 5; ++i) pinv *= 2 - p.limb[0] * pinv;
    const uint64_t neg_pinv31 = (uint64_t(0) - pinv) & 0x7fffffffu;

    bigint<N> a = x, b = p, u = bigint<N>::from_u64(1), v{};
    for (unsigned batch = 0; batch < binary_gcd_max_batches<N>; ++batch) {
        if (a.is_zero()) {  // b = gcd(x, p) = 1 and v x = b
            y = v;
            if (batches != nullptr) *batches = batch;
            return true;
        }
        const unsigned ba = bit_length(a), bb = bit_length(b), n = ba > bb ? ba : bb;
        uint64_t a_ = approximation(a, n), b_ = approximation(b, n);
        // 31 steps on the stand-ins: a_ 2^31 = f0 a + g0 b and b_ 2^31 = f1 a + g1 b afterwards.
        int64_t f0 = 1, g0 = 0, f1 = 0, g1 = 1;
        for (int step = 0; step < 31; ++step) {
            if (a_ & 1) {
                if (a_ < b_) {
                    const uint64_t t = a_;
                    a_ = b_;
                    b_ = t;
                    int64_t s = f0;
                    f0 = f1;
                    f1 = s;
                    s = g0;
                    g0 = g1;
                    g1 = s;
                }
                a_ -= b_;
                f0 -= f1;
                g0 -= g1;
            }
            a_ >>= 1;
            f1 *= 2;
            g1 *= 2;
        }
        // Apply the matrix to the full values; a stand-in's wrong guess shows as a negative value.
        wide_signed<N> na = combine(a, f0, b, g0), nb = combine(a, f1, b, g1);
        na.shift_right(31);
        nb.shift_right(31);
        if (na.negative()) {
            na.negate();
            f0 = -f0;
            g0 = -g0;
        }
        if (nb.negative()) {
            nb.negate();
            f1 = -f1;
            g1 = -g1;
        }
        a = na.low();
        b = nb.low();
        // u, v <- (f u + g v) / 2^31 mod p, each back in [0, p).
        auto update = [&](int64_t f, int64_t g) {
            wide_signed<N> w = combine(u, f, v, g);
            const uint64_t q = (w.limb[0] * neg_pinv31) & 0x7fffffffu;  // w + q p = 0 mod 2^31
            const wide_signed<N> qp = scaled(p, int64_t(q));
            uint64_t c = 0;
            for (size_t i = 0; i <= N; ++i) c = add_carry(w.limb[i], w.limb[i], qp.limb[i], c);
            w.shift_right(31);  // now in (-p, 2p)
            bigint<N> r = w.low();
            if (w.negative()) {
                r = r + p;
            } else if (r >= p) {
                r = r - p;
            }
            return r;
        };
        const bigint<N> nu = update(f0, g0), nv = update(f1, g1);
        u = nu;
        v = nv;
    }
    return false;
}

}  // namespace cuzk::detail
