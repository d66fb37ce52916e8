// Host MSM: every edge case of issue 4 against the naive sum of scalar multiplications, and a
// closed-form check at a larger non-power-of-two size.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "cuzk/msm/pippenger_host.hpp"
#include "test_msm_util.hpp"

namespace {

using namespace cuzk;
using namespace msm_test;

template <class G>
class MsmHost : public ::testing::Test {};
using Groups = ::testing::Types<bls_g1, bn_g1, bls_g2, bn_g2>;
TYPED_TEST_SUITE(MsmHost, Groups);

template <class G>
void expect_msm_eq_naive(std::span<const affine<G>> p, std::span<const scalar_int<G>> s, msm::host_options opt = {}) {
    jacobian<G> got = msm::msm_host<G>(p, s, opt);
    jacobian<G> want = naive_msm<G>(p, s);
    EXPECT_TRUE(got == want) << G::name << " n=" << p.size() << " c=" << opt.window_bits;
    EXPECT_TRUE(got.is_on_curve());
}

TYPED_TEST(MsmHost, SizesAgainstNaive) {
    using G = TypeParam;
    auto pts = random_points<G>(130, 1);
    auto sc = random_scalars<G>(130, 2);
    // prefix sums of the naive terms: the oracle for every n at the cost of the largest
    std::vector<jacobian<G>> prefix(131, jacobian<G>::identity());
    for (size_t i = 0; i < 130; ++i) prefix[i + 1] = prefix[i] + mul_vartime(pts[i], sc[i]);
    for (size_t n : {0, 1, 2, 3, 31, 32, 33, 63, 64, 65, 100, 127, 129}) {
        jacobian<G> got = msm::msm_host<G>(std::span(pts).first(n), std::span(sc).first(n));
        EXPECT_TRUE(got == prefix[n]) << G::name << " n=" << n;
    }
}

TYPED_TEST(MsmHost, EmptyIsIdentity) {
    using G = TypeParam;
    EXPECT_TRUE(msm::msm_host<G>(std::span<const affine<G>>{}, std::span<const scalar_int<G>>{}).is_identity());
}

TYPED_TEST(MsmHost, EdgeScalarsAndPoints) {
    using G = TypeParam;
    using I = scalar_int<G>;
    const I r = G::scalar::modulus, one = I::from_u64(1);
    I all_ones{};
    for (auto& l : all_ones.limb) l = ~uint64_t(0);
    auto pts = random_points<G>(12, 3);
    // identity among the points, a duplicate, and P / -P with equal scalars
    pts[3] = affine<G>::identity();
    pts[5] = pts[4];
    pts[7] = -pts[6];
    std::vector<I> sc = {I{}, one, r - one, r, r + one, all_ones, one.shl(G::scalar::modulus_bits - 1),
                         I::from_u64(12345), I::from_u64(99), I::from_u64(7), I::from_u64(2), one.shl(255)};
    sc[6] = sc[7];  // P and -P with the same scalar cancel
    const jacobian<G> want = naive_msm<G>(pts, sc);
    for (unsigned c : {0u, 1u, 5u, 8u, 13u, 16u}) {
        jacobian<G> got = msm::msm_host<G>(pts, sc, {.window_bits = c});
        EXPECT_TRUE(got == want) << "c=" << c;
    }
}

TYPED_TEST(MsmHost, ZeroScalarsAndIdentityPoints) {
    using G = TypeParam;
    auto pts = random_points<G>(33, 4);
    std::vector<scalar_int<G>> zeros(33);
    EXPECT_TRUE(msm::msm_host<G>(pts, zeros).is_identity());
    std::vector<affine<G>> ids(33, affine<G>::identity());
    auto sc = random_scalars<G>(33, 5);
    EXPECT_TRUE(msm::msm_host<G>(ids, sc).is_identity());
    // one non-zero scalar: exactly that point
    zeros[17] = scalar_int<G>::from_u64(1);
    EXPECT_TRUE(msm::msm_host<G>(pts, zeros) == pts[17]);
}

TYPED_TEST(MsmHost, AllScalarsEqualAndAllPointsEqual) {
    using G = TypeParam;
    auto pts = random_points<G>(64, 6);
    std::vector<scalar_int<G>> same(64, random_scalars<G>(1, 7)[0]);
    expect_msm_eq_naive<G>(pts, same);
    std::vector<affine<G>> dup(64, pts[0]);
    auto sc = random_scalars<G>(64, 8);
    expect_msm_eq_naive<G>(dup, sc);
}

TYPED_TEST(MsmHost, EveryWindowSize) {
    using G = TypeParam;
    auto pts = random_points<G>(40, 9);
    auto sc = random_scalars<G>(40, 10);
    const jacobian<G> want = naive_msm<G>(pts, sc);
    // Wide windows cost 2^c additions whatever n is; G2 (3x dearer) checks the widest only.
    constexpr bool g2 = requires { typename G::field::base; };  // coordinates in Fp2
    for (unsigned c = 1; c <= msm::host_max_window_bits; ++c) {
        if (g2 && c > 12 && c < msm::host_max_window_bits) continue;
        EXPECT_TRUE(msm::msm_host<G>(pts, sc, {.window_bits = c}) == want) << "c=" << c;
    }
    // and the widths the dispatcher picks across sizes are all in range
    for (size_t n = 1; n < (size_t(1) << 30); n *= 3) {
        unsigned c = msm::host_window_bits(n, G::scalar::modulus_bits);
        EXPECT_GE(c, 1u);
        EXPECT_LE(c, msm::host_max_window_bits);
    }
}

TYPED_TEST(MsmHost, MontgomeryFormScalars) {
    using G = TypeParam;
    using Fr = typename G::scalar;
    auto pts = random_points<G>(33, 11);
    std::mt19937_64 rng(12);
    std::vector<Fr> fr(33);
    std::vector<scalar_int<G>> canon(33);
    for (size_t i = 0; i < 33; ++i) {
        fr[i] = Fr::random(rng);
        canon[i] = fr[i].to_canonical();
    }
    jacobian<G> want = naive_msm<G>(pts, canon);
    EXPECT_TRUE(msm::msm_host<G>(std::span<const affine<G>>(pts), std::span<const Fr>(fr)) == want);
}

TYPED_TEST(MsmHost, RepeatableAndThreadCountIndependent) {
    using G = TypeParam;
    auto pts = random_points<G>(257, 13);
    auto sc = random_scalars<G>(257, 14);
    jacobian<G> a = msm::msm_host<G>(pts, sc), b = msm::msm_host<G>(pts, sc);
    EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0) << "two runs differ in their bytes";
    EXPECT_TRUE(msm::msm_host<G>(pts, sc, {.threads = 1}) == a);
    EXPECT_TRUE(msm::msm_host<G>(pts, sc, {.threads = 3}) == a);
}

TYPED_TEST(MsmHost, ClosedFormLargerN) {
    using G = TypeParam;
    const size_t n = (size_t(1) << 12) + 1;
    auto prog = progression<G>::make(15, 100);
    auto pts = prog.points(n);
    auto sc = random_scalars<G>(n, 16);
    EXPECT_TRUE(msm::msm_host<G>(pts, sc) == prog.expected(sc));
}

TYPED_TEST(MsmHost, RejectsBadArguments) {
    using G = TypeParam;
    auto pts = random_points<G>(3, 17);
    auto sc = random_scalars<G>(2, 18);
    EXPECT_THROW(msm::msm_host<G>(pts, sc), cuzk::invalid_argument);
    sc.push_back(sc[0]);
    EXPECT_THROW(msm::msm_host<G>(pts, sc, {.window_bits = msm::host_max_window_bits + 1}), cuzk::invalid_argument);
}

}  // namespace
