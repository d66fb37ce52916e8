// SPDX-License-Identifier: MIT OR Apache-2.0
// Host MSM for witness scalars: zeros skipped, ones added, Pippenger on the rest.
// Filecoin's circuits are mostly bits; this split is what supraseal-c2 does on one CPU thread.
// The ones are added in batch-affine form (each thread's k-th one into bucket k mod 1024, so a
// batch never conflicts: ~6 products per point instead of a mixed addition's 10).
#pragma once

#include <span>
#include <vector>

#include "cuzk/ec/xyzz.hpp"
#include "cuzk/msm/batch_affine_host.hpp"
#include "cuzk/msm/pippenger_host.hpp"

namespace cuzk::groth16 {

/// sum_i scalars[i] * points[i], splitting off 0 and 1 scalars first (all threads).
template <class G>
jacobian<G> msm_witness_host(std::span<const affine<G>> points, std::span<const typename G::scalar> scalars) {
    using Fr = typename G::scalar;
    if (points.size() != scalars.size())
        throw invalid_argument("msm_witness_host: " + std::to_string(points.size()) + " points but " +
                               std::to_string(scalars.size()) + " scalars");
    const long long n = (long long)points.size();
    constexpr uint32_t ones_lanes = 1024;
    xyzz<G> ones = xyzz<G>::identity();
    std::vector<affine<G>> rest_points;
    std::vector<Fr> rest_scalars;
#pragma omp parallel
    {
        msm::detail::affine_buckets<G> local(ones_lanes);
        uint32_t lane = 0;
        std::vector<affine<G>> p;
        std::vector<Fr> s;
#pragma omp for schedule(static) nowait
        for (long long i = 0; i < n; ++i) {
            const Fr& k = scalars[size_t(i)];
            if (k.is_zero()) continue;
            if (k.is_one()) {
                local.add(lane, points[size_t(i)]);
                lane = lane + 1 == ones_lanes ? 0 : lane + 1;
            } else {
                p.push_back(points[size_t(i)]);
                s.push_back(k);
            }
        }
        local.finish();
        const xyzz<G> local_sum = local.total();
#pragma omp critical
        {
            ones += local_sum;
            rest_points.insert(rest_points.end(), p.begin(), p.end());
            rest_scalars.insert(rest_scalars.end(), s.begin(), s.end());
        }
    }
    jacobian<G> r = msm::msm_host<G>(std::span<const affine<G>>(rest_points), std::span<const Fr>(rest_scalars));
    return r + to_jacobian(ones);
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
