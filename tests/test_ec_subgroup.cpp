// SPDX-License-Identifier: MIT OR Apache-2.0
// Curve constants, endomorphisms, subgroup membership and cofactor clearing.
//
// Every constant of the group configs is recomputed here with GMP from the curve parameter
// (x for BLS12-381, u for BN254); the fast endomorphism subgroup tests are cross-checked against
// [r]P == O on subgroup points, random curve points and points of small order.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <random>

#include "cuzk/ec/endomorphism.hpp"
#include "cuzk/ec/subgroup.hpp"
#include "test_ec_util.hpp"

using namespace cuzk;
using namespace ec_test;

// gmpxx's operator<< lives in libgmpxx, which the tests do not link: compare hex strings.
#define EXPECT_MPZ_EQ(a, b) EXPECT_EQ(mpz_class(a).get_str(16), mpz_class(b).get_str(16))

namespace {

template <size_t N>
mpz_class to_mpz(const bigint<N>& x) {
    mpz_class r = 0;
    for (size_t i = N; i-- > 0;) {
        r <<= 64;
        r += mpz_class(std::to_string(x.limb[i]));
    }
    return r;
}
template <size_t N>
bigint<N> to_big(mpz_class x) {
    EXPECT_TRUE(x >= 0);
    bigint<N> r{};
    for (size_t i = 0; i < N; ++i) {
        mpz_class lo = x % (mpz_class(1) << 64);
        r.limb[i] = std::stoull(lo.get_str());
        x >>= 64;
    }
    EXPECT_TRUE(x == 0) << "value does not fit";
    return r;
}
mpz_class hex(const char* s) { return mpz_class(s, 16); }

struct bls_params {
    mpz_class x = -hex("d201000000010000");
    mpz_class p = to_mpz(bls12_381::fp::modulus);
    mpz_class r = to_mpz(bls12_381::fr::modulus);
};
struct bn_params {
    mpz_class u = mpz_class("4965661367192848881");
    mpz_class p = to_mpz(bn254::fp::modulus);
    mpz_class r = to_mpz(bn254::fr::modulus);
};

}  // namespace

TEST(ec_constants, bls12_381_from_x) {
    bls_params c;
    const mpz_class& x = c.x;
    EXPECT_MPZ_EQ(c.r, x * x * x * x - x * x + 1);
    EXPECT_MPZ_EQ(c.p, (x - 1) * (x - 1) * c.r / 3 + x);
    EXPECT_MPZ_EQ(mpz_class(-x), to_mpz(bigint<1>{{bls12_381::x_abs}}));
    EXPECT_TRUE(bls12_381::x_is_negative);
    mpz_class h1 = (x - 1) * (x - 1) / 3;
    EXPECT_MPZ_EQ(to_mpz(bls12_381::g1::cofactor), h1);
    EXPECT_MPZ_EQ(to_mpz(bls12_381::g1::cofactor_clear), 1 - x);  // RFC 9380 h_eff
    EXPECT_MPZ_EQ(to_mpz(bls12_381::g1::eigenvalue_abs), x * x);
    mpz_class x2 = x * x, x3 = x2 * x, x4 = x3 * x, x6 = x4 * x2, x7 = x6 * x, x8 = x7 * x;
    mpz_class h2 = (x8 - 4 * x7 + 5 * x6 - 4 * x4 + 6 * x3 - 4 * x2 - 4 * x + 13) / 9;
    EXPECT_MPZ_EQ(to_mpz(bls12_381::g2::cofactor), h2);
    EXPECT_MPZ_EQ(to_mpz(bls12_381::g2::cofactor_clear), 3 * (x * x - 1) * h2);
    // psi acts as p mod r on G2, and p = x mod r for BLS12
    mpz_class pr = c.p % c.r, xr = ((x % c.r) + c.r) % c.r;
    EXPECT_MPZ_EQ(pr, xr);
    EXPECT_MPZ_EQ(to_mpz(bls12_381::g2::eigenvalue_abs), -x);
}

TEST(ec_constants, bn254_from_u) {
    bn_params c;
    const mpz_class& u = c.u;
    EXPECT_MPZ_EQ(c.p, 36 * u * u * u * u + 36 * u * u * u + 24 * u * u + 6 * u + 1);
    EXPECT_MPZ_EQ(c.r, 36 * u * u * u * u + 36 * u * u * u + 18 * u * u + 6 * u + 1);
    EXPECT_MPZ_EQ(to_mpz(bigint<1>{{bn254::u_param}}), u);
    EXPECT_MPZ_EQ(to_mpz(bn254::g1::cofactor), 1);
    EXPECT_MPZ_EQ(to_mpz(bn254::g2::cofactor), 2 * c.p - c.r);
    EXPECT_MPZ_EQ(to_mpz(bn254::g2::cofactor_clear), 2 * c.p - c.r);
    EXPECT_MPZ_EQ(to_mpz(bn254::g2::eigenvalue_abs), 6 * u * u);
    EXPECT_MPZ_EQ(c.p % c.r, 6 * u * u);
    // b' = 3 / (u + 9)
    bn254::fp2 xi{bn254::fp::from_u64(9), bn254::fp::one()};
    EXPECT_EQ(bn254::g2::b * xi, bn254::fp2::from_u64(3));
}

TEST(ec_constants, bls12_381_twist_coefficient) {
    bls12_381::fp2 want{bls12_381::fp::from_u64(4), bls12_381::fp::from_u64(4)};
    EXPECT_EQ(bls12_381::g2::b, want);
    EXPECT_EQ(bls12_381::g1::b, bls12_381::fp::from_u64(4));
}

TEST(ec_endomorphism, phi_is_a_cube_root_of_unity_with_eigenvalue_minus_x_squared) {
    using G = bls12_381::g1;
    bls_params c;
    auto beta = G::beta;
    EXPECT_FALSE(beta.is_one());
    EXPECT_TRUE((beta.square() * beta).is_one());
    mpz_class lambda = ((-c.x * c.x) % c.r + c.r) % c.r;
    auto g = affine<G>::generator();
    EXPECT_EQ(phi(g), oracle_mul(g, to_big<4>(lambda)));
    std::mt19937_64 rng(11);
    auto p = random_subgroup_point<G>(rng);
    EXPECT_EQ(phi(p), oracle_mul(p, to_big<4>(lambda)));
    EXPECT_TRUE(phi(to_jacobian(p)) == phi(p));
    auto q = random_curve_point<G>(rng);
    EXPECT_TRUE(phi(q).is_on_curve());
}

template <class G, class Params>
void check_psi(const Params& c) {
    std::mt19937_64 rng(12);
    mpz_class pr = c.p % c.r;
    auto g = affine<G>::generator();
    EXPECT_EQ(psi(g), oracle_mul(g, to_big<4>(pr)));
    auto p = random_subgroup_point<G>(rng);
    EXPECT_EQ(psi(p), oracle_mul(p, to_big<4>(pr)));
    auto q = random_curve_point<G>(rng);
    auto pq = psi(q);
    EXPECT_TRUE(pq.is_on_curve());
    EXPECT_TRUE(psi(rescaled_jacobian(q, rng)) == pq);
    // psi is a group homomorphism on the whole twist
    auto q2 = random_curve_point<G>(rng);
    EXPECT_EQ(psi(oracle_add(q, q2)), oracle_add(pq, psi(q2)));
    EXPECT_EQ(psi(affine<G>::identity()), affine<G>::identity());
}
TEST(ec_endomorphism, psi_bls12_381_acts_as_p_on_g2) { check_psi<bls12_381::g2>(bls_params{}); }
TEST(ec_endomorphism, psi_bn254_acts_as_p_on_g2) { check_psi<bn254::g2>(bn_params{}); }

template <class G>
class ec_subgroup : public ::testing::Test {};
using groups = ::testing::Types<bls12_381::g1, bls12_381::g2, bn254::g1, bn254::g2>;
TYPED_TEST_SUITE(ec_subgroup, groups);

namespace {
/// Points of exactly the small prime order ell dividing the cofactor: with ell^k the full
/// power of ell in #E, T = [#E / ell^k]Q has order ell^j; multiply by ell until [ell]T = O.
template <class G>
std::vector<affine<G>> torsion_points(std::mt19937_64& rng, const mpz_class& ell, int count) {
    mpz_class n = to_mpz(G::cofactor) * to_mpz(G::scalar::modulus);
    while (n % ell == 0) n /= ell;
    std::vector<affine<G>> out;
    while (int(out.size()) < count) {
        auto t = to_affine(mul_vartime(random_curve_point<G>(rng), to_big<12>(n)));
        if (t.is_identity()) continue;
        for (auto u = oracle_mul(t, to_big<1>(ell)); !u.is_identity(); u = oracle_mul(t, to_big<1>(ell))) t = u;
        out.push_back(t);
    }
    return out;
}
/// The small prime factors of each cofactor (trial division found them; checked here).
template <class G>
std::vector<mpz_class> small_factors() {
    if constexpr (std::is_same_v<G, bls12_381::g1>) return {3, 11, 10177};
    if constexpr (std::is_same_v<G, bls12_381::g2>) return {13, 23, 2713, 11953};
    if constexpr (std::is_same_v<G, bn254::g2>) return {10069};
    return {};
}
}  // namespace

TYPED_TEST(ec_subgroup, fast_test_agrees_with_multiplication_by_r) {
    using G = TypeParam;
    std::mt19937_64 rng(13);
    std::vector<affine<G>> in, out;
    for (int i = 0; i < 6; ++i) in.push_back(random_subgroup_point<G>(rng));
    in.push_back(affine<G>::identity());
    in.push_back(affine<G>::generator());
    for (int i = 0; i < 6; ++i) out.push_back(random_curve_point<G>(rng));
    for (const auto& ell : small_factors<G>()) {
        EXPECT_TRUE(to_mpz(G::cofactor) % ell == 0) << ell.get_str();
        for (const auto& t : torsion_points<G>(rng, ell, 2)) {
            out.push_back(t);                                               // order ell
            out.push_back(oracle_add(t, random_subgroup_point<G>(rng)));    // order ell * r
        }
    }
    for (const auto& p : in) {
        EXPECT_TRUE(is_in_subgroup_by_order(to_jacobian(p)));
        EXPECT_TRUE(is_in_subgroup(p));
        EXPECT_TRUE(is_in_subgroup(rescaled_jacobian(p, rng)));
    }
    const bool cofactor_one = to_mpz(G::cofactor) == 1;
    for (const auto& p : out) {
        bool by_order = is_in_subgroup_by_order(to_jacobian(p));
        EXPECT_EQ(is_in_subgroup(p), by_order);
        EXPECT_EQ(is_in_subgroup(rescaled_jacobian(p, rng)), by_order);
        if (!cofactor_one) {
            EXPECT_FALSE(by_order);  // random points almost never land in G
        }
    }
}

TYPED_TEST(ec_subgroup, clear_cofactor_lands_in_the_subgroup) {
    using G = TypeParam;
    std::mt19937_64 rng(14);
    for (int i = 0; i < 4; ++i) {
        auto q = random_curve_point<G>(rng);
        auto c = clear_cofactor(q);
        EXPECT_TRUE(c.is_on_curve());
        EXPECT_TRUE(is_in_subgroup_by_order(c));
        EXPECT_TRUE(is_in_subgroup(c));
        EXPECT_TRUE(c == oracle_mul(q, G::cofactor_clear));
    }
    EXPECT_TRUE(clear_cofactor(affine<G>::identity()).is_identity());
}

TEST(ec_subgroup_bls12_381, order_three_points_on_e1_are_rejected) {
    // (0, +-2): x = 0 gives y^2 = 4; these have order 3 and must not pass as G1 points.
    using G = bls12_381::g1;
    for (auto y : {bls12_381::fp::from_u64(2), -bls12_381::fp::from_u64(2)}) {
        affine<G> t{bls12_381::fp::zero(), y};
        EXPECT_TRUE(t.is_on_curve());
        EXPECT_FALSE(t.is_identity());
        EXPECT_FALSE(is_in_subgroup(t));
        EXPECT_FALSE(is_in_subgroup_by_order(to_jacobian(t)));
        EXPECT_TRUE(oracle_mul(t, bigint<1>{{3}}).is_identity());
    }
}

// The affine subgroup test takes mul_sparse_vartime exactly where the eigenvalue is sparse.
static_assert(detail::sparse_eigenvalue<bls12_381::g1>() && detail::sparse_eigenvalue<bls12_381::g2>());
static_assert(!detail::sparse_eigenvalue<bn254::g2>() && !detail::sparse_eigenvalue<bn254::g1>());
static_assert(detail::naf_weight(bls12_381::g2::eigenvalue_abs) == 6);  // |x| = 0xd201000000010000

