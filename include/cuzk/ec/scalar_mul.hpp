// SPDX-License-Identifier: MIT OR Apache-2.0
// Scalar multiplication [k]P in Jacobian coordinates, for every curve group.
//
//   mul(P, k)          constant time: fixed 4-bit windows, table lookups by masking every
//                      entry, exceptional cases of the addition selected without branches.
//                      For secret scalars (the prover's randomisers r, s).
//   mul_vartime(P, k)  width-5 wNAF: fewer additions, time depends on k. For public scalars
//                      (verification, cofactor maps, tests).
//   mul_sparse_vartime(P, k)
//                      plain NAF from an affine P, nothing precomputed: for public constants
//                      with few non-zero digits (the subgroup tests).
//   mul_subgroup_vartime(P, k)
//                      for P in the prime-order subgroup only: splits k into base-e digits
//                      where the endomorphism (phi on BLS12-381 G1, psi on the G2s) acts as
//                      [+-e], and runs one interleaved wNAF over 2-4 short scalars (GLV/GLS):
//                      64 doublings instead of 255 on BLS12-381 G2. Falls back to mul_vartime
//                      for groups without such an endomorphism (BN254 G1).
// All work on host and device (no allocation, no exceptions); on the device they are calls
// (CUZK_HD_OUTLINE), not inlined: each is tens of point operations' worth of code.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/core/bigint.hpp"
#include "cuzk/core/hd.hpp"
#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/ct_select.hpp"
#include "cuzk/ec/endomorphism.hpp"
#include "cuzk/ec/group_config.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/outline.hpp"

// Loops whose body is a whole point operation stay rolled on the device: unrolling them
// multiplies code size (and nvcc compile time) for no gain, since each iteration is thousands
// of instructions anyway.
#if CUZK_DEVICE_CODE
#define CUZK_EC_ROLLED _Pragma("unroll 1")
#else
#define CUZK_EC_ROLLED
#endif

namespace cuzk {

namespace detail {


/// P + Q without secret-dependent branches: the generic add-2007-bl result, 2P, P, Q and the
/// identity are all computed or available, and the right one is selected by masks.
/// (When P == -Q the generic formula already yields Z3 = 0, i.e. the identity.)
template <class G>
CUZK_HD_OUTLINE jacobian<G> add_ct(const jacobian<G>& p, const jacobian<G>& q) {
    using field = typename G::field;
    field z1z1 = p.z.square();
    field z2z2 = q.z.square();
    field u1 = p.x * z2z2;
    field u2 = q.x * z1z1;
    field s1 = p.y * q.z * z2z2;
    field s2 = q.y * p.z * z1z1;
    field h = u2 - u1;
    field rr = (s2 - s1).dbl();
    field i = h.dbl().square();
    field j = h * i;
    field v = u1 * i;
    jacobian<G> sum{};
    sum.x = rr.square() - j - v.dbl();
    sum.y = rr * (v - sum.x) - (s1 * j).dbl();
    sum.z = ((p.z + q.z).square() - z1z1 - z2z2) * h;
    jacobian<G> twice = dbl_outline(p);
    // ct_is_zero, not is_zero/is_identity: those are && over the Fp2 coordinates on G2, a branch.
    const bool p_inf = ct_is_zero(p.z);
    const bool q_inf = ct_is_zero(q.z);
    const bool same = ct_is_zero(h) & ct_is_zero(rr) & !p_inf & !q_inf;
    jacobian<G> r = ct_select(sum, twice, same);
    r = ct_select(r, p, q_inf);
    r = ct_select(r, q, p_inf);
    return r;
}

/// Width-w non-adjacent form of k: digits d_i odd or zero, |d_i| < 2^(w-1), k = sum d_i 2^i.
/// Writes up to 64 N + 1 digits and returns how many.
template <size_t N>
CUZK_HD constexpr size_t wnaf(int8_t* digits, const bigint<N>& k_in, unsigned w) {
    bigint<N + 1> k{};
    for (size_t i = 0; i < N; ++i) k.limb[i] = k_in.limb[i];
    const uint64_t full = uint64_t(1) << w, half = full >> 1;
    size_t n = 0;
    while (!k.is_zero()) {
        int8_t d = 0;
        if (k.is_odd()) {
            uint64_t m = k.limb[0] & (full - 1);
            if (m >= half) {  // negative digit m - 2^w: k += 2^w - m
                d = int8_t(int64_t(m) - int64_t(full));
                bigint<N + 1>::add_with_carry(k, k, bigint<N + 1>::from_u64(full - m));
            } else {
                d = int8_t(m);
                bigint<N + 1>::sub_with_borrow(k, k, bigint<N + 1>::from_u64(m));
            }
        }
        digits[n++] = d;
        k = k.shr(1);
    }
    return n;
}

}  // namespace detail

/// [k]P for a secret scalar, in constant time (fixed 4-bit windows over all bits of the
/// scalar field, a 16-entry table read in full at every step, branch-free additions).
template <class G>
CUZK_HD_OUTLINE jacobian<G> mul(const jacobian<G>& p, const typename G::scalar& k) {
    using scalar = typename G::scalar;
    constexpr size_t window = 4;
    constexpr size_t windows = (scalar::modulus_bits + window - 1) / window;
    jacobian<G> table[1 << window];
    table[0] = jacobian<G>::identity();
    table[1] = p;
    CUZK_EC_ROLLED
    for (size_t i = 2; i < (1 << window); ++i) table[i] = detail::add_ct(table[i - 1], p);
    const auto e = k.to_canonical();
    jacobian<G> acc = jacobian<G>::identity();
    CUZK_EC_ROLLED
    for (size_t w = windows; w-- > 0;) {
        CUZK_EC_ROLLED
        for (size_t i = 0; i < window; ++i) acc = detail::dbl_outline(acc);
        const uint32_t digit = e.bits_at(window * w, window);
        jacobian<G> t = table[0];
        for (uint32_t i = 1; i < (1u << window); ++i) t = ct_select(t, table[i], i == digit);
        acc = detail::add_ct(acc, t);
    }
    return acc;
}
template <class G>
CUZK_HD jacobian<G> mul(const affine<G>& p, const typename G::scalar& k) {
    return mul(jacobian<G>::from_affine(p), k);
}

/// [k]P for a public integer k of any width (k need not be below r), by width-5 wNAF.
template <class G, size_t N>
CUZK_HD_OUTLINE constexpr jacobian<G> mul_vartime(const jacobian<G>& p, const bigint<N>& k) {
    constexpr unsigned w = 5;
    jacobian<G> odd[1 << (w - 2)];  // P, 3P, 5P, ..., 15P
    odd[0] = p;
    const jacobian<G> p2 = detail::dbl_outline(p);
    CUZK_EC_ROLLED
    for (size_t i = 1; i < (1 << (w - 2)); ++i) odd[i] = detail::add_outline(odd[i - 1], p2);
    int8_t digits[64 * N + 1] = {};
    size_t n = detail::wnaf(digits, k, w);
    jacobian<G> acc = jacobian<G>::identity();
    CUZK_EC_ROLLED
    for (size_t i = n; i-- > 0;) {
        acc = detail::dbl_outline(acc);
        const int d = digits[i];
        if (d == 0) continue;
        jacobian<G> t = odd[(d > 0 ? d : -d) / 2];  // |d| odd: index (|d| - 1) / 2
        acc = detail::add_outline(acc, d > 0 ? t : -t);
    }
    return acc;
}
template <class G, size_t N>
CUZK_HD constexpr jacobian<G> mul_vartime(const affine<G>& p, const bigint<N>& k) {
    return mul_vartime(jacobian<G>::from_affine(p), k);
}
/// [k]P for a public k with few non-zero NAF digits (the subgroup tests' constants: BLS12-381's
/// |x| has 6 in 65, x^2 17 in 129): plain NAF, mixed additions of P or -P, nothing precomputed.
/// mul_vartime's 8 precomputed multiples (1 doubling, 7 full additions) cost more than they save
/// on such a k.
template <class G, size_t N>
CUZK_HD_OUTLINE constexpr jacobian<G> mul_sparse_vartime(const affine<G>& p, const bigint<N>& k) {
    int8_t digits[64 * N + 1] = {};
    const size_t n = detail::wnaf(digits, k, 2);
    const affine<G> minus_p = -p;
    jacobian<G> acc = jacobian<G>::identity();
    CUZK_EC_ROLLED
    for (size_t i = n; i-- > 0;) {
        acc = detail::dbl_outline(acc);
        if (digits[i] > 0) acc += p;
        else if (digits[i] < 0) acc += minus_p;
    }
    return acc;
}
/// [k]P for a public scalar field element k.
template <class G>
CUZK_HD constexpr jacobian<G> mul_vartime(const jacobian<G>& p, const typename G::scalar& k) {
    return mul_vartime(p, k.to_canonical());
}
template <class G>
CUZK_HD constexpr jacobian<G> mul_vartime(const affine<G>& p, const typename G::scalar& k) {
    return mul_vartime(jacobian<G>::from_affine(p), k.to_canonical());
}

namespace detail {

/// q = k / e, returns k mod e (binary long division; e > 0 fits in N limbs).
template <size_t N>
CUZK_HD constexpr bigint<N> divmod(bigint<N>& q, const bigint<N>& k, const bigint<N>& e) {
    bigint<N> rem{};
    q = bigint<N>{};
    for (size_t i = k.num_bits(); i-- > 0;) {
        rem = rem.shl(1);
        rem.limb[0] |= uint64_t(k.bit(i));
        if (rem >= e) {
            rem = rem - e;
            q.limb[i / 64] |= uint64_t(1) << (i % 64);
        }
    }
    return rem;
}

}  // namespace detail

/// [k]P for P IN THE PRIME-ORDER SUBGROUP (the result is wrong for other points), variable
/// time. With lambda = +-e the eigenvalue of the group's endomorphism (G::eigenvalue_abs),
/// k = sum d_i e^i and [k]P = sum [d_i] Q_i with Q_0 = P, Q_(i+1) = +-endo(Q_i); the short d_i
/// share one chain of doublings (interleaved width-5 wNAF).
template <class G>
CUZK_HD_OUTLINE constexpr jacobian<G> mul_subgroup_vartime(const jacobian<G>& p, const typename G::scalar& k) {
    if constexpr (!has_eigenvalue_test<G>) {
        return mul_vartime(p, k);
    } else {
        using integer = typename G::scalar::integer;
        constexpr size_t N = integer::limbs;
        constexpr auto e_small = G::eigenvalue_abs;
        static_assert(e_small.limbs <= N, "eigenvalue wider than the scalar");
        integer e{};
        for (size_t i = 0; i < e_small.limbs; ++i) e.limb[i] = e_small.limb[i];
        constexpr size_t max_dims = 5;  // e >= 2^60 for every curve here, so k < 2^256 needs <= 5 digits
        constexpr unsigned w = 5;
        constexpr size_t table = size_t(1) << (w - 2);
        constexpr size_t max_len = 64 * N + 1;
        int8_t naf[max_dims][max_len] = {};
        size_t len[max_dims] = {};
        size_t dims = 0, top = 0;
        integer rest = k.to_canonical();
        while (!rest.is_zero() && dims < max_dims) {
            integer q{};
            integer d = detail::divmod(q, rest, e);
            len[dims] = detail::wnaf(naf[dims], d, w);
            if (len[dims] > top) top = len[dims];
            rest = q;
            ++dims;
        }
        jacobian<G> odd[max_dims][table];
        const jacobian<G> p2 = detail::dbl_outline(p);
        odd[0][0] = p;
        CUZK_EC_ROLLED
        for (size_t j = 1; j < table; ++j) odd[0][j] = detail::add_outline(odd[0][j - 1], p2);
        CUZK_EC_ROLLED
        for (size_t i = 1; i < dims; ++i) {
            CUZK_EC_ROLLED
            for (size_t j = 0; j < table; ++j) {
                jacobian<G> t{};
                if constexpr (has_phi<G>) {
                    t = phi(odd[i - 1][j]);
                } else {
                    t = psi(odd[i - 1][j]);
                }
                odd[i][j] = G::eigenvalue_negative ? -t : t;  // [e]Q = +-endo(Q) on the group
            }
        }
        jacobian<G> acc = jacobian<G>::identity();
        CUZK_EC_ROLLED
        for (size_t pos = top; pos-- > 0;) {
            acc = detail::dbl_outline(acc);
            CUZK_EC_ROLLED
            for (size_t i = 0; i < dims; ++i) {
                if (pos >= len[i]) continue;
                const int d = naf[i][pos];
                if (d == 0) continue;
                jacobian<G> t = odd[i][(d > 0 ? d : -d) / 2];
                acc = detail::add_outline(acc, d > 0 ? t : -t);
            }
        }
        return acc;
    }
}
template <class G>
CUZK_HD constexpr jacobian<G> mul_subgroup_vartime(const affine<G>& p, const typename G::scalar& k) {
    return mul_subgroup_vartime(jacobian<G>::from_affine(p), k);
}

}  // namespace cuzk

#undef CUZK_EC_ROLLED
