// SPDX-License-Identifier: MIT OR Apache-2.0
// The sum of a device MSM that has been enqueued but not waited for: what its end left in a
// gpu::result_area (window sums, the overflow flag, a witness MSM's ones' sum), combined on the
// host once the stream has passed those copies.
//
//   gpu::result_area area;
//   msm::pending_sum<G> a = msm::msm_device_enqueue<G>(pts, s, n, ws, bytes, stream, area);
//   msm::pending_sum<G> b = ...;                      // more MSMs on the same stream
//   gpu::wait(stream);                                // one wait for all of them
//   jacobian<G> ra = a.get(), rb = b.get();
//
// Every device MSM has this shape: size its workspace (msm_*_workspace_bytes), enqueue it on a
// stream into a result area, and finish it with get() after a wait; the blocking entry points
// are exactly that, with the calling thread's area (gpu::thread_result_area).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cuzk/core/error.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/xyzz.hpp"

namespace cuzk::msm {

/// How one MSM's window sums combine (a digit_plan's fold, device_plan.cuh).
struct window_shape {
    unsigned windows = 0, c = 0;
    unsigned fold_sets = 0;     // sums it left: one per window, or one per fold group of a table
    uint32_t fold_buckets = 0;  // buckets per fold group
    bool shifted_bases = false;
};

template <class G>
class pending_sum {
public:
    using bucket = xyzz<G>;

    /// The identity, or a sum already known on the host.
    pending_sum() = default;
    explicit pending_sum(const jacobian<G>& ready) : ready_(ready) {}

    /// Adds the sum whose window sums (and for a table its group totals) and overflow flag will
    /// be at these page-locked addresses.
    void add_windows(const window_shape& shape, const bucket* sums, const bucket* totals, const uint32_t* overflow) {
        windows_.push_back({shape, sums, totals, overflow});
    }
    /// Adds the point that will be at this page-locked address.
    void add_point(const bucket* p) { points_.push_back(p); }

    pending_sum& operator+=(const pending_sum& o) {
        ready_ = ready_ + o.ready_;
        windows_.insert(windows_.end(), o.windows_.begin(), o.windows_.end());
        points_.insert(points_.end(), o.points_.begin(), o.points_.end());
        return *this;
    }

    /// The sum; call once the stream has passed the copies (a wait after the enqueue). Throws
    /// invalid_argument when a scalar did not fit the windows (scalar_bits promised too few).
    jacobian<G> get() const {
        jacobian<G> r = ready_;
        for (const bucket* p : points_) r = r + to_jacobian(*p);
        for (const parts& w : windows_) r = r + combine(w);
        return r;
    }

private:
    struct parts {
        window_shape shape;
        const bucket* sums;
        const bucket* totals;
        const uint32_t* overflow;
    };

    static jacobian<G> combine(const parts& p) {
        const window_shape& s = p.shape;
        if (*p.overflow != 0)
            throw invalid_argument("msm_device: a scalar does not fit in " + std::to_string(s.windows) +
                                   " windows of " + std::to_string(s.c) + " bits (scalar_bits promised too few)");
        if (s.shifted_bases) {
            // One bucket set folded as V groups of L buckets: group g's weights are off by g L, so
            // sum_b (b + 1) B_b = sum_g window_g + L * sum_g g total_g (running sums from the top).
            bucket sum = bucket::identity(), running = bucket::identity(), weighted = bucket::identity();
            for (unsigned g = 0; g < s.fold_sets; ++g) sum += p.sums[g];
            for (unsigned g = s.fold_sets - 1; g > 0; --g) {
                running += p.totals[g];
                weighted += running;
            }
            for (uint32_t l = s.fold_buckets; l > 1; l /= 2) weighted = weighted.dbl();
            return to_jacobian(sum + weighted);
        }
        // Horner: R = 2^c R + window_w from the top window down (c doublings per window: a long
        // serial chain, fast on a CPU core and slow on one GPU thread).
        bucket r = bucket::identity();
        for (unsigned w = s.windows; w-- > 0;) {
            if (w + 1 != s.windows)
                for (unsigned k = 0; k < s.c; ++k) r = r.dbl();
            r += p.sums[w];
        }
        return to_jacobian(r);
    }

    jacobian<G> ready_ = jacobian<G>::identity();
    std::vector<parts> windows_;
    std::vector<const bucket*> points_;
};

}  // namespace cuzk::msm
