// SPDX-License-Identifier: MIT OR Apache-2.0
// Signed-digit decomposition and scalar reduction, checked against GMP.
#include <gmp.h>
#include <gtest/gtest.h>

#include <random>

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"
#include "cuzk/msm/signed_digits.hpp"

namespace {

using namespace cuzk;

template <size_t N>
void to_mpz(mpz_t out, const bigint<N>& x) {
    mpz_import(out, N, -1, sizeof(uint64_t), 0, 0, x.limb);
}

template <class Fr>
class MsmDigits : public ::testing::Test {};
using ScalarFields = ::testing::Types<bls12_381::fr, bn254::fr>;
TYPED_TEST_SUITE(MsmDigits, ScalarFields);

/// Scalars worth testing: 0, 1, r-1, r, r+1, 2^256-1, top bit only, random full-width words.
template <class Fr>
std::vector<typename Fr::integer> edge_and_random_scalars(size_t random_count) {
    using I = typename Fr::integer;
    std::vector<I> v;
    I one = I::from_u64(1);
    I all_ones{};
    for (auto& l : all_ones.limb) l = ~uint64_t(0);
    v.push_back(I{});
    v.push_back(one);
    v.push_back(Fr::modulus - one);
    v.push_back(Fr::modulus);
    v.push_back(Fr::modulus + one);
    v.push_back(all_ones);
    v.push_back(one.shl(Fr::modulus_bits - 1));
    v.push_back(one.shl(64 * Fr::limbs - 1));
    std::mt19937_64 rng(42);
    for (size_t i = 0; i < random_count; ++i) {
        I x{};
        for (auto& l : x.limb) l = rng();
        v.push_back(x);
    }
    return v;
}

TYPED_TEST(MsmDigits, ReduceCanonicalMatchesGmp) {
    using Fr = TypeParam;
    mpz_t s, r, expect, got;
    mpz_inits(s, r, expect, got, nullptr);
    to_mpz(r, Fr::modulus);
    for (const auto& x : edge_and_random_scalars<Fr>(200)) {
        to_mpz(s, x);
        mpz_mod(expect, s, r);
        to_mpz(got, msm::reduce_scalar<Fr>(x, msm::scalar_form::canonical));
        EXPECT_EQ(mpz_cmp(expect, got), 0);
    }
    mpz_clears(s, r, expect, got, nullptr);
}

TYPED_TEST(MsmDigits, ReduceMontgomeryMatchesGmp) {
    using Fr = TypeParam;
    mpz_t s, r, rinv, expect, got;
    mpz_inits(s, r, rinv, expect, got, nullptr);
    to_mpz(r, Fr::modulus);
    mpz_set_ui(rinv, 1);
    mpz_mul_2exp(rinv, rinv, 64 * Fr::limbs);
    ASSERT_NE(mpz_invert(rinv, rinv, r), 0);
    for (const auto& x : edge_and_random_scalars<Fr>(200)) {
        to_mpz(s, x);
        mpz_mul(expect, s, rinv);
        mpz_mod(expect, expect, r);
        to_mpz(got, msm::reduce_scalar<Fr>(x, msm::scalar_form::montgomery));
        EXPECT_EQ(mpz_cmp(expect, got), 0);
    }
    mpz_clears(s, r, rinv, expect, got, nullptr);
}

TYPED_TEST(MsmDigits, SignedDigitsRecomposeForEveryWidth) {
    using Fr = TypeParam;
    const unsigned bits = Fr::modulus_bits;
    mpz_t expect, acc, term;
    mpz_inits(expect, acc, term, nullptr);
    auto scalars = edge_and_random_scalars<Fr>(40);
    for (unsigned c = 1; c <= 31; ++c) {
        const unsigned W = msm::num_windows(bits, c);
        const uint32_t half = msm::buckets_per_window(c);
        for (const auto& x : scalars) {
            auto s = msm::reduce_scalar<Fr>(x, msm::scalar_form::canonical);
            to_mpz(expect, s);
            mpz_set_ui(acc, 0);
            msm::signed_digit_walker<Fr::limbs> walk(s, c);
            for (unsigned w = 0; w < W; ++w) {
                auto d = walk.next();
                ASSERT_LE(d.magnitude, half) << "c=" << c << " w=" << w;
                if (w + 1 == W) {
                    ASSERT_FALSE(d.negative) << "top window must not borrow, c=" << c;
                }
                mpz_set_ui(term, d.magnitude);
                mpz_mul_2exp(term, term, size_t(c) * w);
                if (d.negative) mpz_sub(acc, acc, term);
                else mpz_add(acc, acc, term);
            }
            EXPECT_EQ(walk.carry, 0u) << "c=" << c;
            EXPECT_EQ(mpz_cmp(acc, expect), 0) << "c=" << c;
        }
    }
    mpz_clears(expect, acc, term, nullptr);
}

}  // namespace
