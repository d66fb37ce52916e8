// SPDX-License-Identifier: MIT OR Apache-2.0
// Endomorphism splits of MSM scalars (GLV on G1, GLS on G2), for the host MSM.
//
// A group with an efficient endomorphism endo that acts on the order-r group as [lambda] lets a
// scalar k < r be written as short parts k = k_0 + k_1 lambda_1 + ... (mod r), so that
//   [k]P = [k_0]P + [k_1]Q_1 + ...        with Q_j = [lambda_j]P computed by the endomorphism.
// An MSM over n points with b-bit scalars becomes one over parts * n points with ~b / parts-bit
// scalars (msm_host's `split` option). Two ways to find the parts, picked by the group config:
//
//  - base e (groups with eigenvalue_abs, ec/group_config.hpp: BLS12-381 G1 with e = x^2, BLS12-381
//    G2 with e = |x|, BN254 G2 with e = 6u^2 = p mod r): [e]P = +-endo(P), so the digits of k in
//    base E = e^stride are parts (stride: the least that makes `parts` digits cover r), and
//    Q_j = (+-endo)^(stride j)(P). The digits are balanced: k > (r - 1) / 2 is replaced by r - k
//    with every part negated, and each low digit is taken in (-E/2, E/2] (a remainder above E/2
//    becomes rem - E with a carry into the next digit), so the low parts have at most
//    bits(floor(E / 2)) bits and the top one is at most floor((r - 1) / 2 / E^(parts - 1)) + 1:
//    127 bits for the 2-part splits (BLS12-381 x^2 = 0xac45...: 128 bits unbalanced), 63 for the
//    4 parts of BLS12-381 G2 (|x| = 0xd201...). One bit less is one window less where the window
//    width divides the bits (c = 16: 8 windows instead of 9 for 2^18 points and up).
//  - lattice (groups with glv_lambda and a reduced basis glv_a1, glv_b1, glv_a2, glv_b2: BN254 G1,
//    whose lambda is a 192-bit cube root of unity): Babai rounding (GLV, CRYPTO 2001, section 4)
//    with the rounding done by precomputed reciprocals, c1 = round(k g1 / 2^256),
//    c2 = round(k g2 / 2^256) with g1 = floor(2^256 b2 / r), g2 = floor(2^256 b1 / r); then
//    k1 = k - c1 a1 - c2 a2, k2 = c1 b1 - c2 b2 (basis (a1, -b1), (a2, b2)). The exact ratios give
//    k1 = k2 = 0, so with delta_i = (exact ratio) - c_i in [-1/2, 1/2 + k / 2^256) (the floor in
//    g_i costs at most k / 2^256): |k1| <= 3/4 (a1 + a2) and |k2| <= 3/4 (b1 + b2), below 2^127
//    for BN254 (a1 + a2 = b1 + b2 = 6u^2 + 6u + 2 < 1.48 * 10^38); both parts are signed.
// tests/test_msm_host.cpp checks every bound on edge and random scalars and recomposes the parts.
//
// Host only (unsigned __int128 products); the integer work is a few 4 x 4-limb products per scalar.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "cuzk/core/bigint.hpp"
#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/endomorphism.hpp"
#include "cuzk/ec/group_config.hpp"

namespace cuzk::msm {

/// One part of a split scalar: |part| and its sign (a negative part negates its point).
template <size_t N>
struct split_part {
    bigint<N> magnitude;
    bool negative;
};

/// The group config supplies the GLV lattice (phi with glv_lambda and a reduced basis).
template <class G>
concept has_glv_lattice = has_phi<G> && requires {
    G::glv_lambda;
    G::glv_a1;
    G::glv_b1;
    G::glv_a2;
    G::glv_b2;
};

namespace detail {

/// a * b, full width.
template <size_t NA, size_t NB>
constexpr bigint<NA + NB> mul_wide(const bigint<NA>& a, const bigint<NB>& b) {
    bigint<NA + NB> r{};
    for (size_t i = 0; i < NA; ++i) {
        uint64_t carry = 0;
        for (size_t j = 0; j < NB; ++j) {
            const u128 t = u128(a.limb[i]) * b.limb[j] + r.limb[i + j] + carry;
            r.limb[i + j] = uint64_t(t);
            carry = uint64_t(t >> 64);
        }
        r.limb[i + NB] = carry;
    }
    return r;
}

/// a * b mod 2^(64 N) (b may be narrower).
template <size_t N, size_t NB>
constexpr bigint<N> mul_low(const bigint<N>& a, const bigint<NB>& b) {
    bigint<N> r{};
    for (size_t i = 0; i < N; ++i) {
        uint64_t carry = 0;
        for (size_t j = 0; j < NB && i + j < N; ++j) {
            const u128 t = u128(a.limb[i]) * b.limb[j] + r.limb[i + j] + carry;
            r.limb[i + j] = uint64_t(t);
            carry = uint64_t(t >> 64);
        }
        if (i + NB < N) r.limb[i + NB] = carry;
    }
    return r;
}

/// floor(a * b / 2^(64 N)): the high N limbs of the product.
template <size_t N>
constexpr bigint<N> mul_high(const bigint<N>& a, const bigint<N>& b) {
    const bigint<2 * N> p = mul_wide(a, b);
    bigint<N> r{};
    for (size_t i = 0; i < N; ++i) r.limb[i] = p.limb[N + i];
    return r;
}

/// Widens (or narrows, when the value fits) an integer to M limbs.
template <size_t M, size_t N>
constexpr bigint<M> resize(const bigint<N>& x) {
    bigint<M> r{};
    for (size_t i = 0; i < (M < N ? M : N); ++i) r.limb[i] = x.limb[i];
    return r;
}

/// floor(x / d), bit-serial (for compile-time constants).
template <size_t N>
constexpr bigint<N> div_slow(const bigint<N>& x, const bigint<N>& d) {
    bigint<N> q{}, rem{};
    for (size_t i = x.num_bits(); i-- > 0;) {
        const bool top = rem.bit(64 * N - 1);
        rem = rem.shl(1);
        rem.limb[0] |= uint64_t(x.bit(i));
        if (top || rem >= d) {
            rem = rem - d;
            q.limb[i / 64] |= uint64_t(1) << (i % 64);
        }
    }
    return q;
}

/// floor(num * 2^(64 N) / den), which must fit in N limbs (for compile-time constants).
template <size_t N>
constexpr bigint<N> div_shifted(const bigint<N>& num, const bigint<N>& den) {
    const bigint<2 * N> q = div_slow(resize<2 * N>(num).shl(64 * N), resize<2 * N>(den));
    for (size_t i = N; i < 2 * N; ++i)
        if (q.limb[i] != 0) throw "div_shifted: the quotient does not fit";
    return resize<N>(q);
}

/// e^k (must fit in N limbs).
template <size_t N>
constexpr bigint<N> pow_small(const bigint<N>& e, unsigned k) {
    bigint<N> r = bigint<N>::from_u64(1);
    for (unsigned i = 0; i < k; ++i) {
        const bigint<2 * N> p = mul_wide(r, e);
        for (size_t j = N; j < 2 * N; ++j)
            if (p.limb[j] != 0) throw "pow_small: overflow";
        r = resize<N>(p);
    }
    return r;
}

/// The stride s of a Parts-digit split in base e^s (e = G::eigenvalue_abs): the least s whose top
/// digit floor((r - 1) / e^(s (Parts - 1))) has no more bits than e^s, so that every digit fits in
/// the bits of the base; 0 when there is none or when the base is wider than half a scalar.
template <class G, unsigned Parts>
constexpr unsigned base_split_stride() {
    using integer = typename G::scalar::integer;
    constexpr size_t N = integer::limbs;
    const integer r = G::scalar::modulus, e = resize<N>(G::eigenvalue_abs);
    if (Parts < 2) return 0;
    for (unsigned s = 1; e.num_bits() * s <= 32 * N; ++s) {
        if (e.num_bits() * s * (Parts - 1) > r.num_bits()) return 0;
        const integer top = div_slow(r - integer::from_u64(1), pow_small(e, s * (Parts - 1)));
        if (top.num_bits() <= pow_small(e, s).num_bits()) return s;
    }
    return 0;
}

}  // namespace detail

/// The endomorphism split of group G's scalars into Parts parts; see the top of this file.
/// Members: parts, part_bits (every |part| < 2^part_bits), split(k) for k < r, image(P, j) = Q_j.
template <class G, unsigned Parts>
struct endomorphism_split;

/// The lattice split (BN254 G1): 2 signed parts of at most 127 bits.
template <class G>
    requires has_glv_lattice<G>
struct endomorphism_split<G, 2> {
    using integer = typename G::scalar::integer;
    static constexpr size_t N = integer::limbs;
    static constexpr unsigned parts = 2;

    static constexpr integer r = G::scalar::modulus;
    static constexpr integer a1 = detail::resize<N>(G::glv_a1), b1 = detail::resize<N>(G::glv_b1);
    static constexpr integer a2 = detail::resize<N>(G::glv_a2), b2 = detail::resize<N>(G::glv_b2);
    static constexpr integer g1 = detail::div_shifted(b2, r), g2 = detail::div_shifted(b1, r);
    static_assert(detail::mul_wide(a1, b2) + detail::mul_wide(b1, a2) == detail::resize<2 * N>(r),
                  "the GLV basis has determinant r");
    static_assert(r.num_bits() <= 64 * N - 2, "the bound of the parts needs k < 2^(64N - 2)");
    /// 3/4 x + 1 >= (1/2 + k / 2^(64N)) x: the bound of a part from the sum x of its basis entries.
    static constexpr integer bound(const integer& x) { return x.shr(1) + x.shr(2) + integer::from_u64(1); }
    static constexpr unsigned part_bits = unsigned(
        bound(a1 + a2).num_bits() > bound(b1 + b2).num_bits() ? bound(a1 + a2).num_bits() : bound(b1 + b2).num_bits());
    static_assert(2 * part_bits < 64 * N, "the parts are short");

    /// round(k g / 2^(64N)).
    static integer mul_high_rounded(const integer& k, const integer& g) {
        bigint<2 * N> p = detail::mul_wide(k, g);
        bigint<2 * N> half{};
        half.limb[N - 1] = uint64_t(1) << 63;
        p = p + half;
        integer r{};
        for (size_t i = 0; i < N; ++i) r.limb[i] = p.limb[N + i];
        return r;
    }
    static split_part<N> signed_part(const integer& x) {  // x in two's complement
        const bool neg = (x.limb[N - 1] >> 63) != 0;
        return {neg ? integer{} - x : x, neg};
    }

    /// The parts of k (k < r).
    static std::array<split_part<N>, 2> split(const integer& k) {
        const integer c1 = mul_high_rounded(k, g1), c2 = mul_high_rounded(k, g2);
        const integer k1 = k - detail::mul_low(c1, a1) - detail::mul_low(c2, a2);  // mod 2^(64N)
        const integer k2 = detail::mul_low(c1, b1) - detail::mul_low(c2, b2);
        return {signed_part(k1), signed_part(k2)};
    }

    /// Q_(j+1) from Q_j: phi, [lambda].
    static affine<G> next(const affine<G>& q) { return phi(q); }
    /// Q_0 = P, Q_1 = phi(P) = [lambda]P.
    static affine<G> image(const affine<G>& p, unsigned j) { return j == 0 ? p : phi(p); }
};

/// The base-e split (groups with eigenvalue_abs): Parts digits in base E = e^stride.
template <class G, unsigned Parts>
    requires(has_eigenvalue_test<G> && !has_glv_lattice<G> && detail::base_split_stride<G, Parts>() != 0)
struct endomorphism_split<G, Parts> {
    using integer = typename G::scalar::integer;
    static constexpr size_t N = integer::limbs;
    static constexpr unsigned parts = Parts;
    static constexpr integer r = G::scalar::modulus;
    static constexpr integer e = detail::resize<N>(G::eigenvalue_abs);

    static constexpr unsigned stride = detail::base_split_stride<G, Parts>();
    static constexpr integer E = detail::pow_small(e, stride);  // the base
    static constexpr integer half_r = (r - integer::from_u64(1)).shr(1), half_E = E.shr(1);
    /// The largest top digit: floor(half_r / E^(Parts - 1)) + 1 (the carries of the balanced digits).
    static constexpr integer top_max =
        detail::div_slow(half_r, detail::pow_small(E, Parts - 1)) + integer::from_u64(1);
    /// Every part is at most 2^part_bits - 1: the low ones are at most E / 2, the top one top_max.
    static constexpr unsigned part_bits = unsigned(
        half_E.num_bits() > top_max.num_bits() ? half_E.num_bits() : top_max.num_bits());
    static_assert(2 * part_bits < 64 * N, "the parts are short");
    /// floor(2^(64N) / E): q_est = floor(k m / 2^(64N)) is at most 2 below floor(k / E).
    static constexpr integer m = detail::div_shifted(integer::from_u64(1), E);

    /// The balanced base-E digits of k (k < r), lowest first.
    static std::array<split_part<N>, Parts> split(const integer& k) {
        std::array<split_part<N>, Parts> out{};
        const bool flip = k > half_r;  // [k]P = -[r - k]P
        integer rest = flip ? r - k : k;
        for (unsigned j = 0; j + 1 < Parts; ++j) {
            integer q = detail::mul_high(rest, m);
            integer rem = rest - detail::mul_low(q, E);
            while (rem >= E) {
                rem = rem - E;
                q = q + integer::from_u64(1);
            }
            if (rem > half_E) {  // rem - E in (-E/2, 0): magnitude E - rem, carry one into q
                out[j] = {E - rem, !flip};
                q = q + integer::from_u64(1);
            } else {
                out[j] = {rem, flip};
            }
            rest = q;
        }
        out[Parts - 1] = {rest, flip};
        return out;
    }

    /// Q_(j+1) = [E]Q_j = (+-endo)^stride(Q_j).
    static affine<G> next(const affine<G>& q) {
        affine<G> t = q;
        for (unsigned i = 0; i < stride; ++i) {
            if constexpr (has_phi<G>) {
                t = phi(t);
            } else {
                t = psi(t);
            }
            if constexpr (G::eigenvalue_negative) t = -t;
        }
        return t;
    }
    /// Q_j = [E^j]P.
    static affine<G> image(const affine<G>& p, unsigned j) {
        affine<G> q = p;
        for (unsigned i = 0; i < j; ++i) q = next(q);
        return q;
    }
};

/// The group has an endomorphism split with this many parts.
template <class G, unsigned Parts>
concept has_endomorphism_split = requires { endomorphism_split<G, Parts>::parts; };

}  // namespace cuzk::msm
