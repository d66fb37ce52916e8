// SPDX-License-Identifier: MIT OR Apache-2.0
// The window width of a Pippenger MSM: one cost model for the host MSM, the device MSM and the
// device MSM over a table of shifted bases.
//
//   unsigned c = msm::choose_window_bits(n, 255, msm::device_buckets);
//
// With signed digits of width c a scalar of b bits has W(c) = num_windows(b, c) windows, and
// each window's 2^(c-1) buckets are folded by the running-sum trick in about w * 2^(c-1)
// additions. So the point additions are
//   cost(c) = W(c) * n + S(c) * w * 2^(c-1),
// with S(c) the bucket sets folded: W(c) for a plain MSM (one set per window), 1 for a table of
// shifted bases (every window adds into the same set). Host only: the width is a host argument
// of the kernels.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/msm/signed_digits.hpp"

namespace cuzk::msm {

/// Largest window width the host MSM accepts and its dispatcher chooses (2^15 XYZZ buckets per
/// thread, 6 MB for G1; wider windows would save < 5% at 2^24 points and cost memory).
inline constexpr unsigned host_max_window_bits = 16;

/// Largest window width the device MSM accepts and its dispatcher chooses (c = 22 already
/// needs 12 * 2^21 buckets, 4.8 GB of workspace for BLS12-381 G1).
inline constexpr unsigned device_max_window_bits = 22;

/// Narrowest window width a table of shifted bases uses (it bounds the windows a thread keeps
/// in local memory: fixed_bases.cuh).
inline constexpr unsigned fixed_bases_min_window_bits = 8;

/// The cost of one window width: the fold's additions per bucket, whether each window folds
/// its own bucket set, and the widths to choose from.
struct window_cost_model {
    unsigned fold_additions_per_bucket;  ///< w
    bool bucket_set_per_window;          ///< S(c) = W(c) when true, 1 (a table's single set) when false
    unsigned min_bits, max_bits;         ///< c in [min_bits, max_bits]

    /// cost(c) for n points and scalars of scalar_bits bits. Every term is an integer below
    /// 2^53 for n below 2^44, so the doubles are exact and a tie is a real tie.
    double cost(size_t n, unsigned scalar_bits, unsigned c) const {
        const double windows = double(num_windows(scalar_bits, c));
        const double sets = bucket_set_per_window ? windows : 1.0;
        return windows * double(n) + sets * double(fold_additions_per_bucket) * double(uint64_t(1) << (c - 1));
    }
};

/// The host MSM: two additions per bucket in the fold (running sum and total), per window.
inline constexpr window_cost_model host_buckets{2, true, 1, host_max_window_bits};

/// The device MSM: w = 3 per bucket (about 1.5 full additions per bucket in the fold, a full
/// addition costing ~1.4 mixed ones), one set per window, from c = 4.
inline constexpr window_cost_model device_buckets{3, true, 4, device_max_window_bits};

/// A device MSM over a table of shifted bases: the device fold, once for a single bucket set.
inline constexpr window_cost_model table_buckets{3, false, fixed_bases_min_window_bits, device_max_window_bits};

/// The width in [model.min_bits, model.max_bits] of the least cost for n points with scalars of
/// scalar_bits bits; the narrowest such width on a tie.
inline unsigned choose_window_bits(size_t n, unsigned scalar_bits, const window_cost_model& model) {
    unsigned best = model.min_bits;
    double best_cost = model.cost(n, scalar_bits, best);
    for (unsigned c = model.min_bits + 1; c <= model.max_bits; ++c) {
        const double cost = model.cost(n, scalar_bits, c);
        if (cost < best_cost) {
            best = c;
            best_cost = cost;
        }
    }
    return best;
}

}  // namespace cuzk::msm
