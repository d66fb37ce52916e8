// SPDX-License-Identifier: MIT OR Apache-2.0
// zcash/IETF BLS12-381 point encodings: the published k*G vectors (zkcrypto/bls12_381,
// k = 0..999, compressed and uncompressed, G1 and G2), the ethereum/bls12-381-tests
// deserialisation cases, and sweeps over flag bits, field-range and length errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <regex>

#include "cuzk/io/zcash_encoding.hpp"
#include "test_ec_util.hpp"
#include "test_vectors.hpp"

using namespace cuzk;
using namespace ec_test;
namespace fs = std::filesystem;

template <class G>
class zcash_encoding : public ::testing::Test {};
using bls_groups = ::testing::Types<bls12_381::g1, bls12_381::g2>;
TYPED_TEST_SUITE(zcash_encoding, bls_groups);

namespace {
template <class G>
const char* group_tag() {
    return std::is_same_v<G, bls12_381::g1> ? "g1" : "g2";
}
/// Every byte string decoded successfully must re-encode to itself (no malleability).
template <class G>
void expect_canonical_compressed(std::span<const uint8_t> in) {
    auto p = zcash::deserialize_compressed_unchecked<G>(in);
    auto out = zcash::serialize_compressed(p);
    EXPECT_TRUE(std::equal(out.begin(), out.end(), in.begin(), in.end()));
}
}  // namespace

TYPED_TEST(zcash_encoding, published_multiples_of_the_generator) {
    using G = TypeParam;
    const std::string dir = test::vector_set("bls12_381/zcash");
    if (dir.empty()) GTEST_SKIP() << test::missing_vector_set("bls12_381/zcash");
    const std::string base = dir + "/" + group_tag<G>();
    auto comp = read_bytes(base + "_compressed_valid_test_vectors.dat");
    auto uncomp = read_bytes(base + "_uncompressed_valid_test_vectors.dat");
    constexpr size_t cs = zcash::compressed_size<G>, us = zcash::uncompressed_size<G>;
    ASSERT_EQ(comp.size(), 1000 * cs);
    ASSERT_EQ(uncomp.size(), 1000 * us);
    // k*G by repeated addition: an XYZZ accumulator plus affine G (mixed add), normalised each step
    xyzz<G> acc = xyzz<G>::identity();
    const auto g = affine<G>::generator();
    for (size_t k = 0; k < 1000; ++k) {
        affine<G> want = to_affine(acc);
        std::span<const uint8_t> c(comp.data() + k * cs, cs), u(uncomp.data() + k * us, us);
        auto ce = zcash::serialize_compressed(want);
        auto ue = zcash::serialize_uncompressed(want);
        ASSERT_TRUE(std::equal(ce.begin(), ce.end(), c.begin())) << "k = " << k;
        ASSERT_TRUE(std::equal(ue.begin(), ue.end(), u.begin())) << "k = " << k;
        ASSERT_EQ(zcash::deserialize_compressed<G>(c), want) << "k = " << k;
        ASSERT_EQ(zcash::deserialize_uncompressed<G>(u), want) << "k = " << k;
        acc += g;
    }
}

TYPED_TEST(zcash_encoding, ethereum_deserialization_cases) {
    using G = TypeParam;
    const std::string dir = test::vector_set("bls12_381/deserialization");
    if (dir.empty()) GTEST_SKIP() << test::missing_vector_set("bls12_381/deserialization");
    const std::string sub = std::is_same_v<G, bls12_381::g1> ? "deserialization_G1" : "deserialization_G2";
    static const std::regex input_re("\"(?:pubkey|signature)\"\\s*:\\s*\"([0-9a-fx]*)\"");
    static const std::regex output_re("\"output\"\\s*:\\s*(true|false)");
    int files = 0, valid = 0;
    for (const char* release : {"v0.1.2", "master-006855c"}) {
        for (const auto& entry : fs::directory_iterator(dir + "/" + release + "/" + sub)) {
            std::string text = read_text(entry.path().string());
            std::smatch in, out;
            ASSERT_TRUE(std::regex_search(text, in, input_re)) << entry.path();
            ASSERT_TRUE(std::regex_search(text, out, output_re)) << entry.path();
            auto bytes = from_hex(in[1]);
            const bool expect_ok = out[1] == "true";
            ++files;
            if (expect_ok) {
                ++valid;
                EXPECT_NO_THROW(zcash::deserialize_compressed<G>(bytes)) << entry.path();
                expect_canonical_compressed<G>(bytes);
            } else {
                EXPECT_THROW(zcash::deserialize_compressed<G>(bytes), decode_error) << entry.path();
            }
        }
    }
    EXPECT_EQ(files, (std::is_same_v<G, bls12_381::g1> ? 16 : 18));
    EXPECT_EQ(valid, 2);
}

TYPED_TEST(zcash_encoding, flag_sweep_on_generator_and_identity) {
    using G = TypeParam;
    const auto g = affine<G>::generator();
    const auto c = zcash::serialize_compressed(g);
    const auto u = zcash::serialize_uncompressed(g);
    const auto ci = zcash::serialize_compressed(affine<G>::identity());
    const auto ui = zcash::serialize_uncompressed(affine<G>::identity());
    EXPECT_EQ(ci[0], 0xc0);
    EXPECT_EQ(ui[0], 0x40);
    for (unsigned flags = 0; flags < 8; ++flags) {
        const uint8_t f = uint8_t(flags << 5);
        auto c2 = c, u2 = u, ci2 = ci, ui2 = ui;
        c2[0] = uint8_t((c[0] & 0x1f) | f);
        u2[0] = uint8_t((u[0] & 0x1f) | f);
        ci2[0] = f;
        ui2[0] = f;
        // compressed generator: C set, I clear; S selects G or -G
        if (f == 0x80 || f == 0xa0) {
            auto p = zcash::deserialize_compressed<G>(c2);
            EXPECT_EQ(p, (f & 0x20) == (c[0] & 0x20) ? g : -g);
        } else {
            EXPECT_THROW(zcash::deserialize_compressed<G>(c2), decode_error) << int(f);
        }
        // uncompressed generator: only no flags at all
        if (f == 0) {
            EXPECT_EQ(zcash::deserialize_uncompressed<G>(u2), g);
        } else {
            EXPECT_THROW(zcash::deserialize_uncompressed<G>(u2), decode_error) << int(f);
        }
        // identity: exactly C|I compressed, exactly I uncompressed
        if (f == 0xc0) {
            EXPECT_TRUE(zcash::deserialize_compressed<G>(ci2).is_identity());
        } else {
            EXPECT_THROW(zcash::deserialize_compressed<G>(ci2), decode_error) << int(f);
        }
        if (f == 0x40) {
            EXPECT_TRUE(zcash::deserialize_uncompressed<G>(ui2).is_identity());
        } else {
            EXPECT_THROW(zcash::deserialize_uncompressed<G>(ui2), decode_error) << int(f);
        }
    }
    // every stray bit in an infinity encoding is rejected
    for (size_t i = 0; i < ci.size() * 8; ++i) {
        if (i < 3) continue;  // the flag bits themselves
        auto x = ci;
        x[i / 8] ^= uint8_t(0x80 >> (i % 8));
        EXPECT_THROW(zcash::deserialize_compressed<G>(x), decode_error) << i;
    }
    for (size_t i = 3; i < ui.size() * 8; i += 7) {
        auto x = ui;
        x[i / 8] ^= uint8_t(0x80 >> (i % 8));
        EXPECT_THROW(zcash::deserialize_uncompressed<G>(x), decode_error) << i;
    }
}

TYPED_TEST(zcash_encoding, lengths_field_range_curve_and_subgroup) {
    using G = TypeParam;
    using fp = bls12_381::fp;
    constexpr size_t cs = zcash::compressed_size<G>, us = zcash::uncompressed_size<G>;
    std::mt19937_64 rng(21);
    auto g = affine<G>::generator();
    auto c = zcash::serialize_compressed(g);
    auto u = zcash::serialize_uncompressed(g);
    for (size_t n : {size_t(0), cs - 1, cs + 1, us}) {  // us: an uncompressed length
        std::vector<uint8_t> v(n, 0);
        if (n) v[0] = 0x80;
        EXPECT_THROW(zcash::deserialize_compressed<G>(v), decode_error) << n;
    }
    for (size_t n : {size_t(0), us - 1, us + 1, cs}) {
        std::vector<uint8_t> v(n, 0);
        EXPECT_THROW(zcash::deserialize_uncompressed<G>(v), decode_error) << n;
    }
    // a coordinate (each Fp limb of it) equal to p, p + 1 or 2^381 - 1
    std::array<uint8_t, 48> pbytes{}, p1bytes{}, maxbytes{};
    for (size_t i = 0; i < 48; ++i) {
        pbytes[47 - i] = uint8_t(fp::modulus.limb[i / 8] >> (8 * (i % 8)));
        p1bytes[47 - i] = uint8_t((fp::modulus + fp::integer::from_u64(1)).limb[i / 8] >> (8 * (i % 8)));
        maxbytes[i] = 0xff;
    }
    maxbytes[0] = 0x1f;
    for (const auto& bad : {pbytes, p1bytes, maxbytes}) {
        for (size_t slot = 0; slot < cs / 48; ++slot) {
            auto x = c;
            std::copy(bad.begin(), bad.end(), x.begin() + 48 * slot);
            x[0] |= 0x80;
            EXPECT_THROW(zcash::deserialize_compressed_unchecked<G>(x), decode_error);
        }
        for (size_t slot = 0; slot < us / 48; ++slot) {
            auto x = u;
            std::copy(bad.begin(), bad.end(), x.begin() + 48 * slot);
            EXPECT_THROW(zcash::deserialize_uncompressed_unchecked<G>(x), decode_error);
        }
    }
    // off the curve (uncompressed y + 1), and x with no point (compressed)
    {
        auto bad = g;
        bad.y = bad.y + G::field::one();
        auto x = zcash::serialize_uncompressed(affine<G>{g.x, g.y});
        auto y = zcash::serialize_uncompressed(bad);  // encodes the off-curve coordinates
        EXPECT_THROW(zcash::deserialize_uncompressed_unchecked<G>(y), decode_error);
        EXPECT_NO_THROW(zcash::deserialize_uncompressed_unchecked<G>(x));
        int rejected = 0;
        for (int i = 0; i < 16; ++i) {
            affine<G> r{G::field::random(rng), G::field::one()};
            auto e = zcash::serialize_compressed(r);  // x only; the S bit is whatever
            try {
                zcash::deserialize_compressed_unchecked<G>(e);
            } catch (const decode_error&) {
                ++rejected;
            }
        }
        EXPECT_GT(rejected, 0);  // about half of all x have no point
    }
    // outside the subgroup: rejected by the checked decoders, accepted by the unchecked ones
    for (int i = 0; i < 4; ++i) {
        auto q = random_curve_point<G>(rng);
        auto qc = zcash::serialize_compressed(q);
        auto qu = zcash::serialize_uncompressed(q);
        EXPECT_THROW(zcash::deserialize_compressed<G>(qc), decode_error);
        EXPECT_THROW(zcash::deserialize_uncompressed<G>(qu), decode_error);
        EXPECT_EQ(zcash::deserialize_compressed_unchecked<G>(qc), q);
        EXPECT_EQ(zcash::deserialize_uncompressed_unchecked<G>(qu), q);
    }
    // random subgroup points round-trip, with both signs
    for (int i = 0; i < 4; ++i) {
        auto p = random_subgroup_point<G>(rng);
        for (const auto& s : {p, -p}) {
            EXPECT_EQ(zcash::deserialize_compressed<G>(zcash::serialize_compressed(s)), s);
            EXPECT_EQ(zcash::deserialize_uncompressed<G>(zcash::serialize_uncompressed(s)), s);
        }
    }
}

TEST(zcash_encoding_messages, errors_say_what_and_where) {
    std::vector<uint8_t> v(47, 0);
    try {
        zcash::deserialize_compressed<bls12_381::g1>(v);
        FAIL();
    } catch (const decode_error& e) {
        EXPECT_NE(std::string(e.what()).find("BLS12-381 G1 compressed: expected 48 bytes, got 47"), std::string::npos)
            << e.what();
    }
}
