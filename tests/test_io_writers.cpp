// SPDX-License-Identifier: MIT OR Apache-2.0
// io/ writers: write_zkey and write_wtns are the exact inverses of the readers, to_zkey turns a
// cuzk test-setup key into a zkey that proves (with cuzk's prover here; with snarkjs's in
// tests/interop/setup_test.sh), and bad input is a clear error. Both curves.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/synthetic_circuit.hpp"
#include "cuzk/groth16/test_setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/binfile.hpp"
#include "cuzk/io/wtns.hpp"
#include "cuzk/io/zkey.hpp"
#include "cuzk/io/zkey_groth16.hpp"

using namespace cuzk;

namespace {

std::vector<uint8_t> file_bytes(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

/// A fresh temporary directory, removed at the end of the test.
struct temp_dir {
    std::filesystem::path path;
    temp_dir() {
        path = std::filesystem::temp_directory_path() /
               ("cuzk_io_writers_" + std::to_string(::getpid()) + "_" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~temp_dir() { std::filesystem::remove_all(path); }
    std::string operator/(const std::string& name) const { return (path / name).string(); }
};

template <class IoCurve>
class IoWriters : public ::testing::Test {
public:
    using curve = IoCurve;
    using gcurve = io::groth16_curve_t<IoCurve>;
    using fr = typename IoCurve::fr;

    static groth16::circuit<fr> circuit(unsigned log = 6) {
        return groth16::synthetic_circuit<fr>({.log_domain = log, .num_public = 3, .bit_share = 0.3, .seed = 7});
    }
};

using io_curves = ::testing::Types<io::bn128, io::bls12381>;
TYPED_TEST_SUITE(IoWriters, io_curves);

template <class C>
void expect_same(const io::zkey<C>& x, const io::zkey<C>& y) {
    EXPECT_EQ(x.n_vars, y.n_vars);
    EXPECT_EQ(x.n_public, y.n_public);
    EXPECT_EQ(x.domain_size, y.domain_size);
    EXPECT_TRUE(x.vk.alpha1 == y.vk.alpha1 && x.vk.beta1 == y.vk.beta1 && x.vk.beta2 == y.vk.beta2 &&
                x.vk.gamma2 == y.vk.gamma2 && x.vk.delta1 == y.vk.delta1 && x.vk.delta2 == y.vk.delta2);
    EXPECT_TRUE(x.vk.ic == y.vk.ic);
    EXPECT_TRUE(x.a == y.a);
    EXPECT_TRUE(x.b1 == y.b1);
    EXPECT_TRUE(x.b2 == y.b2);
    EXPECT_TRUE(x.c == y.c);
    EXPECT_TRUE(x.h == y.h);
    ASSERT_EQ(x.coeffs.size(), y.coeffs.size());
    for (size_t i = 0; i < x.coeffs.size(); ++i) {
        const auto &a = x.coeffs[i], &b = y.coeffs[i];
        ASSERT_TRUE(a.matrix == b.matrix && a.constraint == b.constraint && a.signal == b.signal && a.value == b.value)
            << "coefficient " << i;
    }
}

TYPED_TEST(IoWriters, ZkeyRoundTripEqualsTheKey) {
    using C = typename TestFixture::curve;
    using G = typename TestFixture::gcurve;
    temp_dir dir;
    const auto ckt = TestFixture::circuit();
    const auto pk = groth16::test_setup_insecure<G>(ckt.system, 3);
    const io::zkey<C> z = io::to_zkey<C>(pk, ckt.system);

    // The coefficients: every A and B entry of the r1cs, then the public rows.
    const size_t m = ckt.system.num_constraints(), np = ckt.system.num_public;
    ASSERT_EQ(z.coeffs.size(), ckt.system.a.entries() + ckt.system.b.entries() + np + 1);
    for (size_t k = 0; k <= np; ++k) {
        const auto& e = z.coeffs[z.coeffs.size() - 1 - np + k];
        EXPECT_TRUE(e.matrix == io::zkey_matrix::a && e.constraint == m + k && e.signal == k && e.value.is_one());
    }

    io::write_zkey(dir / "k.zkey", z);
    const auto back = io::zkey<C>::read(dir / "k.zkey", {.check_points = true, .check_subgroup = true});
    expect_same(z, back);

    // ... and it is the proving key again.
    auto pk2 = io::to_proving_key(io::zkey<C>(back));
    EXPECT_TRUE(pk2.a == pk.a && pk2.b_g1 == pk.b_g1 && pk2.b_g2 == pk.b_g2 && pk2.l == pk.l && pk2.h == pk.h);
    EXPECT_TRUE(pk2.vk.ic == pk.vk.ic && pk2.vk.alpha_g1 == pk.vk.alpha_g1 && pk2.beta_g1 == pk.beta_g1 &&
                pk2.delta_g1 == pk.delta_g1 && pk2.vk.beta_g2 == pk.vk.beta_g2 && pk2.vk.gamma_g2 == pk.vk.gamma_g2 &&
                pk2.vk.delta_g2 == pk.vk.delta_g2);

    // Writing what was read reproduces the file byte for byte; the moving to_zkey agrees.
    io::write_zkey(dir / "k2.zkey", back);
    EXPECT_EQ(file_bytes(dir / "k.zkey"), file_bytes(dir / "k2.zkey"));
    io::write_zkey(dir / "k3.zkey", io::to_zkey<C>(groth16::proving_key<G>(pk), ckt.system));
    EXPECT_EQ(file_bytes(dir / "k.zkey"), file_bytes(dir / "k3.zkey"));
}

TYPED_TEST(IoWriters, ZkeyLayoutIsSnarkjs) {
    using C = typename TestFixture::curve;
    using G = typename TestFixture::gcurve;
    using fr = typename TestFixture::fr;
    temp_dir dir;
    const auto ckt = TestFixture::circuit();
    const auto z = io::to_zkey<C>(groth16::test_setup_insecure<G>(ckt.system, 3), ckt.system);
    io::write_zkey(dir / "k.zkey", z);
    const auto f = io::binfile::open(dir / "k.zkey", "zkey", 1);
    ASSERT_EQ(f.sections().size(), 10u);
    for (uint32_t i = 0; i < 10; ++i) EXPECT_EQ(f.sections()[i].id, i + 1);  // snarkjs's order

    // Section 10: a 64-byte csHash (zeros) and no contributions.
    auto r10 = f.reader(10);
    EXPECT_EQ(r10.remaining(), 68u);
    EXPECT_EQ(r10.bytes(64), std::vector<uint8_t>(64, 0));
    EXPECT_EQ(r10.u32(), 0u);

    // Section 4 holds c * 2^512 mod r, computed here independently of the writer.
    fr r2 = fr::one();
    for (int i = 0; i < 512; ++i) r2 = r2 + r2;
    auto r4 = f.reader(4);
    ASSERT_EQ(r4.u32(), z.coeffs.size());
    for (size_t i = 0; i < z.coeffs.size(); ++i) {
        EXPECT_EQ(r4.u32(), uint32_t(z.coeffs[i].matrix));
        EXPECT_EQ(r4.u32(), z.coeffs[i].constraint);
        EXPECT_EQ(r4.u32(), z.coeffs[i].signal);
        typename fr::integer stored{};
        r4.read(&stored, sizeof(stored));
        ASSERT_TRUE(stored == (z.coeffs[i].value * r2).to_canonical()) << "coefficient " << i;
    }

    // Section 2's header fields.
    auto r2s = f.reader(2);
    EXPECT_EQ(r2s.u32(), sizeof(typename C::fq::integer));
    r2s.skip(sizeof(typename C::fq::integer));
    EXPECT_EQ(r2s.u32(), 32u);
    r2s.skip(32);
    EXPECT_EQ(r2s.u32(), ckt.system.num_variables);
    EXPECT_EQ(r2s.u32(), ckt.system.num_public);
    EXPECT_EQ(r2s.u32(), ckt.system.domain_size());

    // A custom csHash lands in section 10.
    io::zkey_write_options opt;
    opt.cs_hash[0] = 0xab;
    opt.cs_hash[63] = 0xcd;
    io::write_zkey(dir / "h.zkey", z, opt);
    auto r = io::binfile::open(dir / "h.zkey", "zkey", 1).reader(10).bytes(64);
    EXPECT_EQ(r[0], 0xab);
    EXPECT_EQ(r[63], 0xcd);
}

TYPED_TEST(IoWriters, WrittenFilesProve) {
    using C = typename TestFixture::curve;
    using G = typename TestFixture::gcurve;
    using fr = typename TestFixture::fr;
    temp_dir dir;
    const auto ckt = TestFixture::circuit(7);
    io::write_zkey(dir / "c.zkey", io::to_zkey<C>(groth16::test_setup_insecure<G>(ckt.system, 5), ckt.system));
    io::write_wtns<C>(dir / "w.wtns", ckt.assignment);

    auto z = io::zkey<C>::read(dir / "c.zkey");
    const auto w = io::wtns<C>::read(dir / "w.wtns");
    ASSERT_TRUE(w.values == ckt.assignment);
    auto abc = io::evaluate_abc<C>(z.coeffs, z.domain_size, w.values);
    auto pk = std::make_shared<const groth16::proving_key<G>>(io::to_proving_key(std::move(z)));
    const auto pi = groth16::prover<G>(pk).prove_from_abc(w.values, std::move(abc));
    EXPECT_TRUE(groth16::verify(pk->vk, ckt.public_inputs(), pi));
    std::vector<fr> wrong(ckt.public_inputs().begin(), ckt.public_inputs().end());
    wrong[0] += fr::one();
    EXPECT_FALSE(groth16::verify(pk->vk, std::span<const fr>(wrong), pi));
}

TYPED_TEST(IoWriters, WtnsRoundTripAndLayout) {
    using C = typename TestFixture::curve;
    using fr = typename TestFixture::fr;
    temp_dir dir;
    std::vector<fr> v{fr::one(), fr::zero(), -fr::one(), fr::from_u64(12345)};
    std::mt19937_64 rng(9);
    for (int i = 0; i < 40000; ++i) v.push_back(fr::random(rng));  // more than one write chunk
    io::write_wtns<C>(dir / "w.wtns", v);
    const auto back = io::wtns<C>::read(dir / "w.wtns");
    EXPECT_TRUE(back.values == v);
    io::write_wtns(dir / "w2.wtns", back);
    const auto bytes = file_bytes(dir / "w.wtns");
    EXPECT_EQ(bytes, file_bytes(dir / "w2.wtns"));
    // Canonical little-endian values: -1 is r - 1.
    const size_t n8 = 32, values_at = 12 + 12 + 4 + n8 + 4 + 12;
    ASSERT_EQ(bytes.size(), values_at + v.size() * n8);
    auto minus_one = fr::modulus;
    minus_one.limb[0] -= 1;
    EXPECT_EQ(std::memcmp(bytes.data() + values_at + 2 * n8, &minus_one, n8), 0);
}

TYPED_TEST(IoWriters, BadInputIsAClearError) {
    using C = typename TestFixture::curve;
    using G = typename TestFixture::gcurve;
    using fr = typename TestFixture::fr;
    temp_dir dir;
    const auto ckt = TestFixture::circuit();
    auto pk = groth16::test_setup_insecure<G>(ckt.system, 3);

    auto pk_mono = pk;
    pk_mono.h_convention = groth16::h_basis::monomial;
    try {
        (void)io::to_zkey<C>(pk_mono, ckt.system);
        ADD_FAILURE() << "a monomial-basis key was accepted";
    } catch (const invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("lagrange_odd_coset"), std::string::npos) << e.what();
    }
    const auto other = TestFixture::circuit(7);
    EXPECT_THROW((void)io::to_zkey<C>(pk, other.system), invalid_argument);

    auto z = io::to_zkey<C>(pk, ckt.system);
    z.h.pop_back();
    EXPECT_THROW(io::write_zkey(dir / "bad.zkey", z), invalid_argument);
    EXPECT_THROW(io::write_zkey("/nonexistent-dir/x.zkey", io::to_zkey<C>(pk, ckt.system)), error);

    std::vector<fr> w{fr::from_u64(2), fr::one()};
    EXPECT_THROW(io::write_wtns<C>(dir / "bad.wtns", w), invalid_argument);
}

}  // namespace
