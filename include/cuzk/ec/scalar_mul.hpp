// Scalar multiplication [k]P in Jacobian coordinates, for every curve group.
//
//   mul(P, k)          constant time: fixed 4-bit windows, table lookups by masking every
//                      entry, exceptional cases of the addition selected without branches.
//                      For secret scalars (the prover's randomisers r, s).
//   mul_vartime(P, k)  width-5 wNAF: fewer additions, time depends on k. For public scalars
//                      (verification, subgroup and cofactor maps, tests).
// Both work on host and device (no allocation, no exceptions).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/core/bigint.hpp"
#include "cuzk/core/hd.hpp"
#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/ct_select.hpp"
#include "cuzk/ec/jacobian.hpp"

namespace cuzk {

namespace detail {

/// P + Q without secret-dependent branches: the generic add-2007-bl result, 2P, P, Q and the
/// identity are all computed or available, and the right one is selected by masks.
/// (When P == -Q the generic formula already yields Z3 = 0, i.e. the identity.)
template <class G>
CUZK_HD jacobian<G> add_ct(const jacobian<G>& p, const jacobian<G>& q) {
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
    jacobian<G> twice = p.dbl();
    const bool p_inf = p.is_identity();
    const bool q_inf = q.is_identity();
    const bool same = h.is_zero() & rr.is_zero() & !p_inf & !q_inf;
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
CUZK_HD jacobian<G> mul(const jacobian<G>& p, const typename G::scalar& k) {
    using scalar = typename G::scalar;
    constexpr size_t window = 4;
    constexpr size_t windows = (scalar::modulus_bits + window - 1) / window;
    jacobian<G> table[1 << window];
    table[0] = jacobian<G>::identity();
    table[1] = p;
    for (size_t i = 2; i < (1 << window); ++i) table[i] = detail::add_ct(table[i - 1], p);
    const auto e = k.to_canonical();
    jacobian<G> acc = jacobian<G>::identity();
    for (size_t w = windows; w-- > 0;) {
        for (size_t i = 0; i < window; ++i) acc = acc.dbl();
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
CUZK_HD constexpr jacobian<G> mul_vartime(const jacobian<G>& p, const bigint<N>& k) {
    constexpr unsigned w = 5;
    jacobian<G> odd[1 << (w - 2)];  // P, 3P, 5P, ..., 15P
    odd[0] = p;
    const jacobian<G> p2 = p.dbl();
    for (size_t i = 1; i < (1 << (w - 2)); ++i) odd[i] = odd[i - 1] + p2;
    int8_t digits[64 * N + 1] = {};
    size_t n = detail::wnaf(digits, k, w);
    jacobian<G> acc = jacobian<G>::identity();
    for (size_t i = n; i-- > 0;) {
        acc = acc.dbl();
        const int d = digits[i];
        if (d > 0) acc += odd[(d - 1) / 2];
        if (d < 0) acc -= odd[(-d - 1) / 2];
    }
    return acc;
}
template <class G, size_t N>
CUZK_HD constexpr jacobian<G> mul_vartime(const affine<G>& p, const bigint<N>& k) {
    return mul_vartime(jacobian<G>::from_affine(p), k);
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

}  // namespace cuzk
