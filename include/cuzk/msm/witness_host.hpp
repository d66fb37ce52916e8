// SPDX-License-Identifier: MIT OR Apache-2.0
// Host MSM for witness scalars: zeros skipped, ones added, Pippenger on the rest (in place, or
// over a compact copy when most scalars are bits).
// Filecoin's circuits are mostly bits; this split is what supraseal-c2 does on one CPU thread.
// The ones are added in batch-affine form (each thread's k-th one into bucket k mod 1024, so a
// batch never conflicts: ~6 products per point instead of a mixed addition's 10).
#pragma once

#include <span>
#include <vector>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "cuzk/ec/xyzz.hpp"
#include "cuzk/msm/batch_affine_host.hpp"
#include "cuzk/msm/pippenger_host.hpp"

namespace cuzk::groth16 {

/// sum_i scalars[i] * points[i], splitting off 0 and 1 scalars first (all threads). The ones are
/// summed apart; the other scalars' points go to Pippenger in place (ones skipped, zeros giving
/// no digits) unless fewer than half of them remain, when those are gathered into a compact copy:
/// a copy of every point would cost as much memory again as the key's vector (a G2 point is 128
/// or 192 bytes) for a scan that skipping saves little of.
template <class G>
jacobian<G> msm_witness_host(std::span<const affine<G>> points, std::span<const typename G::scalar> scalars) {
    using Fr = typename G::scalar;
    if (points.size() != scalars.size())
        throw invalid_argument("msm_witness_host: " + std::to_string(points.size()) + " points but " +
                               std::to_string(scalars.size()) + " scalars");
    const size_t n = points.size();
    constexpr uint32_t ones_lanes = 1024;
    xyzz<G> ones = xyzz<G>::identity();
    std::vector<size_t> rest_of_thread;  // per thread of the static schedule, then its offset
    size_t rest = 0;
    std::vector<affine<G>> rest_points;
    std::vector<Fr> rest_scalars;
#pragma omp parallel
    {
        int t = 0, team = 1;
#if defined(_OPENMP)
        t = omp_get_thread_num();
        team = omp_get_num_threads();
#endif
#pragma omp single
        rest_of_thread.assign(size_t(team) + 1, 0);
        msm::detail::affine_buckets<G> local(ones_lanes);
        uint32_t lane = 0;
        size_t mine = 0;
        // Both loops are schedule(static) over the same range in one team, so each thread walks
        // the same indices in both (OpenMP's rule for static schedules).
#pragma omp for schedule(static) nowait
        for (long long i = 0; i < (long long)n; ++i) {
            const Fr& k = scalars[size_t(i)];
            if (k.is_zero()) continue;
            if (k.is_one()) {
                local.add(lane, points[size_t(i)]);
                lane = lane + 1 == ones_lanes ? 0 : lane + 1;
            } else {
                ++mine;
            }
        }
        local.finish();
        const xyzz<G> local_sum = local.total();
        rest_of_thread[size_t(t) + 1] = mine;
#pragma omp critical
        ones += local_sum;
#pragma omp barrier
#pragma omp single
        {
            for (size_t j = 1; j < rest_of_thread.size(); ++j) rest_of_thread[j] += rest_of_thread[j - 1];
            rest = rest_of_thread.back();
            if (2 * rest < n) {
                rest_points.resize(rest);
                rest_scalars.resize(rest);
            }
        }  // the implied barrier publishes the offsets and the sizes
        if (2 * rest < n) {
            size_t at = rest_of_thread[size_t(t)];
#pragma omp for schedule(static)
            for (long long i = 0; i < (long long)n; ++i) {
                const Fr& k = scalars[size_t(i)];
                if (k.is_zero() || k.is_one()) continue;
                rest_points[at] = points[size_t(i)];
                rest_scalars[at++] = k;
            }
        }
    }
    const jacobian<G> r = to_jacobian(ones);
    if (rest == 0) return r;
    if (2 * rest < n)
        return r + msm::msm_host<G>(std::span<const affine<G>>(rest_points), std::span<const Fr>(rest_scalars));
    msm::host_options in_place;  // members set one by one: CUDA TUs include this header too
    in_place.skip_ones = true;
    in_place.digit_points = rest;
    return r + msm::msm_host<G>(points, scalars, in_place);
}

}  // namespace cuzk::groth16

/// The witness MSM for group G: see cuzk/instances.hpp.
#define CUZK_HOST_WITNESS_MSM_INSTANCES(prefix, G)                                  \
    prefix template ::cuzk::jacobian<G> cuzk::groth16::msm_witness_host<G>(         \
        std::span<const ::cuzk::affine<G>>, std::span<const typename G::scalar>);

#if defined(CUZK_HOST_PRECOMPILED)
#include "cuzk/instances.hpp"
CUZK_FOR_EACH_INSTANCE_GROUP(CUZK_HOST_WITNESS_MSM_INSTANCES, extern)
#endif
