// SPDX-License-Identifier: MIT OR Apache-2.0
// The verifier: honest proofs verify on both curves; every kind of tampering is rejected
// with the right verdict; malformed calls are errors.
#include <gtest/gtest.h>

#include <random>

#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/synthetic_circuit.hpp"
#include "cuzk/groth16/test_setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "groth16_curves.hpp"

namespace {

using namespace cuzk;
using namespace cuzk::groth16;

template <class C>
class VerifyTest : public ::testing::Test {
protected:
    using Fr = typename C::fr;
    using G1 = typename C::g1;
    using G2 = typename C::g2;

    static void SetUpTestSuite() {
        ckt_ = new circuit<Fr>(synthetic_circuit<Fr>({.log_domain = 6, .num_public = 3, .bit_share = 0.5, .seed = 9}));
        pk_ = new proving_key<C>(test_setup_insecure<C>(ckt_->system, 9));
        std::mt19937_64 rng(9);
        proof_ = new proof<C>(prover<C>(std::make_shared<const proving_key<C>>(*pk_)).prove(ckt_->system, ckt_->assignment, rng));
    }
    static void TearDownTestSuite() {
        delete ckt_;
        delete pk_;
        delete proof_;
    }
    static verdict check(const proof<C>& pi) { return verify_verdict(pk_->vk, ckt_->public_inputs(), pi); }

    /// A point on the curve y^2 = x^3 + b that is not in the order-r subgroup (G1 of BN254
    /// has cofactor 1, so there every curve point is in the group and nullopt is returned).
    static std::optional<affine<G1>> g1_point_outside_subgroup() {
        using Fp = typename G1::field;
        for (uint64_t x = 1; x < 1000; ++x) {
            Fp fx = Fp::from_u64(x);
            auto y = (fx.square() * fx + G1::b).sqrt();
            if (!y) continue;
            affine<G1> p{fx, *y};
            if (!is_in_subgroup(p)) return p;
        }
        return std::nullopt;
    }

    static inline circuit<Fr>* ckt_ = nullptr;
    static inline proving_key<C>* pk_ = nullptr;
    static inline proof<C>* proof_ = nullptr;
};
TYPED_TEST_SUITE(VerifyTest, test::groth16_curves);

TYPED_TEST(VerifyTest, HonestProofVerifies) {
    EXPECT_EQ(this->check(*this->proof_), verdict::ok);
    EXPECT_TRUE(verify(this->pk_->vk, this->ckt_->public_inputs(), *this->proof_));
}

TYPED_TEST(VerifyTest, TamperedPointsAreRejected) {
    using G1 = typename TestFixture::G1;
    using G2 = typename TestFixture::G2;
    auto pi = *this->proof_;
    pi.a = to_affine(jacobian<G1>::from_affine(pi.a) + affine<G1>::generator());
    EXPECT_EQ(this->check(pi), verdict::pairing_check_failed);
    pi = *this->proof_;
    pi.b = to_affine(jacobian<G2>::from_affine(pi.b).dbl());
    EXPECT_EQ(this->check(pi), verdict::pairing_check_failed);
    pi = *this->proof_;
    pi.c = -pi.c;
    EXPECT_EQ(this->check(pi), verdict::pairing_check_failed);
    pi = *this->proof_;
    std::swap(pi.a, pi.c);
    EXPECT_EQ(this->check(pi), verdict::pairing_check_failed);
    // Identity points: rejected before any pairing (bellperson does the same).
    pi = *this->proof_;
    pi.c = affine<G1>::identity();
    EXPECT_EQ(this->check(pi), verdict::point_at_infinity);
    pi = *this->proof_;
    pi.b = affine<G2>::identity();
    EXPECT_EQ(this->check(pi), verdict::point_at_infinity);
    // Off the curve.
    pi = *this->proof_;
    pi.a.y += G1::field::one();
    EXPECT_EQ(this->check(pi), verdict::point_not_on_curve);
    // On the curve, outside the subgroup.
    if (auto bad = this->g1_point_outside_subgroup()) {
        pi = *this->proof_;
        pi.a = *bad;
        EXPECT_EQ(this->check(pi), verdict::point_not_in_subgroup);
    }
}

TYPED_TEST(VerifyTest, TamperedInputsAreRejected) {
    using Fr = typename TestFixture::Fr;
    std::vector<Fr> x(this->ckt_->public_inputs().begin(), this->ckt_->public_inputs().end());
    for (size_t i = 0; i < x.size(); ++i) {
        auto y = x;
        y[i] += Fr::one();
        EXPECT_FALSE(verify(this->pk_->vk, std::span<const Fr>(y), *this->proof_)) << "input " << i;
    }
    // A count that does not match the key is the caller's error.
    auto shorter = x;
    shorter.pop_back();
    EXPECT_THROW(verify(this->pk_->vk, std::span<const Fr>(shorter), *this->proof_), invalid_argument);
    auto longer = x;
    longer.push_back(Fr::zero());
    EXPECT_THROW(verify(this->pk_->vk, std::span<const Fr>(longer), *this->proof_), invalid_argument);
}

TYPED_TEST(VerifyTest, CanonicalInputsMustBeBelowR) {
    using Fr = typename TestFixture::Fr;
    using integer = typename Fr::integer;
    std::vector<integer> x;
    for (const auto& v : this->ckt_->public_inputs()) x.push_back(v.to_canonical());
    EXPECT_TRUE(verify_canonical(this->pk_->vk, std::span<const integer>(x), *this->proof_));
    // x + r must not verify as x (the semaphore / snarkjs#479 class of bug): it is an error.
    auto aliased = x;
    aliased[0] = aliased[0] + Fr::modulus;
    EXPECT_THROW(verify_canonical(this->pk_->vk, std::span<const integer>(aliased), *this->proof_), decode_error);
    aliased[0] = Fr::modulus;
    EXPECT_THROW(verify_canonical(this->pk_->vk, std::span<const integer>(aliased), *this->proof_), decode_error);
}

TYPED_TEST(VerifyTest, ProofsForOtherStatementsDoNotTransfer) {
    using Fr = typename TestFixture::Fr;
    // Same circuit shape, other witness and public inputs, same key: the old proof fails.
    auto other = synthetic_circuit<Fr>({.log_domain = 6, .num_public = 3, .bit_share = 0.5, .seed = 10});
    EXPECT_FALSE(verify(this->pk_->vk, other.public_inputs(), *this->proof_));
}

}  // namespace
