// SPDX-License-Identifier: MIT OR Apache-2.0
// Prime fields against GMP: every operation on random and edge-case inputs, for all four
// fields. GMP computes on canonical integers; cuzk on Montgomery form; results must agree.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"
#include "cuzk/field/batch_inverse.hpp"
#include "gmp_oracle.hpp"

namespace {

using cuzk::test::mpz;

template <class F>
class FieldGmp : public ::testing::Test {
protected:
    using integer = typename F::integer;
    static constexpr size_t kRandomCases = 100000;

    mpz p{F::modulus};
    std::mt19937_64 rng{0xC0FFEE ^ F::limbs};

    mpz canon(const F& x) const { return mpz(x.to_canonical()); }

    /// Edge inputs: 0, 1, 2, p-1, p-2, (p-1)/2, (p+1)/2, limb boundaries 2^(64k) +- 1,
    /// all-ones limbs below p, and R mod p (whose Montgomery form is R^2 mod p).
    std::vector<F> edge_values() const {
        std::vector<integer> ints;
        auto one = integer::from_u64(1);
        ints.push_back(integer{});
        ints.push_back(one);
        ints.push_back(integer::from_u64(2));
        ints.push_back(F::modulus - one);
        ints.push_back(F::modulus - integer::from_u64(2));
        ints.push_back(F::modulus.shr(1));
        ints.push_back(F::modulus.shr(1) + one);
        for (size_t k = 1; k < F::limbs; ++k) {
            integer b = one.shl(64 * k);
            ints.push_back(b);
            ints.push_back(b - one);
            ints.push_back(b + one);
            ints.push_back(b.shl(31));
        }
        integer ones{};
        for (size_t i = 0; i + 1 < F::limbs; ++i) ones.limb[i] = ~uint64_t(0);
        ints.push_back(ones);
        ints.push_back(F::params::r1);
        ints.push_back(F::params::r2);
        std::vector<F> out;
        for (auto& x : ints)
            if (x < F::modulus) out.push_back(F::from_canonical(x));
        return out;
    }

    /// Pairs: every edge pair plus kRandomCases random pairs.
    std::vector<std::pair<F, F>> cases() {
        std::vector<std::pair<F, F>> out;
        auto edges = edge_values();
        for (auto& a : edges)
            for (auto& b : edges) out.emplace_back(a, b);
        for (size_t i = 0; i < kRandomCases; ++i) out.emplace_back(F::random(rng), F::random(rng));
        return out;
    }
};

using Fields = ::testing::Types<cuzk::bls12_381::fp, cuzk::bls12_381::fr, cuzk::bn254::fq, cuzk::bn254::fr>;
TYPED_TEST_SUITE(FieldGmp, Fields);

TYPED_TEST(FieldGmp, AddSubNegDoubleMulSquare) {
    mpz e;
    for (auto& [a, b] : this->cases()) {
        mpz x = this->canon(a), y = this->canon(b);
        mpz_add(e.get(), x.get(), y.get());
        mpz_mod(e.get(), e.get(), this->p.get());
        ASSERT_EQ(this->canon(a + b), e) << "add " << x.hex() << " " << y.hex();
        mpz_sub(e.get(), x.get(), y.get());
        mpz_mod(e.get(), e.get(), this->p.get());
        ASSERT_EQ(this->canon(a - b), e) << "sub " << x.hex() << " " << y.hex();
        mpz_neg(e.get(), x.get());
        mpz_mod(e.get(), e.get(), this->p.get());
        ASSERT_EQ(this->canon(-a), e) << "neg " << x.hex();
        mpz_mul_2exp(e.get(), x.get(), 1);
        mpz_mod(e.get(), e.get(), this->p.get());
        ASSERT_EQ(this->canon(a.dbl()), e) << "dbl " << x.hex();
        mpz_mul(e.get(), x.get(), y.get());
        mpz_mod(e.get(), e.get(), this->p.get());
        ASSERT_EQ(this->canon(a * b), e) << "mul " << x.hex() << " " << y.hex();
        mpz_mul(e.get(), x.get(), x.get());
        mpz_mod(e.get(), e.get(), this->p.get());
        ASSERT_EQ(this->canon(a.square()), e) << "square " << x.hex();
    }
}

// The host squaring (host_arith::mont_sqr: cross products once, doubled, then reduced) on both
// of its code paths, called directly: the portable C++ (mont_sqr_portable, what builds without
// ADX and constant evaluation run) and, where the compiler targets it, the x86 ADX asm
// (x86::mont_sqr_adx_4 / _6). The portable multiplication is checked on the same inputs. Inputs:
// the edge values, values whose limbs are all ones (2^k - 1 for every k up to the modulus'
// bits, the largest with the top bit clear, p - 1 with its low limbs set), and random ones.
TYPED_TEST(FieldGmp, SquareBothPathsMatchGmp) {
    using F = TypeParam;
    using integer = typename F::integer;
    constexpr size_t N = F::limbs;
    constexpr uint64_t inv = F::params::mont_inv64;
    std::vector<integer> ints;
    for (const F& a : this->edge_values()) ints.push_back(a.mont);  // Montgomery forms: any value < p
    const integer one = integer::from_u64(1);
    for (size_t k = 1; k <= F::modulus_bits; ++k) {
        const integer ones = one.shl(k) - one;  // k low bits set: all-ones limbs below the top
        if (ones < F::modulus) ints.push_back(ones);
        ints.push_back(F::modulus - one.shl(k - 1));
    }
    integer high = F::modulus - one;
    for (size_t i = 0; i + 1 < N; ++i) high.limb[i] = ~uint64_t(0);
    if (high < F::modulus) ints.push_back(high);
    high.limb[N - 1] -= 1;
    ints.push_back(high);
    for (int i = 0; i < 100000; ++i) ints.push_back(F::random(this->rng).mont);

    mpz e;
    auto expect_square = [&](const integer& m, const integer& got, const char* path) {
        ASSERT_LT(got, F::modulus) << path << ": not fully reduced, input " << mpz(m).hex();
        const F a = F::from_montgomery_unchecked(m);
        mpz x = this->canon(a);
        mpz_mul(e.get(), x.get(), x.get());
        mpz_mod(e.get(), e.get(), this->p.get());
        ASSERT_EQ(this->canon(F::from_montgomery_unchecked(got)), e) << path << " " << x.hex();
    };
    for (const integer& m : ints) {
        ASSERT_LT(m, F::modulus);
        integer got{};
        cuzk::host_arith::mont_sqr_portable(got, m, F::modulus, inv);
        expect_square(m, got, "mont_sqr_portable");
        cuzk::host_arith::mont_mul_portable(got, m, m, F::modulus, inv);
        expect_square(m, got, "mont_mul_portable");
#if CUZK_HOST_ADX
        if constexpr (N == 4) cuzk::host_arith::x86::mont_sqr_adx_4(got, m, F::modulus, inv);
        if constexpr (N == 6) cuzk::host_arith::x86::mont_sqr_adx_6(got, m, F::modulus, inv);
        expect_square(m, got, "mont_sqr_adx");
#endif
        expect_square(m, F::from_montgomery_unchecked(m).square().mont, "mont_field::square");
    }
#if !CUZK_HOST_ADX
    GTEST_LOG_(INFO) << "built without ADX: the asm squaring is not compiled";
#endif
    // Constant evaluation runs the portable squaring too.
    static_assert(F::from_u64(3).square() == F::from_u64(9));
    static_assert((-F::one()).square() == F::one());
}

TYPED_TEST(FieldGmp, MontgomeryFormIsXTimesR) {
    using F = TypeParam;
    mpz r, e;
    mpz_ui_pow_ui(r.get(), 2, 64 * F::limbs);
    for (int i = 0; i < 1000; ++i) {
        F a = F::random(this->rng);
        mpz x = this->canon(a);
        mpz_mul(e.get(), x.get(), r.get());
        mpz_mod(e.get(), e.get(), this->p.get());
        ASSERT_EQ(mpz(a.mont), e);
        ASSERT_EQ(F::from_montgomery_unchecked(a.mont), a);
    }
}

TYPED_TEST(FieldGmp, InversePowLegendreSqrt) {
    using F = TypeParam;
    // Fewer cases: each is a full exponentiation.
    std::vector<F> inputs = this->edge_values();
    for (int i = 0; i < 3000; ++i) inputs.push_back(F::random(this->rng));
    mpz e, exponent, pm1;
    mpz_sub_ui(pm1.get(), this->p.get(), 1);
    for (auto& a : inputs) {
        mpz x = this->canon(a);
        if (a.is_zero()) {
            EXPECT_TRUE(a.inverse().is_zero());
        } else {
            ASSERT_NE(mpz_invert(e.get(), x.get(), this->p.get()), 0);
            ASSERT_EQ(this->canon(a.inverse()), e) << "inverse " << x.hex();
            ASSERT_TRUE((a * a.inverse()).is_one());
        }
        // pow by a random 64-bit and a random full-width exponent
        uint64_t k = this->rng();
        mpz_powm_ui(e.get(), x.get(), k, this->p.get());
        ASSERT_EQ(this->canon(a.pow_vartime(k)), e);
        auto big = F::random(this->rng).to_canonical();
        mpz_powm(e.get(), x.get(), mpz(big).get(), this->p.get());
        ASSERT_EQ(this->canon(a.pow_vartime(big)), e);
        // Legendre symbol
        int expected = mpz_legendre(x.get(), this->p.get());
        ASSERT_EQ(a.legendre(), expected) << x.hex();
        // sqrt exists exactly for squares, and squares back
        auto s = a.sqrt();
        ASSERT_EQ(s.has_value(), expected >= 0) << x.hex();
        if (s) {
            ASSERT_EQ(s->square(), a);
        }
        auto s2 = a.square().sqrt();
        ASSERT_TRUE(s2.has_value());
        ASSERT_TRUE(*s2 == a || *s2 == -a);
    }
}

// The binary-GCD inverse against GMP, on inputs that stress its 64-bit stand-ins: every edge
// value, powers of two and their neighbours at every bit length (a and b of very different
// lengths), values just below p and near p / 2^k (equal top bits), and random values. It must
// also finish within the batch bound that analysis gives (2 * bits / 31 + 2), never falling back.
TYPED_TEST(FieldGmp, InverseVartimeMatchesGmp) {
    using F = TypeParam;
    using integer = typename F::integer;
    std::vector<integer> ints;
    for (const F& a : this->edge_values()) ints.push_back(a.to_canonical());
    const integer one = integer::from_u64(1);
    for (size_t k = 0; k < F::modulus_bits; ++k) {
        const integer b = one.shl(k);
        for (const integer& x : {b, b - one, b + one, F::modulus - b, F::modulus.shr(k), F::modulus.shr(k) + one})
            if (!x.is_zero() && x < F::modulus) ints.push_back(x);
    }
    for (int i = 0; i < 20000; ++i) ints.push_back(F::random(this->rng).to_canonical());
    const unsigned bound = unsigned(2 * F::modulus_bits / 31 + 2);
    unsigned most = 0;
    mpz e, got, prod;
    for (const integer& x : ints) {
        mpz mx(x);
        // The raw routine on the integer itself.
        integer y{};
        unsigned batches = 0;
        if (x.is_zero()) continue;
        ASSERT_TRUE(cuzk::detail::binary_gcd_inverse(y, x, F::modulus, &batches)) << mx.hex();
        ASSERT_NE(mpz_invert(e.get(), mx.get(), this->p.get()), 0);
        ASSERT_EQ(mpz(y), e) << "binary_gcd_inverse " << mx.hex();
        ASSERT_LE(batches, bound) << mx.hex();
        most = std::max(most, batches);
        // The field element's inverse (Montgomery form in and out).
        const F a = F::from_canonical(x);
        ASSERT_EQ(this->canon(a.inverse_vartime()), e) << "inverse_vartime " << mx.hex();
    }
    EXPECT_TRUE(F::zero().inverse_vartime().is_zero());
    std::printf("%zu-bit modulus: at most %u batches of 31 steps (bound %u)\n", F::modulus_bits, most, bound);
}

TYPED_TEST(FieldGmp, BatchInverse) {
    using F = TypeParam;
    std::vector<F> xs;
    for (int i = 0; i < 257; ++i) xs.push_back(i % 17 == 3 ? F::zero() : F::random(this->rng));
    std::vector<F> inv = xs;
    cuzk::batch_inverse(std::span<F>(inv));
    for (size_t i = 0; i < xs.size(); ++i) ASSERT_EQ(inv[i], xs[i].inverse()) << i;
    std::vector<F> empty;
    cuzk::batch_inverse(std::span<F>(empty));
}

TYPED_TEST(FieldGmp, BytesRoundTripAndRejectNonCanonical) {
    using F = TypeParam;
    std::array<uint8_t, F::byte_size> le{}, be{};
    for (int i = 0; i < 2000; ++i) {
        F a = F::random(this->rng);
        a.to_bytes_le(le);
        a.to_bytes_be(be);
        // independent check: GMP's own big-endian export
        mpz x = this->canon(a);
        std::array<uint8_t, F::byte_size> gmp_be{};
        size_t count = 0;
        mpz_export(gmp_be.data() + F::byte_size - (mpz_sizeinbase(x.get(), 256)), &count, 1, 1, 1, 0, x.get());
        if (!a.is_zero()) {
            ASSERT_EQ(be, gmp_be);
        }
        ASSERT_EQ(F::from_bytes_le(le), a);
        ASSERT_EQ(F::from_bytes_be(be), a);
    }
    // p itself, p + 1 and all-ones are rejected; so are wrong lengths.
    auto reject = [](const typename F::integer& v) {
        std::array<uint8_t, F::byte_size> b{};
        for (size_t i = 0; i < F::byte_size; ++i) b[i] = uint8_t(v.limb[i / 8] >> (8 * (i % 8)));
        EXPECT_THROW(F::from_bytes_le(b), cuzk::decode_error);
        std::reverse(b.begin(), b.end());
        EXPECT_THROW(F::from_bytes_be(b), cuzk::decode_error);
    };
    reject(F::modulus);
    reject(F::modulus + F::integer::from_u64(1));
    std::array<uint8_t, F::byte_size> ff;
    ff.fill(0xff);
    EXPECT_THROW(F::from_bytes_le(ff), cuzk::decode_error);
    std::vector<uint8_t> short_bytes(F::byte_size - 1), long_bytes(F::byte_size + 1);
    EXPECT_THROW(F::from_bytes_le(short_bytes), cuzk::decode_error);
    EXPECT_THROW(F::from_bytes_be(long_bytes), cuzk::decode_error);
    EXPECT_THROW(F::from_canonical(F::modulus), cuzk::decode_error);
    // p - 1 is accepted
    auto pm1 = F::modulus - F::integer::from_u64(1);
    EXPECT_EQ(F::from_canonical(pm1) + F::one(), F::zero());
}

TYPED_TEST(FieldGmp, RandomIsInRangeAndSpread) {
    using F = TypeParam;
    // The top limb of random elements covers its range (a biased sampler would skew it).
    uint64_t top_max = 0;
    for (int i = 0; i < 4000; ++i) {
        F a = F::random(this->rng);
        ASSERT_LT(a.mont, F::modulus);
        top_max = std::max(top_max, a.mont.limb[F::limbs - 1]);
    }
    EXPECT_GT(top_max, F::modulus.limb[F::limbs - 1] / 2);
}

}  // namespace
