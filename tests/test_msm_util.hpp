// Shared helpers of the MSM tests and benchmarks: test groups, input generators and oracles.
//
// Oracles: the naive MSM (one wNAF scalar multiplication per term, ec/scalar_mul.hpp, on the
// unreduced integers) and, for large n, a closed form. Points are built as
//   P(i) = S + t(i) R + j(i) Q     (chunk t of `chunk` consecutive points, j its position)
// so sum_i s_i P(i) = (sum s_i) S + (sum s_i t_i) R + (sum s_i j_i) Q: three scalar
// multiplications after O(n) scalar-field arithmetic, exact at every size.
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"
#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/batch_normalize.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/ec/xyzz.hpp"
#include "test_msm_shim.hpp"

namespace msm_test {

using namespace cuzk;

// The groups under test (the curve configs of cuzk/curves).
using bls_g1 = shim_bls_g1;
using bn_g1 = shim_bn_g1;

template <class G>
using scalar_int = typename G::scalar::integer;

/// Uniform scalar in [0, r) from rng.
template <class G, class Rng>
scalar_int<G> random_scalar(Rng& rng) {
    return G::scalar::random(rng).mont;  // uniform in Montgomery form, so also as an integer < r
}

/// A random point of the group: [k]G for a random k.
template <class G, class Rng>
jacobian<G> random_point(Rng& rng) {
    return mul_vartime(affine<G>::generator(), random_scalar<G>(rng));
}

/// The three bases of the arithmetic-progression point set.
template <class G>
struct progression {
    jacobian<G> s, r, q;
    size_t chunk;  // points per chunk (the j range)

    static progression make(uint64_t seed, size_t chunk) {
        std::mt19937_64 rng(seed);
        return {random_point<G>(rng), random_point<G>(rng), random_point<G>(rng), chunk};
    }

    /// Affine points P(0..n-1) on the host (one addition per point, batch-normalised per chunk).
    std::vector<affine<G>> points(size_t n) const {
        std::vector<affine<G>> out(n);
        const size_t chunks = (n + chunk - 1) / chunk;
#pragma omp parallel for schedule(dynamic, 1)
        for (long long t = 0; t < (long long)chunks; ++t) {
            const size_t lo = size_t(t) * chunk, hi = std::min(n, lo + chunk);
            std::vector<jacobian<G>> pts(hi - lo);
            jacobian<G> p = s + mul_vartime(r, bigint<1>{{uint64_t(t)}});
            for (size_t i = lo; i < hi; ++i) {
                pts[i - lo] = p;
                p += q;
            }
            batch_normalize<jacobian<G>>(pts, std::span<affine<G>>(out.data() + lo, hi - lo));
        }
        return out;
    }

    /// The exact MSM of points(n) with these canonical scalars (each < 2^256; reduced mod r).
    jacobian<G> expected(std::span<const scalar_int<G>> scalars) const {
        using Fr = typename G::scalar;
        Fr sum_s = Fr::zero(), sum_st = Fr::zero(), sum_sj = Fr::zero();
        for (size_t i = 0; i < scalars.size(); ++i) {
            auto x = scalars[i];
            while (x >= Fr::modulus) x = x - Fr::modulus;
            Fr si = Fr::from_canonical(x);
            sum_s += si;
            sum_st += si * Fr::from_u64(i / chunk);
            sum_sj += si * Fr::from_u64(i % chunk);
        }
        return mul_vartime(s, sum_s) + mul_vartime(r, sum_st) + mul_vartime(q, sum_sj);
    }
};

/// sum_i scalars[i] * points[i] one term at a time (the integers as given, not reduced).
template <class G>
jacobian<G> naive_msm(std::span<const affine<G>> points, std::span<const scalar_int<G>> scalars) {
    jacobian<G> acc = jacobian<G>::identity();
    for (size_t i = 0; i < points.size(); ++i) acc += mul_vartime(points[i], scalars[i]);
    return acc;
}

/// Distinct random points [k_i]G, normalised together.
template <class G>
std::vector<affine<G>> random_points(size_t n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<jacobian<G>> j(n);
    for (auto& p : j) p = random_point<G>(rng);
    return batch_normalize<jacobian<G>>(j);
}

template <class G>
std::vector<scalar_int<G>> random_scalars(size_t n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<scalar_int<G>> s(n);
    for (auto& x : s) x = random_scalar<G>(rng);
    return s;
}

}  // namespace msm_test
