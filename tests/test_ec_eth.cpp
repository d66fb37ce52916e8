// SPDX-License-Identifier: MIT OR Apache-2.0
// Ethereum precompile vectors (go-ethereum core/vm/testdata/precompiles): our point addition
// and scalar multiplication, through the EIP-196/197 (BN254) and EIP-2537 (BLS12-381)
// encodings, must reproduce every expected output and reject every fail-* input.
#include <gtest/gtest.h>

#include "cuzk/io/eth_encoding.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "test_ec_util.hpp"
#include "test_vectors.hpp"

using namespace cuzk;
using namespace ec_test;

namespace {

/// The go-ethereum precompile vectors (LGPL-3.0, not bundled: CUZK_VECTORS_DIR only), with a
/// trailing slash, or "" when absent.
std::string precompiles() {
    std::string d = test::vector_set("eth-precompiles");
    return d.empty() ? d : d + "/";
}

/// EIP-196 pads short inputs with zeros and ignores extra bytes.
std::vector<uint8_t> pad_or_truncate(std::vector<uint8_t> v, size_t n) {
    v.resize(n, 0);
    return v;
}

bigint<4> scalar_be(std::span<const uint8_t> s) {
    bigint<4> k{};
    for (size_t i = 0; i < 32; ++i) k.limb[i / 8] |= uint64_t(s[31 - i]) << (8 * (i % 8));
    return k;
}

/// The ADD precompile: two points (on the curve; EIP-2537 ADD does no subgroup check).
template <class G>
std::vector<uint8_t> precompile_add(std::span<const uint8_t> in) {
    constexpr size_t n = eth::point_size<G>;
    if (in.size() != 2 * n) throw decode_error("ADD: invalid input length");
    auto a = eth::deserialize_unchecked<G>(in.subspan(0, n));
    auto b = eth::deserialize_unchecked<G>(in.subspan(n, n));
    auto sum = eth::serialize(to_affine(to_jacobian(a) + b));
    return {sum.begin(), sum.end()};
}

/// The MUL precompile (EIP-2537: a one-pair MSM, subgroup check required); scalars are any
/// 256-bit integers. Checks the constant-time path too when the scalar is below r.
template <class G>
std::vector<uint8_t> precompile_mul(std::span<const uint8_t> in, bool check_subgroup) {
    constexpr size_t n = eth::point_size<G>;
    if (in.size() != n + 32) throw decode_error("MUL: invalid input length");
    auto p = check_subgroup ? eth::deserialize<G>(in.subspan(0, n)) : eth::deserialize_unchecked<G>(in.subspan(0, n));
    auto k = scalar_be(in.subspan(n, 32));
    auto q = to_affine(mul_vartime(p, k));
    if (k < G::scalar::modulus) {
        EXPECT_EQ(to_affine(mul(p, G::scalar::from_canonical(k))), q);
    }
    auto out = eth::serialize(q);
    return {out.begin(), out.end()};
}

}  // namespace

TEST(eth_precompiles, bn256_add) {
    if (precompiles().empty()) GTEST_SKIP() << test::missing_vector_set("eth-precompiles");
    auto recs = read_precompile_json(precompiles() + "bn256Add.json");
    ASSERT_EQ(recs.size(), 16u);
    for (const auto& r : recs) {
        auto in = pad_or_truncate(from_hex(r.input), 128);
        EXPECT_EQ(to_hex(precompile_add<bn254::g1>(in)), r.expected) << r.name;
    }
}

TEST(eth_precompiles, bn256_scalar_mul) {
    if (precompiles().empty()) GTEST_SKIP() << test::missing_vector_set("eth-precompiles");
    auto recs = read_precompile_json(precompiles() + "bn256ScalarMul.json");
    ASSERT_EQ(recs.size(), 19u);
    for (const auto& r : recs) {
        auto in = pad_or_truncate(from_hex(r.input), 96);
        EXPECT_EQ(to_hex(precompile_mul<bn254::g1>(in, true)), r.expected) << r.name;
    }
}

TEST(eth_precompiles, bn256_pairing_points_decode_in_eip197_layout) {
    // Every G1 and G2 point of the pairing vectors must decode (on curve, G2 in the subgroup)
    // and re-encode byte-identically: checks the (c1, c0) order and the psi subgroup test.
    if (precompiles().empty()) GTEST_SKIP() << test::missing_vector_set("eth-precompiles");
    auto recs = read_precompile_json(precompiles() + "bn256Pairing.json");
    int points = 0;
    for (const auto& r : recs) {
        auto in = from_hex(r.input);
        ASSERT_EQ(in.size() % 192, 0u) << r.name;
        for (size_t off = 0; off < in.size(); off += 192) {
            std::span<const uint8_t> a(in.data() + off, 64), b(in.data() + off + 64, 128);
            auto p = eth::deserialize<bn254::g1>(a);
            auto q = eth::deserialize<bn254::g2>(b);
            auto pe = eth::serialize(p);
            auto qe = eth::serialize(q);
            EXPECT_TRUE(std::equal(pe.begin(), pe.end(), a.begin())) << r.name;
            EXPECT_TRUE(std::equal(qe.begin(), qe.end(), b.begin())) << r.name;
            points += 2;
        }
    }
    EXPECT_GT(points, 80);
    // the generator of EIP-197 sits at the start of several records
    EXPECT_EQ(to_hex(eth::serialize(affine<bn254::g2>::generator())).substr(0, 64),
              "198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c2");
}

template <class G>
class eth_bls : public ::testing::Test {};
using bls_groups = ::testing::Types<bls12_381::g1, bls12_381::g2>;
TYPED_TEST_SUITE(eth_bls, bls_groups);

namespace {
template <class G>
std::string tag() {
    return std::is_same_v<G, bls12_381::g1> ? "G1" : "G2";
}
}  // namespace

TYPED_TEST(eth_bls, add_vectors) {
    using G = TypeParam;
    if (precompiles().empty()) GTEST_SKIP() << test::missing_vector_set("eth-precompiles");
    auto recs = read_precompile_json(precompiles() + "bls" + tag<G>() + "Add.json");
    ASSERT_EQ(recs.size(), 112u);
    for (const auto& r : recs) EXPECT_EQ(to_hex(precompile_add<G>(from_hex(r.input))), r.expected) << r.name;
}

TYPED_TEST(eth_bls, mul_vectors) {
    using G = TypeParam;
    if (precompiles().empty()) GTEST_SKIP() << test::missing_vector_set("eth-precompiles");
    auto recs = read_precompile_json(precompiles() + "bls" + tag<G>() + "Mul.json");
    ASSERT_EQ(recs.size(), 11u);
    for (const auto& r : recs) EXPECT_EQ(to_hex(precompile_mul<G>(from_hex(r.input), true)), r.expected) << r.name;
}

TYPED_TEST(eth_bls, fail_vectors_are_rejected) {
    using G = TypeParam;
    if (precompiles().empty()) GTEST_SKIP() << test::missing_vector_set("eth-precompiles");
    auto adds = read_precompile_json(precompiles() + "fail-bls" + tag<G>() + "Add.json");
    auto muls = read_precompile_json(precompiles() + "fail-bls" + tag<G>() + "Mul.json");
    ASSERT_EQ(adds.size(), 6u);
    ASSERT_EQ(muls.size(), 7u);
    for (const auto& r : adds)
        EXPECT_THROW(precompile_add<G>(from_hex(r.input)), decode_error) << r.name << ": " << r.expected_error;
    for (const auto& r : muls)
        EXPECT_THROW(precompile_mul<G>(from_hex(r.input), true), decode_error) << r.name << ": " << r.expected_error;
}

TYPED_TEST(eth_bls, layout_round_trip_and_padding) {
    using G = TypeParam;
    std::mt19937_64 rng(31);
    auto p = random_curve_point<G>(rng);
    auto e = eth::serialize(p);
    EXPECT_EQ(eth::deserialize_unchecked<G>(e), p);
    EXPECT_THROW(eth::deserialize<G>(e), decode_error);  // random curve points are outside G
    auto z = eth::serialize(affine<G>::identity());
    EXPECT_TRUE(std::all_of(z.begin(), z.end(), [](uint8_t b) { return b == 0; }));
    EXPECT_TRUE(eth::deserialize<G>(z).is_identity());
    for (size_t i = 0; i < 16; ++i) {  // the padding bytes of x must be zero
        auto x = e;
        x[i] = 1;
        EXPECT_THROW(eth::deserialize_unchecked<G>(x), decode_error);
    }
    // EIP-2537 writes Fp2 as c0 || c1: the first coordinate block of the G2 generator is x.c0
    if constexpr (std::is_same_v<G, bls12_381::g2>) {
        auto ge = eth::serialize(affine<G>::generator());
        EXPECT_EQ(to_hex(std::span<const uint8_t>(ge.data() + 16, 48)),
                  "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8");
    }
}

TEST(eth_bn254, g2_layout_and_rejections) {
    using G = bn254::g2;
    std::mt19937_64 rng(32);
    auto q = random_curve_point<G>(rng);
    auto e = eth::serialize(q);
    EXPECT_EQ(eth::deserialize_unchecked<G>(e), q);
    EXPECT_THROW(eth::deserialize<G>(e), decode_error);  // twist points outside G2 (libsnark#61)
    auto g = eth::serialize(affine<G>::generator());
    auto off = g;
    off[127] ^= 1;  // y.c0 changed: off the curve
    EXPECT_THROW(eth::deserialize_unchecked<G>(off), decode_error);
    std::vector<uint8_t> short_input(g.begin(), g.end() - 1);
    EXPECT_THROW(eth::deserialize<G>(short_input), decode_error);
    // a coordinate >= p
    auto big = g;
    for (size_t i = 0; i < 32; ++i) big[i] = 0xff;
    EXPECT_THROW(eth::deserialize_unchecked<G>(big), decode_error);
}
