// SPDX-License-Identifier: MIT OR Apache-2.0
// Extension towers Fp2, Fp6, Fp12 of BLS12-381 and BN254: field axioms on random elements,
// products against schoolbook formulas written independently in this file, inverses,
// Frobenius maps against x^(p^k) computed by exponentiation (p^k from GMP), cyclotomic
// squaring, square roots in Fp2 against Euler's criterion, conjugation and the sign rule.
#include <gtest/gtest.h>

#include <array>
#include <random>

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"
#include "gmp_oracle.hpp"

namespace {

using cuzk::test::mpz;

struct bls12_381_tower {
    using fp = cuzk::bls12_381::fp;
    using fp2 = cuzk::bls12_381::fp2;
    using fp6 = cuzk::bls12_381::fp6;
    using fp12 = cuzk::bls12_381::fp12;
    static constexpr uint64_t xi0 = 1;  // xi = 1 + u (EIP-2537)
};
struct bn254_tower {
    using fp = cuzk::bn254::fp;
    using fp2 = cuzk::bn254::fp2;
    using fp6 = cuzk::bn254::fp6;
    using fp12 = cuzk::bn254::fp12;
    static constexpr uint64_t xi0 = 9;  // xi = 9 + u (EIP-197)
};

template <class T>
class Towers : public ::testing::Test {
protected:
    using fp = typename T::fp;
    using fp2 = typename T::fp2;
    using fp6 = typename T::fp6;
    using fp12 = typename T::fp12;
    static constexpr int kRandom = 200;

    std::mt19937_64 rng{0x70E125 + T::xi0};

    static fp2 xi() { return fp2{fp::from_u64(T::xi0), fp::one()}; }

    /// p^k as an integer of 6k limbs (GMP), for exponentiation oracles.
    template <size_t K>
    static auto p_pow() {
        mpz p(fp::modulus), r;
        mpz_pow_ui(r.get(), p.get(), K);
        return r.template to_bigint<fp::limbs * K>();
    }

    /// Schoolbook product in Fp2 with u^2 = -1, written from the definition.
    static fp2 fp2_schoolbook(const fp2& a, const fp2& b) {
        return fp2{a.c0 * b.c0 - a.c1 * b.c1, a.c0 * b.c1 + a.c1 * b.c0};
    }
    /// An Fp12 element as the 6 Fp2 coefficients of 1, w, ..., w^5 (w^2 = v, w^6 = xi).
    static std::array<fp2, 6> w_coeffs(const fp12& a) {
        return {a.c0.c0, a.c1.c0, a.c0.c1, a.c1.c1, a.c0.c2, a.c1.c2};
    }
    static fp12 from_w_coeffs(const std::array<fp2, 6>& x) {
        return fp12{fp6{x[0], x[2], x[4]}, fp6{x[1], x[3], x[5]}};
    }
    /// Schoolbook product of polynomials in w reduced by w^6 = xi (uses only fp2_schoolbook).
    static fp12 fp12_schoolbook(const fp12& a, const fp12& b) {
        auto x = w_coeffs(a), y = w_coeffs(b);
        std::array<fp2, 11> t{};
        for (int i = 0; i < 6; ++i)
            for (int j = 0; j < 6; ++j) t[i + j] += fp2_schoolbook(x[i], y[j]);
        std::array<fp2, 6> r{};
        for (int i = 0; i < 6; ++i) r[i] = t[i];
        for (int i = 6; i < 11; ++i) r[i - 6] += fp2_schoolbook(t[i], xi());
        return from_w_coeffs(r);
    }
    /// Schoolbook product in Fp6 reduced by v^3 = xi.
    static fp6 fp6_schoolbook(const fp6& a, const fp6& b) {
        std::array<fp2, 3> x{a.c0, a.c1, a.c2}, y{b.c0, b.c1, b.c2};
        std::array<fp2, 5> t{};
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) t[i + j] += fp2_schoolbook(x[i], y[j]);
        return fp6{t[0] + fp2_schoolbook(t[3], xi()), t[1] + fp2_schoolbook(t[4], xi()), t[2]};
    }

    template <class F>
    void check_axioms() {
        for (int i = 0; i < kRandom; ++i) {
            F a = F::random(rng), b = F::random(rng), c = F::random(rng);
            ASSERT_EQ(a + b, b + a);
            ASSERT_EQ(a * b, b * a);
            ASSERT_EQ((a + b) + c, a + (b + c));
            ASSERT_EQ((a * b) * c, a * (b * c));
            ASSERT_EQ(a * (b + c), a * b + a * c);
            ASSERT_EQ(a + F::zero(), a);
            ASSERT_EQ(a * F::one(), a);
            ASSERT_TRUE((a * F::zero()).is_zero());
            ASSERT_TRUE((a + (-a)).is_zero());
            ASSERT_EQ(a - b, a + (-b));
            ASSERT_EQ(a.dbl(), a + a);
            ASSERT_EQ(a.square(), a * a);
            ASSERT_TRUE((a * a.inverse()).is_one());
            ASSERT_EQ(a.inverse().inverse(), a);
            ASSERT_EQ((a * b).inverse(), a.inverse() * b.inverse());
            ASSERT_EQ(a.pow_vartime(cuzk::bigint<1>{{5}}), a * a * a * a * a);
        }
        ASSERT_TRUE(F::zero().inverse().is_zero());
        ASSERT_TRUE(F::one().inverse().is_one());
        ASSERT_TRUE(F::one().is_one());
        ASSERT_FALSE(F::zero().is_one());
        ASSERT_TRUE(F::zero().is_zero());
        ASSERT_EQ((-F::one()).square(), F::one());
    }
};

using tower_types = ::testing::Types<bls12_381_tower, bn254_tower>;
TYPED_TEST_SUITE(Towers, tower_types);

TYPED_TEST(Towers, Fp2Axioms) { this->template check_axioms<typename TestFixture::fp2>(); }
TYPED_TEST(Towers, Fp6Axioms) { this->template check_axioms<typename TestFixture::fp6>(); }
TYPED_TEST(Towers, Fp12Axioms) { this->template check_axioms<typename TestFixture::fp12>(); }

TYPED_TEST(Towers, Fp2MulMatchesSchoolbook) {
    using fp = typename TestFixture::fp;
    using fp2 = typename TestFixture::fp2;
    const fp m1 = -fp::one();
    std::vector<fp2> edge{fp2::zero(), fp2::one(), -fp2::one(), fp2::u(), -fp2::u(), fp2{m1, m1}, fp2{m1, fp::one()}};
    for (int i = 0; i < 2000; ++i) edge.push_back(fp2::random(this->rng));
    for (size_t i = 0; i + 1 < edge.size(); ++i) {
        const fp2& a = edge[i];
        const fp2& b = edge[(i * 7 + 3) % edge.size()];
        ASSERT_EQ(a * b, this->fp2_schoolbook(a, b));
        ASSERT_EQ(a.square(), this->fp2_schoolbook(a, a));
        ASSERT_EQ(a.mul_by_base(b.c0), this->fp2_schoolbook(a, fp2::from_base(b.c0)));
    }
    EXPECT_EQ(fp2::u().square(), -fp2::one());  // u^2 = -1
    // Every pair of coordinates from {0, 1, 2, p - 1, p - 2}: the extremes of the lazy-reduction product
    // and square (fp2_mul_x86.hpp), whose double-width c0 = a0 b0 - a1 b1 borrows or not, whose sums
    // a0 + a1 and a0 + p - a1 reach 2p - 2.
    const fp two = fp::one() + fp::one();
    const std::vector<fp> coords{fp::zero(), fp::one(), two, m1, m1 - fp::one()};
    for (const fp& a0 : coords)
        for (const fp& a1 : coords) {
            ASSERT_EQ((fp2{a0, a1}).square(), this->fp2_schoolbook(fp2{a0, a1}, fp2{a0, a1}));
            for (const fp& b0 : coords)
                for (const fp& b1 : coords) {
                    const fp2 a{a0, a1}, b{b0, b1};
                    ASSERT_EQ(a * b, this->fp2_schoolbook(a, b));
                }
        }
}

TYPED_TEST(Towers, Fp6AndFp12MulMatchSchoolbook) {
    using fp2 = typename TestFixture::fp2;
    using fp6 = typename TestFixture::fp6;
    using fp12 = typename TestFixture::fp12;
    for (int i = 0; i < this->kRandom; ++i) {
        fp6 a = fp6::random(this->rng), b = fp6::random(this->rng);
        ASSERT_EQ(a * b, this->fp6_schoolbook(a, b));
        ASSERT_EQ(a.square(), this->fp6_schoolbook(a, a));
        fp6 v{fp2::zero(), fp2::one(), fp2::zero()};
        ASSERT_EQ(a.mul_by_nonresidue(), this->fp6_schoolbook(a, v));
        fp12 x = fp12::random(this->rng), y = fp12::random(this->rng);
        ASSERT_EQ(x * y, this->fp12_schoolbook(x, y));
        ASSERT_EQ(x.square(), this->fp12_schoolbook(x, x));
    }
    // v^3 = xi and w^2 = v, w^6 = xi.
    fp6 v{fp2::zero(), fp2::one(), fp2::zero()};
    EXPECT_EQ(v * v * v, fp6::from_base(this->xi()));
    fp12 w{fp6::zero(), fp6::one()};
    EXPECT_EQ(w.square(), (fp12{v, fp6::zero()}));
    EXPECT_EQ(w.pow_vartime(uint64_t(6)), (fp12{fp6::from_base(this->xi()), fp6::zero()}));
}

TYPED_TEST(Towers, SparseLineProducts) {
    using fp2 = typename TestFixture::fp2;
    using fp6 = typename TestFixture::fp6;
    using fp12 = typename TestFixture::fp12;
    for (int i = 0; i < this->kRandom; ++i) {
        fp12 f = fp12::random(this->rng);
        fp2 a = fp2::random(this->rng), b = fp2::random(this->rng), c = fp2::random(this->rng);
        fp6 g = fp6::random(this->rng);
        ASSERT_EQ(g.mul_by_01(a, b), (g * fp6{a, b, fp2::zero()}));
        ASSERT_EQ(g.mul_by_1(b), (g * fp6{fp2::zero(), b, fp2::zero()}));
        // 014: l0 + l1 v + l4 v w;  034: l0 + l3 w + l4 v w.
        ASSERT_EQ(f.mul_by_014(a, b, c), (f * fp12{fp6{a, b, fp2::zero()}, fp6{fp2::zero(), c, fp2::zero()}}));
        ASSERT_EQ(f.mul_by_034(a, b, c), (f * fp12{fp6{a, fp2::zero(), fp2::zero()}, fp6{b, c, fp2::zero()}}));
    }
}

TYPED_TEST(Towers, FrobeniusEqualsPowerOfP) {
    using fp2 = typename TestFixture::fp2;
    using fp6 = typename TestFixture::fp6;
    using fp12 = typename TestFixture::fp12;
    const auto p1 = TestFixture::template p_pow<1>();
    const auto p2 = TestFixture::template p_pow<2>();
    const auto p3 = TestFixture::template p_pow<3>();
    for (int i = 0; i < 4; ++i) {
        fp2 a = fp2::random(this->rng);
        ASSERT_EQ(a.frobenius_map(1), a.pow_vartime(p1));
        ASSERT_EQ(a.frobenius_map(1), a.conjugate());
        ASSERT_EQ(a.frobenius_map(2), a);
        fp6 b = fp6::random(this->rng);
        ASSERT_EQ(b.frobenius_map(1), b.pow_vartime(p1));
        ASSERT_EQ(b.frobenius_map(2), b.pow_vartime(p2));
        ASSERT_EQ(b.frobenius_map(3), b.pow_vartime(p3));
        fp12 c = fp12::random(this->rng);
        ASSERT_EQ(c.frobenius_map(1), c.pow_vartime(p1));
        ASSERT_EQ(c.frobenius_map(2), c.pow_vartime(p2));
        ASSERT_EQ(c.frobenius_map(3), c.pow_vartime(p3));
    }
    // Higher powers by composition (frob_k is a homomorphism and frob_1^k = frob_k).
    for (int i = 0; i < 10; ++i) {
        fp6 b = fp6::random(this->rng);
        fp12 c = fp12::random(this->rng), d = fp12::random(this->rng);
        fp6 bb = b;
        fp12 cc = c;
        for (unsigned k = 1; k <= 12; ++k) {
            bb = bb.frobenius_map(1);
            cc = cc.frobenius_map(1);
            ASSERT_EQ(b.frobenius_map(k), bb) << "k = " << k;
            ASSERT_EQ(c.frobenius_map(k), cc) << "k = " << k;
            ASSERT_EQ((c * d).frobenius_map(k), c.frobenius_map(k) * d.frobenius_map(k));
        }
        ASSERT_EQ(cc, c);  // p^12: identity
        ASSERT_EQ(c.frobenius_map(6), c.conjugate());
        ASSERT_EQ(c.template frobenius_map<7>(), c.frobenius_map(7));
    }
}

TYPED_TEST(Towers, CyclotomicSquare) {
    using fp12 = typename TestFixture::fp12;
    for (int i = 0; i < 20; ++i) {
        fp12 f = fp12::random(this->rng);
        // Easy part of the final exponentiation maps into the cyclotomic subgroup.
        fp12 g = f.conjugate() * f.inverse();
        g = g.frobenius_map(2) * g;
        ASSERT_EQ(g.cyclotomic_square(), g.square());
        ASSERT_EQ(g.cyclotomic_pow_vartime(uint64_t(0xd201000000010000)), g.pow_vartime(uint64_t(0xd201000000010000)));
        ASSERT_TRUE((g * g.conjugate()).is_one());  // unitary: conjugate = inverse
    }
}

TYPED_TEST(Towers, Fp2ConjugateAndNorm) {
    using fp = typename TestFixture::fp;
    using fp2 = typename TestFixture::fp2;
    for (int i = 0; i < this->kRandom; ++i) {
        fp2 a = fp2::random(this->rng), b = fp2::random(this->rng);
        ASSERT_EQ(a.conjugate().conjugate(), a);
        ASSERT_EQ((a * b).conjugate(), a.conjugate() * b.conjugate());
        ASSERT_EQ(a * a.conjugate(), fp2::from_base(a.norm()));
        ASSERT_EQ(a.norm(), a.c0 * a.c0 + a.c1 * a.c1);
        ASSERT_EQ((a * b).norm(), a.norm() * b.norm());
    }
    EXPECT_EQ(fp2::u().norm(), fp::one());
}

// The variable-time Fp2 inverse (base-field binary GCD) is an inverse and equals Fermat's.
TYPED_TEST(Towers, Fp2InverseVartime) {
    using fp2 = typename TestFixture::fp2;
    for (int i = 0; i < this->kRandom; ++i) {
        const fp2 a = fp2::random(this->rng);
        ASSERT_TRUE((a * a.inverse_vartime()).is_one());
        ASSERT_EQ(a.inverse_vartime(), a.inverse());
    }
    EXPECT_TRUE(fp2::zero().inverse_vartime().is_zero());
}

TYPED_TEST(Towers, Fp2Sqrt) {
    using fp = typename TestFixture::fp;
    using fp2 = typename TestFixture::fp2;
    // Euler's criterion in Fp2 computed by exponentiation: a^((p^2 - 1)/2).
    mpz p(fp::modulus), e;
    mpz_mul(e.get(), p.get(), p.get());
    mpz_sub_ui(e.get(), e.get(), 1);
    mpz_fdiv_q_2exp(e.get(), e.get(), 1);
    const auto euler = e.to_bigint<2 * fp::limbs>();
    int squares = 0, non_squares = 0;
    for (int i = 0; i < 300; ++i) {
        fp2 a = fp2::random(this->rng);
        bool euler_square = a.pow_vartime(euler).is_one();
        ASSERT_EQ(a.is_square(), euler_square);
        auto r = a.sqrt();
        ASSERT_EQ(r.has_value(), euler_square);
        if (r) {
            ++squares;
            ASSERT_EQ(r->square(), a);
        } else {
            ++non_squares;
        }
        fp2 s = a.square();
        auto rs = s.sqrt();
        ASSERT_TRUE(rs.has_value());
        ASSERT_TRUE(*rs == a || *rs == -a);
    }
    EXPECT_GT(squares, 100);
    EXPECT_GT(non_squares, 100);
    // Edge values: 0, 1, -1, u, and Fp elements (every Fp element is a square in Fp2).
    for (fp2 a : {fp2::zero(), fp2::one(), -fp2::one(), fp2::u(), -fp2::u(), fp2::from_u64(2), fp2::from_base(-fp::one())}) {
        auto r = a.sqrt();
        ASSERT_TRUE(r.has_value());
        ASSERT_EQ(r->square(), a);
    }
    for (int i = 0; i < 50; ++i) {
        fp2 a = fp2::from_base(fp::random(this->rng));
        auto r = a.sqrt();
        ASSERT_TRUE(r.has_value());
        ASSERT_EQ(r->square(), a);
    }
}

TYPED_TEST(Towers, Fp2LexicographicallyLargest) {
    using fp = typename TestFixture::fp;
    using fp2 = typename TestFixture::fp2;
    mpz p(fp::modulus);
    auto larger_than_neg = [&](const fp& x) {  // x > p - x on canonical integers, via GMP
        mpz v(x.to_canonical()), n;
        mpz_sub(n.get(), p.get(), v.get());
        return !x.is_zero() && mpz_cmp(v.get(), n.get()) > 0;
    };
    EXPECT_FALSE(fp2::zero().lexicographically_largest());
    EXPECT_FALSE(fp2::one().lexicographically_largest());
    EXPECT_TRUE((-fp2::one()).lexicographically_largest());
    EXPECT_FALSE(fp2::u().lexicographically_largest());
    EXPECT_TRUE((-fp2::u()).lexicographically_largest());
    for (int i = 0; i < this->kRandom; ++i) {
        fp2 a = fp2::random(this->rng);
        if (i % 3 == 0) a.c1 = fp::zero();
        bool expect = a.c1.is_zero() ? larger_than_neg(a.c0) : larger_than_neg(a.c1);
        ASSERT_EQ(a.lexicographically_largest(), expect);
        if (!a.is_zero()) {
            ASSERT_NE(a.lexicographically_largest(), (-a).lexicographically_largest());
        }
    }
}

}  // namespace
