// Host MSM for witness scalars: zeros skipped, ones added, Pippenger on the rest.
// Filecoin's circuits are mostly bits; this split is what supraseal-c2 does on one CPU thread.
#pragma once

#include <span>
#include <vector>

#include "cuzk/ec/xyzz.hpp"
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
    xyzz<G> ones = xyzz<G>::identity();
    std::vector<affine<G>> rest_points;
    std::vector<Fr> rest_scalars;
#pragma omp parallel
    {
        xyzz<G> local = xyzz<G>::identity();
        std::vector<affine<G>> p;
        std::vector<Fr> s;
#pragma omp for schedule(static) nowait
        for (long long i = 0; i < n; ++i) {
            const Fr& k = scalars[size_t(i)];
            if (k.is_zero()) continue;
            if (k.is_one()) {
                local += points[size_t(i)];
            } else {
                p.push_back(points[size_t(i)]);
                s.push_back(k);
            }
        }
#pragma omp critical
        {
            ones += local;
            rest_points.insert(rest_points.end(), p.begin(), p.end());
            rest_scalars.insert(rest_scalars.end(), s.begin(), s.end());
        }
    }
    jacobian<G> r = msm::msm_host<G>(std::span<const affine<G>>(rest_points), std::span<const Fr>(rest_scalars));
    return r + to_jacobian(ones);
}

}  // namespace cuzk::groth16
