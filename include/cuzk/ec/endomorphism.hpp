// SPDX-License-Identifier: MIT OR Apache-2.0
// Efficient endomorphisms of the j = 0 curves: phi on G1 (GLV) and psi on the G2 twists.
//
// phi(x, y) = (beta x, y) with beta a primitive cube root of unity in Fp: on the order-r group
// it is multiplication by a cube root of unity lambda mod r. psi = twist o Frobenius o untwist:
// psi(x, y) = (psi_x conj(x), psi_y conj(y)) with conj the p-power Frobenius of Fp2; on G2 it is
// multiplication by p mod r. The constants live in each group config (curves/<curve>.hpp).
#pragma once

#include "cuzk/core/hd.hpp"
#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/group_config.hpp"
#include "cuzk/ec/jacobian.hpp"

namespace cuzk {

/// phi(x, y) = (beta x, y); the identity maps to itself. 1M.
template <has_phi G>
CUZK_HD constexpr affine<G> phi(const affine<G>& p) {
    constexpr typename G::field beta = G::beta;
    return affine<G>{p.x * beta, p.y};
}
/// phi in Jacobian coordinates: (beta X : Y : Z).
template <has_phi G>
CUZK_HD constexpr jacobian<G> phi(const jacobian<G>& p) {
    constexpr typename G::field beta = G::beta;
    return jacobian<G>{p.x * beta, p.y, p.z};
}

/// psi(x, y) = (psi_x conj(x), psi_y conj(y)); the identity maps to itself.
template <has_psi G>
CUZK_HD constexpr affine<G> psi(const affine<G>& p) {
    constexpr typename G::field cx = G::psi_x;
    constexpr typename G::field cy = G::psi_y;
    return affine<G>{p.x.conjugate() * cx, p.y.conjugate() * cy};
}
/// psi in Jacobian coordinates: Frobenius commutes with the Z powers, so
/// (X : Y : Z) -> (psi_x conj(X) : psi_y conj(Y) : conj(Z)).
template <has_psi G>
CUZK_HD constexpr jacobian<G> psi(const jacobian<G>& p) {
    constexpr typename G::field cx = G::psi_x;
    constexpr typename G::field cy = G::psi_y;
    return jacobian<G>{p.x.conjugate() * cx, p.y.conjugate() * cy, p.z.conjugate()};
}

}  // namespace cuzk
