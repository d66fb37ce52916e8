// SPDX-License-Identifier: MIT OR Apache-2.0
// Group law of every curve group (BLS12-381 G1/G2, BN254 G1/G2) in every coordinate system,
// against the textbook affine oracle in test_ec_util.hpp: random points (in and outside the
// subgroup), every exceptional case, mixed-representation equality, scalar multiplication
// (constant-time == wNAF == double-and-add) and batch normalisation.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuzk/ec/batch_normalize.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "test_ec_util.hpp"

using namespace cuzk;
using namespace ec_test;

template <class G>
class ec_group : public ::testing::Test {};
using groups = ::testing::Types<bls12_381::g1, bls12_381::g2, bn254::g1, bn254::g2>;
TYPED_TEST_SUITE(ec_group, groups);

namespace {
/// Random test points: half in the subgroup, half anywhere on the curve.
template <class G>
std::vector<affine<G>> sample_points(std::mt19937_64& rng, size_t n) {
    std::vector<affine<G>> pts;
    for (size_t i = 0; i < n; ++i)
        pts.push_back(i % 2 == 0 ? random_subgroup_point<G>(rng) : random_curve_point<G>(rng));
    return pts;
}
}  // namespace

TYPED_TEST(ec_group, generator_is_on_curve_and_has_order_r) {
    using G = TypeParam;
    auto g = affine<G>::generator();
    EXPECT_TRUE(g.is_on_curve());
    EXPECT_FALSE(g.is_identity());
    EXPECT_TRUE(oracle_mul(g, G::scalar::modulus).is_identity());
    EXPECT_TRUE(affine<G>::identity().is_on_curve());
    EXPECT_TRUE(jacobian<G>::identity().is_identity());
    EXPECT_TRUE(xyzz<G>::identity().is_identity());
}

TYPED_TEST(ec_group, off_curve_points_are_detected) {
    using G = TypeParam;
    using F = typename G::field;
    std::mt19937_64 rng(1);
    for (int i = 0; i < 20; ++i) {
        auto p = random_curve_point<G>(rng);
        ASSERT_TRUE(p.is_on_curve());
        affine<G> bad{p.x, p.y + F::one()};
        EXPECT_FALSE(bad.is_on_curve());
        EXPECT_FALSE(to_jacobian(bad).is_on_curve());
        EXPECT_FALSE(to_xyzz(bad).is_on_curve());
        EXPECT_TRUE(rescaled_jacobian(p, rng).is_on_curve());
        EXPECT_TRUE(rescaled_xyzz(p, rng).is_on_curve());
    }
    // (0, 0) is the identity by convention; (0, y) for y != 0 is off the curve unless y^2 = b.
    EXPECT_FALSE((affine<G>{F::zero(), F::one()}.is_on_curve()));
}

TYPED_TEST(ec_group, add_matches_oracle_in_every_representation) {
    using G = TypeParam;
    std::mt19937_64 rng(2);
    auto pts = sample_points<G>(rng, 16);
    for (size_t i = 0; i < pts.size(); ++i) {
        for (size_t j = 0; j < pts.size(); j += 3) {
            const auto& p = pts[i];
            const auto& q = pts[(i + j) % pts.size()];
            affine<G> want = oracle_add(p, q);
            auto jp = rescaled_jacobian(p, rng), jq = rescaled_jacobian(q, rng);
            auto xp = rescaled_xyzz(p, rng), xq = rescaled_xyzz(q, rng);
            EXPECT_EQ(to_affine(jp + jq), want);
            EXPECT_EQ(to_affine(jp + q), want);
            EXPECT_EQ(to_affine(q + jp), want);
            EXPECT_EQ(to_affine(xp + xq), want);
            EXPECT_EQ(to_affine(xp + q), want);
            EXPECT_TRUE((jp + jq).is_on_curve());
            EXPECT_TRUE((xp + xq).is_on_curve());
            // equality across representations
            EXPECT_TRUE(jp + jq == want);
            EXPECT_TRUE(xp + q == want);
            EXPECT_TRUE(xp + xq == jp + q);
            EXPECT_TRUE(want == xp + q);
        }
    }
}

TYPED_TEST(ec_group, doubling_matches_oracle_and_add_path) {
    using G = TypeParam;
    std::mt19937_64 rng(3);
    for (const auto& p : sample_points<G>(rng, 16)) {
        affine<G> want = oracle_add(p, p);
        auto j1 = rescaled_jacobian(p, rng), j2 = rescaled_jacobian(p, rng);
        auto x1 = rescaled_xyzz(p, rng), x2 = rescaled_xyzz(p, rng);
        EXPECT_EQ(to_affine(j1.dbl()), want);
        EXPECT_EQ(to_affine(x1.dbl()), want);
        EXPECT_EQ(to_affine(xyzz<G>::dbl(p)), want);
        // P + P through the add paths, with different Z for the two copies
        EXPECT_EQ(to_affine(j1 + j2), want);
        EXPECT_EQ(to_affine(j1 + p), want);
        EXPECT_EQ(to_affine(x1 + x2), want);
        EXPECT_EQ(to_affine(x1 + p), want);
    }
}

TYPED_TEST(ec_group, exceptional_cases) {
    using G = TypeParam;
    using J = jacobian<G>;
    using X = xyzz<G>;
    using A = affine<G>;
    std::mt19937_64 rng(4);
    for (const auto& p : sample_points<G>(rng, 8)) {
        auto jp = rescaled_jacobian(p, rng), jn = rescaled_jacobian(-p, rng);
        auto xp = rescaled_xyzz(p, rng), xn = rescaled_xyzz(-p, rng);
        auto jo = rescaled_jacobian(A::identity(), rng);  // identity with garbage X, Y
        auto xo = rescaled_xyzz(A::identity(), rng);
        // P + (-P)
        EXPECT_TRUE((jp + jn).is_identity());
        EXPECT_TRUE((jp + (-p)).is_identity());
        EXPECT_TRUE((jp - jp).is_identity());
        EXPECT_TRUE((xp + xn).is_identity());
        EXPECT_TRUE((xp + (-p)).is_identity());
        EXPECT_TRUE((xp - p).is_identity());
        // identity on either side, in every representation
        EXPECT_EQ(to_affine(jp + jo), p);
        EXPECT_EQ(to_affine(jo + jp), p);
        EXPECT_EQ(to_affine(jo + p), p);
        EXPECT_EQ(to_affine(jp + A::identity()), p);
        EXPECT_EQ(to_affine(xp + xo), p);
        EXPECT_EQ(to_affine(xo + xp), p);
        EXPECT_EQ(to_affine(xo + p), p);
        EXPECT_EQ(to_affine(xp + A::identity()), p);
        // subtraction
        auto q = random_curve_point<G>(rng);
        EXPECT_EQ(to_affine(jp - q + q), p);
        EXPECT_EQ(to_affine(xp - q + q), p);
        // equality: P != -P, P != O
        EXPECT_FALSE(jp == jn);
        EXPECT_FALSE(xp == xn);
        EXPECT_FALSE(jp == jo);
        EXPECT_FALSE(xp == A::identity());
        EXPECT_TRUE(jp == xp);
        EXPECT_TRUE(jo == xo);
        EXPECT_TRUE(jo == A::identity());
    }
    EXPECT_TRUE((J::identity() + J::identity()).is_identity());
    EXPECT_TRUE(J::identity().dbl().is_identity());
    EXPECT_TRUE((X::identity() + X::identity()).is_identity());
    EXPECT_TRUE(X::identity().dbl().is_identity());
    EXPECT_TRUE(X::dbl(A::identity()).is_identity());
    EXPECT_TRUE((X::identity() + A::identity()).is_identity());
    EXPECT_TRUE((J::identity() + A::identity()).is_identity());
    EXPECT_EQ(to_affine(J::identity()), A::identity());
    EXPECT_EQ(to_affine(X::identity()), A::identity());
    EXPECT_EQ(-A::identity(), A::identity());
    // canonical identities are all-zero bytes (memset-friendly)
    EXPECT_TRUE(J{}.is_identity());
    EXPECT_TRUE(X{}.is_identity());
    EXPECT_TRUE(A{}.is_identity());
}

TYPED_TEST(ec_group, group_axioms_on_random_points) {
    using G = TypeParam;
    std::mt19937_64 rng(5);
    auto pts = sample_points<G>(rng, 9);
    for (size_t i = 0; i + 2 < pts.size(); ++i) {
        auto a = to_jacobian(pts[i]), b = to_jacobian(pts[i + 1]), c = to_jacobian(pts[i + 2]);
        EXPECT_TRUE((a + b) + c == a + (b + c));
        EXPECT_TRUE(a + b == b + a);
        auto xa = to_xyzz(pts[i]), xb = to_xyzz(pts[i + 1]), xc = to_xyzz(pts[i + 2]);
        EXPECT_TRUE((xa + xb) + xc == xa + (xb + xc));
        EXPECT_TRUE(xa.dbl() + xb == xa + (xa + xb));
    }
}

TYPED_TEST(ec_group, conversions_round_trip) {
    using G = TypeParam;
    std::mt19937_64 rng(6);
    for (const auto& p : sample_points<G>(rng, 8)) {
        auto j = rescaled_jacobian(p, rng);
        auto x = rescaled_xyzz(p, rng);
        EXPECT_EQ(to_affine(to_xyzz(j)), p);
        EXPECT_EQ(to_affine(to_jacobian(x)), p);
        EXPECT_TRUE(to_jacobian(x) == x);
        EXPECT_TRUE(to_xyzz(j) == j);
        EXPECT_EQ(to_affine(to_jacobian(p)), p);
        EXPECT_EQ(to_affine(to_xyzz(p)), p);
    }
}

TYPED_TEST(ec_group, batch_normalize_matches_to_affine) {
    using G = TypeParam;
    std::mt19937_64 rng(7);
    std::vector<jacobian<G>> js;
    std::vector<xyzz<G>> xs;
    std::vector<affine<G>> want;
    for (int i = 0; i < 12; ++i) {
        affine<G> p = (i % 4 == 1) ? affine<G>::identity() : random_curve_point<G>(rng);
        want.push_back(p);
        js.push_back(rescaled_jacobian(p, rng));
        xs.push_back(rescaled_xyzz(p, rng));
    }
    EXPECT_EQ(batch_normalize(std::span<const jacobian<G>>(js)), want);
    EXPECT_EQ(batch_normalize(std::span<const xyzz<G>>(xs)), want);
    std::vector<affine<G>> out(3);
    EXPECT_THROW(batch_normalize(std::span<const jacobian<G>>(js), std::span<affine<G>>(out)), invalid_argument);
    EXPECT_TRUE(batch_normalize(std::span<const jacobian<G>>()).empty());
}

TYPED_TEST(ec_group, scalar_mul_constant_time_equals_vartime_equals_naive) {
    using G = TypeParam;
    using S = typename G::scalar;
    std::mt19937_64 rng(8);
    const auto r = S::modulus;
    using I = typename S::integer;
    std::vector<S> scalars = {S::zero(), S::one(), S::from_u64(2), S::from_u64(15), S::from_u64(16),
                              S::from_u64(17), -S::one(), -S::from_u64(2),
                              S::from_canonical_unchecked(r.shr(1)), S::from_canonical_unchecked(I::from_u64(1).shl(252))};
    for (int i = 0; i < 3; ++i) scalars.push_back(S::random(rng));
    auto pts = sample_points<G>(rng, 2);
    pts.push_back(affine<G>::generator());
    pts.push_back(affine<G>::identity());
    for (const auto& p : pts) {
        for (const auto& k : scalars) {
            affine<G> want = oracle_mul(p, k.to_canonical());
            EXPECT_EQ(to_affine(mul(p, k)), want);
            EXPECT_EQ(to_affine(mul(rescaled_jacobian(p, rng), k)), want);
            EXPECT_EQ(to_affine(mul_vartime(p, k)), want);
            EXPECT_EQ(to_affine(mul_vartime(rescaled_jacobian(p, rng), k.to_canonical())), want);
            EXPECT_EQ(to_affine(mul_sparse_vartime(p, k.to_canonical())), want);
        }
    }
}

TYPED_TEST(ec_group, scalar_mul_by_order_and_wide_integers) {
    using G = TypeParam;
    using S = typename G::scalar;
    std::mt19937_64 rng(9);
    auto g = affine<G>::generator();
    EXPECT_TRUE(mul_vartime(g, S::modulus).is_identity());  // [r]G = O
    auto p = random_subgroup_point<G>(rng);
    EXPECT_TRUE(mul_vartime(p, S::modulus).is_identity());
    // [r + 5]P = [5]P; a 2-limb-wider integer agrees with the oracle
    auto r5 = S::modulus + S::integer::from_u64(5);
    EXPECT_EQ(to_affine(mul_vartime(p, r5)), oracle_mul(p, bigint<1>{{5}}));
    bigint<6> wide{};
    for (auto& l : wide.limb) l = rng();
    auto q = random_curve_point<G>(rng);
    EXPECT_EQ(to_affine(mul_vartime(q, wide)), oracle_mul(q, wide));
    // [k](P + Q) = [k]P + [k]Q and [a + b]P = [a]P + [b]P
    S a = S::random(rng), b = S::random(rng);
    EXPECT_TRUE(mul(p, a + b) == mul(p, a) + mul(p, b));
    auto pq = to_affine(to_jacobian(p) + g);
    EXPECT_TRUE(mul(pq, a) == mul(p, a) + mul(g, a));
    // [-k]P = -[k]P
    EXPECT_TRUE(mul(p, -a) == -mul(p, a));
}

TYPED_TEST(ec_group, subgroup_scalar_mul_with_endomorphism_equals_naive) {
    using G = TypeParam;
    using S = typename G::scalar;
    std::mt19937_64 rng(10);
    std::vector<S> scalars = {S::zero(), S::one(), -S::one(), S::from_u64(31), S::from_u64(32)};
    for (int i = 0; i < 3; ++i) scalars.push_back(S::random(rng));
    // digits at the edges of the base-e decomposition: e - 1, e, e + 1, e^2 (when below r)
    bigint<4> e{};
    if constexpr (has_eigenvalue_test<G>) {
        for (size_t i = 0; i < G::eigenvalue_abs.limbs; ++i) e.limb[i] = G::eigenvalue_abs.limb[i];
        S es = S::from_canonical(e);
        scalars.push_back(es);
        scalars.push_back(es - S::one());
        scalars.push_back(es + S::one());
        scalars.push_back(es * es);
        scalars.push_back(es * es * es - S::one());
    }
    std::vector<affine<G>> pts = {affine<G>::generator(), affine<G>::identity(), random_subgroup_point<G>(rng)};
    for (const auto& p : pts) {
        for (const auto& k : scalars) {
            affine<G> want = oracle_mul(p, k.to_canonical());
            EXPECT_EQ(to_affine(mul_subgroup_vartime(p, k)), want);
            EXPECT_EQ(to_affine(mul_subgroup_vartime(rescaled_jacobian(p, rng), k)), want);
        }
    }
}
