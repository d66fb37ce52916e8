// SPDX-License-Identifier: MIT OR Apache-2.0
// Device MSM with precomputed shifted bases (msm/fixed_bases.cuh) against the naive sum, the
// host MSM and the closed form, for G1 of BLS12-381 and BN254: edge scalars and points, every
// table width, prefixes of a table, Montgomery-form scalars, and clear errors. Skip without a GPU.
#include <gtest/gtest.h>

#include <random>

#include "cuzk/gpu/device_buffer.hpp"
#include "cuzk/gpu/stream.hpp"
#include "cuzk/msm/fixed_bases.cuh"
#include "cuzk/msm/pippenger_host.hpp"
#include "gpu_test.hpp"
#include "test_msm_util.hpp"

namespace {

using namespace cuzk;
using namespace msm_test;

/// Points and scalars on the device, and a table over the points.
template <class G>
struct on_device {
    gpu::stream st;
    gpu::device_buffer<affine<G>> points;
    gpu::device_buffer<scalar_int<G>> scalars;
    msm::fixed_bases<G> table;

    on_device(std::span<const affine<G>> p, std::span<const scalar_int<G>> s, unsigned c)
        : points(p.size(), st), scalars(s.size(), st), table((points.upload(p.data(), st), points.data()), p.size(), st, c) {
        scalars.upload(s.data(), st);
    }
    /// The MSM over the first n bases, with a workspace of exactly the queried size.
    jacobian<G> msm(size_t n, msm::scalar_form form = msm::scalar_form::canonical) {
        const size_t bytes = msm::msm_device_workspace_bytes(table, n);
        gpu::device_buffer<char> ws(bytes, st);
        jacobian<G> r = msm::msm_device(table, scalars.data(), n, ws.data(), bytes, st, form);
        st.synchronize();
        return r;
    }
};

template <class G>
class FixedBases : public ::testing::Test {};
using Groups = ::testing::Types<bls_g1, bn_g1>;
TYPED_TEST_SUITE(FixedBases, Groups);

TYPED_TEST(FixedBases, EdgeScalarsAndPointsForEveryWidth) {
    SKIP_WITHOUT_GPU();
    using G = TypeParam;
    const edge_inputs<G> edge;
    const auto& pts = edge.points;
    const auto& sc = edge.scalars;
    const jacobian<G> want = naive_msm<G>(pts, sc);
    for (unsigned c = msm::fixed_bases_min_window_bits; c <= msm::device_max_window_bits; ++c) {
        on_device<G> d(pts, sc, c);
        EXPECT_EQ(d.table.window_bits(), c);
        EXPECT_TRUE(d.msm(pts.size()) == want) << "c=" << c;
    }
}

TYPED_TEST(FixedBases, SizesAndPrefixesAgainstHost) {
    SKIP_WITHOUT_GPU();
    using G = TypeParam;
    auto pts = random_points<G>(4097, 1);
    auto sc = random_scalars<G>(4097, 2);
    for (unsigned c : {0u, 9u, 13u}) {
        on_device<G> d(pts, sc, c);
        for (size_t n : {0, 1, 2, 31, 32, 33, 100, 1000, 4095, 4097}) {
            auto p = std::span<const affine<G>>(pts).first(n);
            auto s = std::span<const scalar_int<G>>(sc).first(n);
            EXPECT_TRUE(d.msm(n) == msm::msm_host<G>(p, s)) << "c=" << c << " n=" << n;
        }
    }
}

TYPED_TEST(FixedBases, AllScalarsEqualAndMontgomeryForm) {
    SKIP_WITHOUT_GPU();
    using G = TypeParam;
    using Fr = typename G::scalar;
    auto pts = random_points<G>(3000, 5);
    std::mt19937_64 rng(6);
    const Fr x = Fr::random(rng);
    // Every scalar equal: one long bucket run per window.
    std::vector<scalar_int<G>> canon(pts.size(), x.to_canonical()), mont(pts.size(), x.mont);
    on_device<G> d(pts, canon, 0);
    const jacobian<G> want = msm::msm_host<G>(pts, canon);
    EXPECT_TRUE(d.msm(pts.size()) == want);
    on_device<G> m(pts, mont, 0);
    EXPECT_TRUE(m.msm(pts.size(), msm::scalar_form::montgomery) == want);
}

TYPED_TEST(FixedBases, ClosedFormAt2Pow20) {
    SKIP_WITHOUT_GPU();
    using G = TypeParam;
    const size_t n = size_t(1) << 20;
    auto prog = progression<G>::make(40, 1024);
    auto pts = prog.points(n);
    auto sc = random_scalars<G>(n, 41);
    on_device<G> d(pts, sc, 0);
    EXPECT_TRUE(d.msm(n) == prog.expected(sc));
}

TYPED_TEST(FixedBases, ClearErrors) {
    SKIP_WITHOUT_GPU();
    using G = TypeParam;
    auto pts = random_points<G>(40, 7);
    auto sc = random_scalars<G>(40, 8);
    gpu::stream st;
    gpu::device_buffer<affine<G>> dp(40, st);
    dp.upload(pts.data(), st);
    EXPECT_THROW(msm::fixed_bases<G>(dp.data(), 40, st, msm::fixed_bases_min_window_bits - 1), invalid_argument);
    EXPECT_THROW(msm::fixed_bases<G>(dp.data(), 40, st, msm::device_max_window_bits + 1), invalid_argument);
    EXPECT_THROW(msm::fixed_bases<G>(dp.data(), 0, st), invalid_argument);
    on_device<G> d(pts, sc, 10);
    const size_t bytes = msm::msm_device_workspace_bytes(d.table, 40);
    gpu::device_buffer<char> ws(bytes, d.st);
    EXPECT_THROW(msm::msm_device(d.table, d.scalars.data(), 41, ws.data(), bytes, d.st), invalid_argument);
    EXPECT_THROW(msm::msm_device(d.table, d.scalars.data(), 40, ws.data(), bytes - 1, d.st), invalid_argument);
    st.synchronize();
    d.st.synchronize();
}

}  // namespace
