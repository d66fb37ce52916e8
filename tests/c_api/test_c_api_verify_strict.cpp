// SPDX-License-Identifier: MIT OR Apache-2.0
// cuzk_groth16_verify's checks that are stricter than snarkjs's: a proof point on the curve but
// outside the prime-order subgroup (G1 of BLS12-381, G2 of both curves) and a point at infinity
// are invalid proofs, with a message that says so. The points are made here from the curve
// equation (x from 1 up, y its square root) and checked outside the subgroup by r * P != O;
// the rest of the proof and the key are snarkjs's fixtures. Skipped without the fixtures.
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>

#include "cuzk/c/cuzk_prover.h"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/snarkjs_json.hpp"

namespace {

using namespace cuzk;

/// A point on G's curve that r does not send to the identity (outside the order-r subgroup).
template <class G>
std::optional<affine<G>> point_outside_subgroup() {
    using F = typename G::field;
    for (uint64_t x = 1; x < 1000; ++x) {
        const F fx = F::from_u64(x);
        const auto y = (fx.square() * fx + G::b).sqrt();
        if (!y) continue;
        const affine<G> p{fx, *y};
        if (!p.is_on_curve()) continue;
        // r * P by double-and-add over r's bits (the scalar field's modulus).
        const auto& r = G::scalar::modulus;
        jacobian<G> acc = jacobian<G>::identity();
        for (size_t i = G::scalar::limbs * 64; i-- > 0;) {
            acc = acc.dbl();
            if ((r.limb[i / 64] >> (i % 64)) & 1) acc += jacobian<G>::from_affine(p);
        }
        if (!acc.is_identity()) return p;
    }
    return std::nullopt;
}

std::string fixture(const std::string& curve, const std::string& file) {
    return std::string(CUZK_INTEROP_DIR) + "/" + curve + "/multi_public/" + file;
}

/// proof.json with member `key` replaced by `point`.
std::string with_point(const std::string& proof_json, const std::string& key, io::json::value point) {
    io::json::value root = io::json::parse(proof_json);
    for (auto& [k, v] : root.members)
        if (k == key) v = std::move(point);
    return io::json::write(root);
}

template <class IoCurve>
class VerifyStrict : public ::testing::Test {
protected:
    void SetUp() override {
        const std::string c(IoCurve::snarkjs_name);
        if (!std::filesystem::exists(fixture(c, "proof.json"))) GTEST_SKIP() << "no snarkjs fixtures under " << CUZK_INTEROP_DIR;
        vk = io::read_text_file(fixture(c, "verification_key.json"));
        proof = io::read_text_file(fixture(c, "proof.json"));
        pub = io::read_text_file(fixture(c, "public.json"));
    }
    int verify(const std::string& p) { return cuzk_groth16_verify(p.c_str(), pub.c_str(), vk.c_str(), err, sizeof err); }

    std::string vk, proof, pub;
    char err[512] = {};
};

using curves = ::testing::Types<io::bn128, io::bls12381>;
TYPED_TEST_SUITE(VerifyStrict, curves);

TYPED_TEST(VerifyStrict, TheFixtureVerifies) { EXPECT_EQ(this->verify(this->proof), CUZK_VERIFIER_VALID_PROOF) << this->err; }

TYPED_TEST(VerifyStrict, G2PointOutsideTheSubgroupIsInvalid) {
    const auto b = point_outside_subgroup<typename TypeParam::g2>();
    ASSERT_TRUE(b) << "no point outside the subgroup found";
    const std::string p = with_point(this->proof, "pi_b", io::detail::g2_json<TypeParam>(*b));
    EXPECT_EQ(this->verify(p), CUZK_VERIFIER_INVALID_PROOF);
    EXPECT_NE(std::string(this->err).find("subgroup"), std::string::npos) << this->err;
}

TYPED_TEST(VerifyStrict, G1PointOutsideTheSubgroupIsInvalid) {
    const auto a = point_outside_subgroup<typename TypeParam::g1>();
    if (!a) GTEST_SKIP() << "every point of this G1 is in the group (cofactor 1)";
    const std::string p = with_point(this->proof, "pi_a", io::detail::g1_json<TypeParam>(*a));
    EXPECT_EQ(this->verify(p), CUZK_VERIFIER_INVALID_PROOF);
    EXPECT_NE(std::string(this->err).find("subgroup"), std::string::npos) << this->err;
}

TYPED_TEST(VerifyStrict, PointAtInfinityIsInvalid) {
    const std::string p = with_point(this->proof, "pi_c", io::detail::g1_json<TypeParam>(TypeParam::g1_point::identity()));
    EXPECT_EQ(this->verify(p), CUZK_VERIFIER_INVALID_PROOF);
    EXPECT_NE(std::string(this->err).find("infinity"), std::string::npos) << this->err;
}

}  // namespace
