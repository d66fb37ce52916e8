// SPDX-License-Identifier: MIT OR Apache-2.0
// Membership in the prime-order subgroup, chosen per group config at compile time:
//   cofactor 1 (BN254 G1)                 -> every point on the curve is in the group;
//   a BN curve's G2 with its seed x0      -> [x0 + 1]P + psi([x0]P) + psi^2([x0]P) == psi^3([2 x0]P)
//      (El Housni, Guillevic, Piellard, ePrint 2022/348: BN254 G2, 63-bit x0);
//   an endomorphism with known eigenvalue -> endo(P) == [lambda]P (Scott, ePrint 2021/1130:
//      BLS12-381 G1 phi(P) == [-x^2]P, BLS12-381 G2 psi(P) == [x]P);
//   otherwise                             -> [r]P == O.
// The fast tests are cross-checked against [r]P == O in tests/test_ec_subgroup.cpp.
// Points here are public (decoded inputs), so the checks are variable time.
#pragma once

#include "cuzk/core/hd.hpp"
#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/endomorphism.hpp"
#include "cuzk/ec/group_config.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/scalar_mul.hpp"

namespace cuzk {

/// [r]P == O: the definition of membership (about 255 doublings; the reference).
template <class G>
CUZK_HD constexpr bool is_in_subgroup_by_order(const jacobian<G>& p) {
    constexpr auto r = G::scalar::modulus;  // local copy: usable in device code
    return mul_vartime(p, r).is_identity();
}

/// True when P (assumed on the curve) lies in the order-r subgroup; fastest method available.
template <class G>
CUZK_HD constexpr bool is_in_subgroup(const jacobian<G>& p) {
    constexpr bool trivial = G::cofactor.num_bits() == 1;  // cofactor == 1
    if constexpr (trivial) {
        return true;
    } else if constexpr (has_seed_psi_test<G>) {
        constexpr bigint<1> x0{{G::subgroup_seed}};
        const jacobian<G> xp = mul_vartime(p, x0);  // [x0]P
        const jacobian<G> psi_xp = psi(xp), psi2_xp = psi(psi_xp);
        return xp + p + psi_xp + psi2_xp == psi(psi2_xp).dbl();
    } else if constexpr (has_eigenvalue_test<G>) {
        constexpr auto lambda_abs = G::eigenvalue_abs;
        jacobian<G> rhs = mul_vartime(p, lambda_abs);  // [|lambda|]P
        if constexpr (G::eigenvalue_negative) rhs = -rhs;
        if constexpr (has_phi<G>) {
            return phi(p) == rhs;
        } else {
            return psi(p) == rhs;
        }
    } else {
        return is_in_subgroup_by_order(p);
    }
}
namespace detail {

/// Non-zero digits of k's NAF (width-2 wNAF), at compile time.
template <size_t N>
constexpr size_t naf_weight(const bigint<N>& k) {
    int8_t digits[64 * N + 1] = {};
    const size_t n = wnaf(digits, k, 2);
    size_t w = 0;
    for (size_t i = 0; i < n; ++i) w += digits[i] != 0;
    return w;
}

/// True when G's eigenvalue test is the one taken and its eigenvalue is sparse enough for
/// mul_sparse_vartime: under a quarter of its digits non-zero (a random NAF has a third).
/// BLS12-381: x^2 17 of 129, x 6 of 65.
template <class G>
constexpr bool sparse_eigenvalue() {
    if constexpr (has_eigenvalue_test<G> && !has_seed_psi_test<G>) {
        return 4 * naf_weight(G::eigenvalue_abs) < G::eigenvalue_abs.num_bits();
    } else {
        return false;
    }
}

}  // namespace detail

template <class G>
CUZK_HD constexpr bool is_in_subgroup(const affine<G>& p) {
    if constexpr (G::cofactor.num_bits() != 1 && detail::sparse_eigenvalue<G>()) {
        // A plain NAF from the affine point: mixed additions, no precomputed multiples.
        constexpr auto lambda_abs = G::eigenvalue_abs;  // local copy: usable in device code
        jacobian<G> rhs = mul_sparse_vartime(p, lambda_abs);  // [|lambda|]P
        if constexpr (G::eigenvalue_negative) rhs = -rhs;
        const jacobian<G> jp = jacobian<G>::from_affine(p);
        if constexpr (has_phi<G>) {
            return phi(jp) == rhs;
        } else {
            return psi(jp) == rhs;
        }
    } else {
        return is_in_subgroup(jacobian<G>::from_affine(p));
    }
}

/// Maps any point of the curve into the order-r subgroup: [h_eff]P with the group's
/// cofactor_clear constant (RFC 9380 h_eff for BLS12-381; the cofactor itself for BN254 G2).
template <class G>
CUZK_HD constexpr jacobian<G> clear_cofactor(const jacobian<G>& p) {
    constexpr auto h_eff = G::cofactor_clear;
    return mul_vartime(p, h_eff);
}
template <class G>
CUZK_HD constexpr jacobian<G> clear_cofactor(const affine<G>& p) {
    return clear_cofactor(jacobian<G>::from_affine(p));
}

}  // namespace cuzk
