// SPDX-License-Identifier: MIT OR Apache-2.0
// What a curve group config supplies to the point templates (affine, jacobian, xyzz).
//
// cuzk writes each formula once for the short Weierstrass model y^2 = x^3 + b (a = 0), which
// covers G1 and G2 of BLS12-381 and BN254. A curve group is a plain config type with static
// constexpr members, defined next to its fields in curves/<curve>.hpp; nothing in ec/ names
// a particular curve. Required:
//
//   struct g1 {
//       using field = fp;                       // coordinate field (Fp for G1, Fp2 for G2)
//       using scalar = fr;                      // the prime group order r, as a field
//       static constexpr field b = ...;         // curve coefficient
//       static constexpr field generator_x = ..., generator_y = ...;
//       static constexpr bigint<M> cofactor = ...;        // h = #E / r
//       static constexpr bigint<K> cofactor_clear = ...;  // k with [k]E(F) = G ("h_eff")
//       static constexpr const char* name = "BLS12-381 G1";
//   };
//
// Optional members switch on faster algorithms (ec/endomorphism.hpp, ec/subgroup.hpp):
//   static constexpr field beta;                 // phi(x, y) = (beta x, y), beta^3 = 1
//   static constexpr field psi_x, psi_y;         // psi(x, y) = (psi_x conj(x), psi_y conj(y))
//   static constexpr bigint<E> eigenvalue_abs;   // lambda = +-eigenvalue_abs: the eigenvalue of
//   static constexpr bool eigenvalue_negative;   //   phi (or psi) on the group, used by the
//                                                //   subgroup test endo(P) == [lambda]P
//   static constexpr uint64_t subgroup_seed;     // BN G2: the seed x0 > 0 of the subgroup test
//                                                //   [x0 + 1]P + psi([x0]P) + psi^2([x0]P) ==
//                                                //   psi^3([2 x0]P), preferred to the eigenvalue test
#pragma once

#include <concepts>

namespace cuzk {

/// The members every group config must supply for the point types.
template <class G>
concept curve_group = requires {
    typename G::field;
    typename G::scalar;
    G::b;
    G::generator_x;
    G::generator_y;
    G::cofactor;
    G::cofactor_clear;
    G::name;
};

/// The group has the GLV endomorphism phi(x, y) = (beta x, y).
template <class G>
concept has_phi = curve_group<G> && requires { G::beta; };

/// The group lives on a sextic twist and has psi (untwist-Frobenius-twist).
template <class G>
concept has_psi = curve_group<G> && requires {
    G::psi_x;
    G::psi_y;
};

/// The group has an endomorphism with a known eigenvalue for the fast subgroup test.
template <class G>
concept has_eigenvalue_test = (has_phi<G> || has_psi<G>) && requires {
    G::eigenvalue_abs;
    G::eigenvalue_negative;
};

/// The group (a BN curve's G2) has the subgroup test of El Housni, Guillevic and Piellard (ePrint
/// 2022/348, sections 3 and 5.1): P is in G2 iff [x0 + 1]P + psi([x0]P) + psi^2([x0]P) == psi^3([2 x0]P),
/// x0 the curve's seed: one 63-bit multiplication where the eigenvalue test multiplies by 128 bits.
template <class G>
concept has_seed_psi_test = has_psi<G> && requires { G::subgroup_seed; };

}  // namespace cuzk
