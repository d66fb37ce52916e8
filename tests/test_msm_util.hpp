// SPDX-License-Identifier: MIT OR Apache-2.0
// Shared helpers of the MSM tests and benchmarks: test groups, input generators and oracles.
//
// Oracles: the naive MSM (one wNAF scalar multiplication per term, ec/scalar_mul.hpp, on the
// unreduced integers) and, for large n, a closed form. Points are built as
//   P(i) = S + t(i) R + j(i) Q     (chunk t of `chunk` consecutive points, j its position)
// so sum_i s_i P(i) = (sum s_i) S + (sum s_i t_i) R + (sum s_i j_i) Q: three scalar
// multiplications after O(n) scalar-field arithmetic, exact at every size.
#pragma once

#include <algorithm>
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

namespace msm_test {

using namespace cuzk;

// The groups under test (the curve configs of cuzk/curves).
using bls_g1 = bls12_381::g1;
using bn_g1 = bn254::g1;
using bls_g2 = bls12_381::g2;
using bn_g2 = bn254::g2;

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
        constexpr size_t parts = 64;  // fixed split: the sums are exact whatever the thread count
        std::vector<Fr> ps(parts, Fr::zero()), pst(parts, Fr::zero()), psj(parts, Fr::zero());
        const size_t n = scalars.size(), len = (n + parts - 1) / parts;
#pragma omp parallel for schedule(dynamic, 1)
        for (long long k = 0; k < (long long)parts; ++k) {
            Fr a = Fr::zero(), b = Fr::zero(), c = Fr::zero();
            for (size_t i = size_t(k) * len; i < std::min(n, size_t(k + 1) * len); ++i) {
                auto x = scalars[i];
                while (x >= Fr::modulus) x = x - Fr::modulus;
                Fr si = Fr::from_canonical(x);
                a += si;
                b += si * Fr::from_u64(i / chunk);
                c += si * Fr::from_u64(i % chunk);
            }
            ps[size_t(k)] = a;
            pst[size_t(k)] = b;
            psj[size_t(k)] = c;
        }
        Fr sum_s = Fr::zero(), sum_st = Fr::zero(), sum_sj = Fr::zero();
        for (size_t k = 0; k < parts; ++k) {
            sum_s += ps[k];
            sum_st += pst[k];
            sum_sj += psj[k];
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

/// The edge inputs every MSM is checked on (host, device, fixed bases): 12 points, among them the
/// identity, a duplicate, and P and -P with the same scalar (they cancel); scalars 0, 1, r - 1, r,
/// r + 1, all ones, 2^(bits - 1), small values and 2^255 (the integers as given, not reduced).
template <class G>
struct edge_inputs {
    std::vector<affine<G>> points = random_points<G>(12, 3);
    std::vector<scalar_int<G>> scalars;

    edge_inputs() {
        using I = scalar_int<G>;
        const I r = G::scalar::modulus, one = I::from_u64(1);
        I all_ones{};
        for (auto& l : all_ones.limb) l = ~uint64_t(0);
        points[3] = affine<G>::identity();
        points[5] = points[4];
        points[7] = -points[6];
        scalars = {I{}, one, r - one, r, r + one, all_ones, one.shl(G::scalar::modulus_bits - 1),
                   I::from_u64(12345), I::from_u64(99), I::from_u64(7), I::from_u64(2), one.shl(255)};
        scalars[6] = scalars[7];
    }
};

}  // namespace msm_test

#if defined(__CUDACC__)
namespace msm_test {

/// to_affine as a call: the kernel below then inlines no inversion (compile time of the
/// benchmark TUs; it runs once per benchmark setup).
template <class G>
__device__ __noinline__ cuzk::affine<G> progression_to_affine(const cuzk::jacobian<G>& p) {
    return cuzk::to_affine(p);
}

/// Device side of progression<G>::points: thread t writes chunk t (one inversion per point;
/// fine for setting up benchmarks, not part of any timing). Point operations are calls, not
/// inlined (ec/outline.hpp).
template <class G>
__global__ void progression_points_kernel(cuzk::affine<G>* out, size_t n, cuzk::jacobian<G> s, cuzk::jacobian<G> r,
                                          cuzk::jacobian<G> q, size_t chunk) {
    const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const size_t lo = t * chunk;
    if (lo >= n) return;
    const size_t hi = lo + chunk < n ? lo + chunk : n;
    cuzk::jacobian<G> p = cuzk::detail::add_outline(s, cuzk::mul_vartime(r, cuzk::bigint<1>{{uint64_t(t)}}));
    for (size_t i = lo; i < hi; ++i) {
        out[i] = progression_to_affine<G>(p);
        p = cuzk::detail::add_outline(p, q);
    }
}

/// Fills out[0..n) with progression<G>::points(n) on the device (asynchronous on stream).
template <class G>
void progression_points_device(const progression<G>& pr, cuzk::affine<G>* out, size_t n, cudaStream_t stream) {
    const size_t threads = (n + pr.chunk - 1) / pr.chunk;
    progression_points_kernel<G><<<unsigned((threads + 127) / 128), 128, 0, stream>>>(out, n, pr.s, pr.r, pr.q,
                                                                                       pr.chunk);
}

}  // namespace msm_test
#endif
