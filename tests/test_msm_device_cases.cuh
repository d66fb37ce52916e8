// SPDX-License-Identifier: MIT OR Apache-2.0
// Device MSM test cases (typed over the groups the including file names in MsmDeviceGroups,
// each with both bucket accumulations, XYZZ and batch-affine, forced whatever the size): the
// edge cases (empty, zero scalars, identity and equal points) against the host MSM / the naive
// sum, every window width, host vs device up to 2^20 points, the closed form, and batch-affine's
// exceptional pairs. Skip without a GPU. Included by test_msm_device.cu (G1) and
// test_msm_device_g2.cu (G2), so each compiles on its own.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>

#include "cuzk/gpu/device_buffer.hpp"
#include "cuzk/gpu/stream.hpp"
#include "cuzk/msm/pippenger_device.cuh"
#include "cuzk/msm/pippenger_host.hpp"
#include "gpu_test.hpp"
#include "test_msm_util.hpp"

namespace {

using namespace cuzk;
using namespace msm_test;

/// A group and the accumulation every MSM of the test is forced to use.
template <class Group, msm::device_options::accumulation A>
struct msm_case {
    using group = Group;
    static msm::device_options options(msm::device_options opt = {}) {
        opt.accumulate = A;
        return opt;
    }
};

/// The cases: every group of MsmDeviceGroups with each accumulation.
template <class List>
struct with_both_accumulations;
template <class... Gs>
struct with_both_accumulations<::testing::Types<Gs...>> {
    using type = ::testing::Types<msm_case<Gs, msm::device_options::accumulation::xyzz>...,
                                  msm_case<Gs, msm::device_options::accumulation::batch_affine>...>;
};
using MsmDeviceCases = with_both_accumulations<MsmDeviceGroups>::type;

/// Uploads inputs, runs the device MSM with a workspace of exactly the queried size.
template <class C>
jacobian<typename C::group> run_device(std::span<const affine<typename C::group>> p,
                                       std::span<const scalar_int<typename C::group>> s,
                                       msm::device_options opt = {}) {
    using G = typename C::group;
    opt = C::options(opt);
    gpu::stream st;
    const size_t n = p.size();
    gpu::device_buffer<affine<G>> dp(n, st);
    gpu::device_buffer<scalar_int<G>> ds(n, st);
    if (n) {
        dp.upload(p.data(), st);
        ds.upload(s.data(), st);
    }
    const size_t bytes = msm::msm_device_workspace_bytes<G>(n, opt);
    gpu::device_buffer<char> ws(bytes, st);
    jacobian<G> r = msm::msm_device<G>(dp.data(), ds.data(), n, ws.data(), bytes, st, opt);
    st.synchronize();
    return r;
}

template <class C>
class MsmDevice : public ::testing::Test {};
TYPED_TEST_SUITE(MsmDevice, MsmDeviceCases);

TYPED_TEST(MsmDevice, SizesAgainstHost) {
    SKIP_WITHOUT_GPU();
    using C = TypeParam;
    using G = typename C::group;
    auto pts = random_points<G>(4097, 1);
    auto sc = random_scalars<G>(4097, 2);
    for (size_t n : {0, 1, 2, 3, 31, 32, 33, 63, 64, 65, 100, 127, 129, 255, 257, 1000, 1023, 1025, 4095, 4097}) {
        auto p = std::span<const affine<G>>(pts).first(n);
        auto s = std::span<const scalar_int<G>>(sc).first(n);
        EXPECT_TRUE(run_device<C>(p, s) == msm::msm_host<G>(p, s)) << G::name << " n=" << n;
    }
}

TYPED_TEST(MsmDevice, EdgeScalarsAndPoints) {
    SKIP_WITHOUT_GPU();
    using C = TypeParam;
    using G = typename C::group;
    const edge_inputs<G> edge;
    const auto& pts = edge.points;
    const auto& sc = edge.scalars;
    const jacobian<G> want = naive_msm<G>(pts, sc);
    for (unsigned c : {0u, 1u, 5u, 8u, 13u, 16u, 20u})
        EXPECT_TRUE(run_device<C>(pts, sc, {.window_bits = c}) == want) << "c=" << c;
}

TYPED_TEST(MsmDevice, ZeroScalarsAndIdentityPoints) {
    SKIP_WITHOUT_GPU();
    using C = TypeParam;
    using G = typename C::group;
    auto pts = random_points<G>(33, 4);
    std::vector<scalar_int<G>> zeros(33);
    EXPECT_TRUE(run_device<C>(pts, zeros).is_identity());
    std::vector<affine<G>> ids(33, affine<G>::identity());
    auto sc = random_scalars<G>(33, 5);
    EXPECT_TRUE(run_device<C>(ids, sc).is_identity());
    zeros[17] = scalar_int<G>::from_u64(1);
    EXPECT_TRUE(run_device<C>(pts, zeros) == pts[17]);
}

TYPED_TEST(MsmDevice, EveryWindowSize) {
    SKIP_WITHOUT_GPU();
    using C = TypeParam;
    using G = typename C::group;
    auto pts = random_points<G>(100, 9);
    auto sc = random_scalars<G>(100, 10);
    const jacobian<G> want = naive_msm<G>(pts, sc);
    for (unsigned c = 1; c <= msm::device_max_window_bits; ++c)
        EXPECT_TRUE(run_device<C>(pts, sc, {.window_bits = c}) == want) << "c=" << c;
    for (size_t n = 1; n < (size_t(1) << 31); n *= 2) {
        unsigned c = msm::device_window_bits(n, G::scalar::modulus_bits);
        EXPECT_GE(c, 1u);
        EXPECT_LE(c, msm::device_max_window_bits);
    }
}

TYPED_TEST(MsmDevice, AllScalarsEqualLongRuns) {
    SKIP_WITHOUT_GPU();
    using C = TypeParam;
    using G = typename C::group;
    // every digit of a window lands in one bucket: runs span many accumulation segments
    const size_t n = (size_t(1) << 16) + 3;
    auto prog = progression<G>::make(20, 256);
    auto pts = prog.points(n);
    std::vector<scalar_int<G>> same(n, random_scalars<G>(1, 21)[0]);
    EXPECT_TRUE(run_device<C>(pts, same) == prog.expected(same));
    std::vector<scalar_int<G>> ones(n, scalar_int<G>::from_u64(1));
    EXPECT_TRUE(run_device<C>(pts, ones) == prog.expected(ones));
}

TYPED_TEST(MsmDevice, MontgomeryFormScalars) {
    SKIP_WITHOUT_GPU();
    using C = TypeParam;
    using G = typename C::group;
    using Fr = typename G::scalar;
    auto pts = random_points<G>(65, 11);
    std::mt19937_64 rng(12);
    std::vector<scalar_int<G>> mont(65), canon(65);
    for (size_t i = 0; i < 65; ++i) {
        Fr x = Fr::random(rng);
        mont[i] = x.mont;
        canon[i] = x.to_canonical();
    }
    EXPECT_TRUE(run_device<C>(pts, mont, {.form = msm::scalar_form::montgomery}) == naive_msm<G>(pts, canon));
}

TYPED_TEST(MsmDevice, RepeatableBitForBit) {
    SKIP_WITHOUT_GPU();
    using C = TypeParam;
    using G = typename C::group;
    const size_t n = 1 << 14;
    auto prog = progression<G>::make(30, 128);
    auto pts = prog.points(n);
    auto sc = random_scalars<G>(n, 31);
    jacobian<G> first = run_device<C>(pts, sc);
    for (int rep = 0; rep < 3; ++rep) {
        jacobian<G> again = run_device<C>(pts, sc);
        EXPECT_EQ(std::memcmp(&first, &again, sizeof first), 0) << "run " << rep;
    }
    EXPECT_TRUE(first == prog.expected(sc));
}

TYPED_TEST(MsmDevice, HostVsDeviceUpTo2Pow20) {
    SKIP_WITHOUT_GPU();
    using C = TypeParam;
    using G = typename C::group;
    const size_t nmax = size_t(1) << 20;
    auto prog = progression<G>::make(40, 1024);
    auto pts = prog.points(nmax);
    auto sc = random_scalars<G>(nmax, 41);
    for (size_t n : {(size_t(1) << 18) - 1, nmax}) {
        auto p = std::span<const affine<G>>(pts).first(n);
        auto s = std::span<const scalar_int<G>>(sc).first(n);
        jacobian<G> dev = run_device<C>(p, s);
        EXPECT_TRUE(dev == prog.expected(s)) << "closed form, n=" << n;
        EXPECT_TRUE(dev == msm::msm_host<G>(p, s)) << "host, n=" << n;
        gpu::stream st;
        EXPECT_TRUE(msm::msm_device_from_host<G>(p.data(), s.data(), n, st, C::options()) == dev) << "from host, n=" << n;
    }
}

TYPED_TEST(MsmDevice, FromHostAndWorkspaceCheck) {
    SKIP_WITHOUT_GPU();
    using C = TypeParam;
    using G = typename C::group;
    auto pts = random_points<G>(77, 50);
    auto sc = random_scalars<G>(77, 51);
    gpu::stream st;
    EXPECT_TRUE(msm::msm_device_from_host<G>(pts.data(), sc.data(), 77, st, C::options()) == naive_msm<G>(pts, sc));
    EXPECT_TRUE(msm::msm_device_from_host<G>(pts.data(), sc.data(), 0, st, C::options()).is_identity());
    // Pinned inputs (the point upload then really runs beside the sort).
    affine<G>* pinned = nullptr;
    ASSERT_EQ(cudaMallocHost(reinterpret_cast<void**>(&pinned), 77 * sizeof(affine<G>)), cudaSuccess);
    std::copy(pts.begin(), pts.end(), pinned);
    EXPECT_TRUE(msm::msm_device_from_host<G>(pinned, sc.data(), 77, st, C::options({.window_bits = 3})) ==
                naive_msm<G>(pts, sc));
    cudaFreeHost(pinned);
    gpu::device_buffer<affine<G>> dp(77, st);
    gpu::device_buffer<scalar_int<G>> ds(77, st);
    const size_t bytes = msm::msm_device_workspace_bytes<G>(77, C::options());
    gpu::device_buffer<char> ws(bytes, st);
    EXPECT_THROW(msm::msm_device<G>(dp.data(), ds.data(), 77, ws.data(), bytes - 1, st, C::options()),
                 cuzk::invalid_argument);
    EXPECT_THROW(msm::msm_device<G>(dp.data(), ds.data(), 77, ws.data(), bytes, st,
                                    {.window_bits = msm::device_max_window_bits + 1}),
                 cuzk::invalid_argument);
    st.synchronize();
}

// device_options::scalar_bits: scalars below 2^bits with fewer windows equal the naive sum for
// every window width (including the top bit set and a scalar of exactly 2^bits - 1); a scalar
// too long for the windows is detected and throws; bits beyond r's length are rejected up front.
TYPED_TEST(MsmDevice, ShortScalarsWithFewerWindows) {
    SKIP_WITHOUT_GPU();
    using C = TypeParam;
    using G = typename C::group;
    const size_t n = 300;
    auto pts = random_points<G>(n, 60);
    std::mt19937_64 rng(61);
    for (unsigned bits : {1u, 17u, 64u, 100u, 128u}) {
        std::vector<scalar_int<G>> sc(n);
        for (auto& x : sc) {
            x = scalar_int<G>{};
            for (unsigned b = 0; b < bits; b += 64) {
                const uint64_t w = rng();
                x.limb[b / 64] = bits - b >= 64 ? w : w & ((uint64_t(1) << (bits - b)) - 1);
            }
        }
        sc[0] = scalar_int<G>{};  // 2^bits - 1: every digit at its extreme
        for (unsigned b = 0; b < bits; ++b) sc[0].limb[b / 64] |= uint64_t(1) << (b % 64);
        sc[1] = scalar_int<G>{};
        sc[1].limb[(bits - 1) / 64] = uint64_t(1) << ((bits - 1) % 64);  // only the top bit
        const jacobian<G> want = naive_msm<G>(pts, sc);
        for (unsigned c : {1u, 3u, 8u, 13u, 16u})
            EXPECT_TRUE(run_device<C>(pts, sc, {.window_bits = c, .scalar_bits = bits}) == want)
                << "bits=" << bits << " c=" << c;
        // A scalar that breaks the promise: 2^bits still fits the windows (they cover at least
        // bits + 1 bits) and is summed correctly; one the windows cannot hold, 2^(W c) or
        // 2^(W c) - 1 (its top digit carries out), throws instead of giving a wrong sum.
        for (unsigned c : {4u, 16u}) {
            const unsigned top = msm::num_windows(bits, c) * c;
            auto trial = sc;
            trial[2] = scalar_int<G>{};
            trial[2].limb[bits / 64] = uint64_t(1) << (bits % 64);
            EXPECT_TRUE(run_device<C>(pts, trial, {.window_bits = c, .scalar_bits = bits}) == naive_msm<G>(pts, trial))
                << "bits=" << bits << " c=" << c;
            trial[2] = scalar_int<G>{};
            trial[2].limb[top / 64] = uint64_t(1) << (top % 64);
            EXPECT_THROW(run_device<C>(pts, trial, {.window_bits = c, .scalar_bits = bits}), cuzk::invalid_argument)
                << "bits=" << bits << " c=" << c;
            trial[2] = scalar_int<G>{};
            for (unsigned b = 0; b < top; ++b) trial[2].limb[b / 64] |= uint64_t(1) << (b % 64);
            EXPECT_THROW(run_device<C>(pts, trial, {.window_bits = c, .scalar_bits = bits}), cuzk::invalid_argument)
                << "bits=" << bits << " c=" << c << " (all ones)";
        }
    }
    // Montgomery form: the promise is about the reduced value.
    std::vector<scalar_int<G>> small(n), mont(n);
    for (size_t i = 0; i < n; ++i) {
        small[i] = scalar_int<G>::from_u64(rng() >> 1);
        mont[i] = G::scalar::from_canonical(small[i]).mont;
    }
    EXPECT_TRUE(run_device<C>(pts, mont, {.form = msm::scalar_form::montgomery, .scalar_bits = 63}) ==
                naive_msm<G>(pts, small));
    EXPECT_THROW(msm::msm_device_workspace_bytes<G>(n, {.scalar_bits = unsigned(G::scalar::modulus_bits) + 1}),
                 cuzk::invalid_argument);
}

// Batch-affine's exceptional pairs, placed where the chains of one thread meet them in the same
// step: all scalars equal, so each window is one run over every point in index order (the sort
// is stable), cut into chains of about 16 pairs at these sizes (affine_min_chain: chain j of a
// thread walks points ~16j..16j+15 of a window). Each block of 16 starts with P, P (a
// doubling), Q, -Q (the sum becomes the identity mid-run), an identity point, then U, V, U + V
// (a doubling of a computed sum); the rest random. Against the naive sum, with both accumulations, and with several
// buckets (two scalars alternating every 16 points) as well.
TYPED_TEST(MsmDevice, BatchAffineExceptionalPairs) {
    SKIP_WITHOUT_GPU();
    using C = TypeParam;
    using G = typename C::group;
    const size_t n = 16 * 7 + 5;
    auto pts = random_points<G>(n, 70);
    for (size_t j = 0; j + 8 <= n; j += 16) {
        pts[j + 1] = pts[j];
        pts[j + 3] = -pts[j + 2];
        pts[j + 4] = affine<G>::identity();
        pts[j + 7] = to_affine(xyzz<G>::from_affine(pts[j + 5]) + pts[j + 6]);
    }
    const auto two = random_scalars<G>(2, 71);
    std::vector<scalar_int<G>> same(n, two[0]), alternating(n);
    for (size_t i = 0; i < n; ++i) alternating[i] = two[(i / 16) % 2];
    for (unsigned c : {0u, 4u, 9u}) {
        EXPECT_TRUE(run_device<C>(pts, same, {.window_bits = c}) == naive_msm<G>(pts, same)) << "c=" << c;
        EXPECT_TRUE(run_device<C>(pts, alternating, {.window_bits = c}) == naive_msm<G>(pts, alternating))
            << "c=" << c;
    }
    // Every point P paired with -P in the same bucket: the whole sum is the identity.
    std::vector<affine<G>> cancel(n);
    for (size_t i = 0; i < n; ++i) cancel[i] = i % 2 ? -pts[i - 1] : pts[i];
    cancel[n - 1] = affine<G>::identity();
    EXPECT_TRUE(run_device<C>(cancel, same).is_identity());
}

}  // namespace
