// SPDX-License-Identifier: MIT OR Apache-2.0
// batch_normalize: many Jacobian or XYZZ points to affine for the price of one inversion.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "cuzk/core/error.hpp"
#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/xyzz.hpp"

namespace cuzk {

namespace detail {

/// The denominator whose inverse normalises a point: Z (Jacobian) or ZZZ (XYZZ).
template <class G>
constexpr const typename G::field& normaliser(const jacobian<G>& p) { return p.z; }
template <class G>
constexpr const typename G::field& normaliser(const xyzz<G>& p) { return p.zzz; }

/// The affine point given the inverse of normaliser(p) (p not the identity).
template <class G>
constexpr affine<G> from_inverse(const jacobian<G>& p, const typename G::field& zi) {
    auto zi2 = zi.square();
    return affine<G>{p.x * zi2, p.y * zi2 * zi};
}
template <class G>
constexpr affine<G> from_inverse(const xyzz<G>& p, const typename G::field& izzz) {
    auto iz = izzz * p.zz;
    return affine<G>{p.x * iz.square(), p.y * izzz};
}

}  // namespace detail

/// out[i] = to_affine(in[i]) for Jacobian or XYZZ points, with one field inversion and about
/// 3 multiplications per point (Montgomery's trick). Identities become (0, 0). in and out must
/// have the same size (throws invalid_argument otherwise).
template <class Point>
void batch_normalize(std::span<const Point> in, std::span<affine<typename Point::group>> out) {
    using G = typename Point::group;
    using field = typename G::field;
    if (in.size() != out.size())
        throw invalid_argument("batch_normalize: " + std::to_string(in.size()) + " points in, " +
                               std::to_string(out.size()) + " out");
    std::vector<field> prefix(in.size());
    field acc = field::one();
    for (size_t i = 0; i < in.size(); ++i) {
        prefix[i] = acc;  // product of the normalisers before i (identities skipped)
        if (!in[i].is_identity()) acc *= detail::normaliser(in[i]);
    }
    field inv = acc.inverse();
    for (size_t i = in.size(); i-- > 0;) {
        if (in[i].is_identity()) {
            out[i] = affine<G>::identity();
            continue;
        }
        field zi = inv * prefix[i];  // 1 / normaliser(in[i])
        inv *= detail::normaliser(in[i]);
        out[i] = detail::from_inverse(in[i], zi);
    }
}

/// Convenience overload returning a vector.
template <class Point>
std::vector<affine<typename Point::group>> batch_normalize(std::span<const Point> in) {
    std::vector<affine<typename Point::group>> out(in.size());
    batch_normalize<Point>(in, std::span<affine<typename Point::group>>(out));
    return out;
}

}  // namespace cuzk
