// SPDX-License-Identifier: MIT OR Apache-2.0
// affine<G>: a point (x, y) of a short Weierstrass group y^2 = x^3 + b (a = 0).
//
// Infinity convention: the identity is (0, 0), which is never on the curve because b != 0.
// So an array of affine points is exactly 2 field elements per point (the MSM input layout),
// zero-filled memory is an array of identities, and host and device agree byte for byte.
// Arithmetic happens in jacobian<G> or xyzz<G>; affine points are inputs, outputs and encodings.
#pragma once

#include "cuzk/core/hd.hpp"
#include "cuzk/ec/group_config.hpp"

namespace cuzk {

/// An affine point; (0, 0) is the identity (point at infinity).
template <class G>
struct affine {
    using group = G;
    using field = typename G::field;
    using scalar = typename G::scalar;

    field x;
    field y;

    /// The identity, encoded as (0, 0).
    CUZK_HD static constexpr affine identity() { return affine{}; }
    /// The group's standard generator.
    CUZK_HD static constexpr affine generator() {
        constexpr field gx = G::generator_x;  // local copies: usable in device code
        constexpr field gy = G::generator_y;
        return affine{gx, gy};
    }

    CUZK_HD constexpr bool is_identity() const { return x.is_zero() && y.is_zero(); }

    /// y^2 == x^3 + b, or the identity. Says nothing about the subgroup (ec/subgroup.hpp).
    CUZK_HD constexpr bool is_on_curve() const {
        if (is_identity()) return true;
        constexpr field b = G::b;
        return y.square() == x.square() * x + b;
    }

    /// -(x, y) = (x, -y); the identity (0, 0) maps to itself.
    CUZK_HD constexpr affine operator-() const { return affine{x, -y}; }

    /// Equal coordinates (affine coordinates are unique, so this is equality of points).
    CUZK_HD constexpr friend bool operator==(const affine& a, const affine& b) { return a.x == b.x && a.y == b.y; }
    CUZK_HD constexpr friend bool operator!=(const affine& a, const affine& b) { return !(a == b); }
};

}  // namespace cuzk
