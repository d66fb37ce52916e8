// SPDX-License-Identifier: MIT OR Apache-2.0
// Point addition and doubling as calls on the device: for code that adds many times outside a
// hot loop (scalar multiplication tables, the MSM's fixup and folds), one copy of each formula
// per point type instead of one inlined copy per call site. Any point model (jacobian, xyzz).
#pragma once

#include "cuzk/core/hd.hpp"

namespace cuzk::detail {

/// p + q, out of line on the device.
template <class Point>
CUZK_HD_OUTLINE constexpr Point add_outline(const Point& p, const Point& q) {
    return p + q;
}

/// 2p, out of line on the device.
template <class Point>
CUZK_HD_OUTLINE constexpr Point dbl_outline(const Point& p) {
    return p.dbl();
}

}  // namespace cuzk::detail
