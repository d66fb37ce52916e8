// SPDX-License-Identifier: MIT OR Apache-2.0
// batch_inverse: many inversions for the price of one (Montgomery's trick).
#pragma once

#include <span>
#include <vector>

namespace cuzk {

/// Replaces every element of xs by its inverse using one field inversion and 3(n-1)
/// multiplications. Zeros stay zero (they are skipped, like F::inverse(0) = 0).
template <class F>
void batch_inverse(std::span<F> xs) {
    std::vector<F> prefix(xs.size());
    F acc = F::one();
    for (size_t i = 0; i < xs.size(); ++i) {
        prefix[i] = acc;
        if (!xs[i].is_zero()) acc *= xs[i];
    }
    F inv = acc.inverse();
    for (size_t i = xs.size(); i-- > 0;) {
        if (xs[i].is_zero()) continue;
        F x = xs[i];
        xs[i] = inv * prefix[i];
        inv *= x;
    }
}

}  // namespace cuzk
