// SPDX-License-Identifier: MIT OR Apache-2.0
// Host NTT and evaluation domains, for BLS12-381 Fr and BN254 Fr.
// Oracles: GMP (roots of unity, inverses), a naive O(n^2) DFT, Horner evaluation at the coset
// points, the schoolbook polynomial product, and round trips.
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <vector>

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"
#include "cuzk/ntt/domain.hpp"
#include "cuzk/ntt/ntt_host.hpp"

namespace {

using namespace cuzk;

template <class F>
class NttHost : public ::testing::Test {};
using Fields = ::testing::Types<bls12_381::fr, bn254::fr>;
TYPED_TEST_SUITE(NttHost, Fields);

// ---- GMP helpers --------------------------------------------------------------------------

template <class F>
void to_mpz(mpz_t out, const F& x) {
    auto c = x.to_canonical();
    mpz_import(out, F::limbs, -1, sizeof(uint64_t), 0, 0, c.limb);
}
template <class F>
F from_mpz(const mpz_t x) {
    typename F::integer c{};
    size_t count = 0;
    mpz_export(c.limb, &count, -1, sizeof(uint64_t), 0, 0, x);
    return F::from_canonical(c);
}
template <class F>
void modulus_mpz(mpz_t out) {
    mpz_import(out, F::limbs, -1, sizeof(uint64_t), 0, 0, F::modulus.limb);
}

// ---- oracles ------------------------------------------------------------------------------

template <class F>
std::vector<F> random_vector(size_t n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<F> v(n);
    for (auto& x : v) x = F::random(rng);
    return v;
}

template <class F>
F horner(const std::vector<F>& coeffs, const F& x) {
    F acc = F::zero();
    for (size_t i = coeffs.size(); i-- > 0;) acc = acc * x + coeffs[i];
    return acc;
}

/// out[i] = sum_j a[j] (shift·w^i)^j, natural order in and out: the O(n^2) definition.
template <class F>
std::vector<F> naive_dft(const std::vector<F>& a, const F& w, const F& shift) {
    const size_t n = a.size();
    std::vector<F> out(n);
    F x = shift;
    for (size_t i = 0; i < n; ++i, x *= w) out[i] = horner(a, x);
    return out;
}

template <class F>
std::vector<F> permuted(const std::vector<F>& a) {
    size_t log_n = size_t(std::countr_zero(a.size()));
    std::vector<F> r(a.size());
    for (size_t i = 0; i < a.size(); ++i) r[ntt::bit_reverse(i, unsigned(log_n))] = a[i];
    return r;
}

const ntt::ordering all_orders[] = {ntt::ordering::nn, ntt::ordering::nr, ntt::ordering::rn, ntt::ordering::rr};

// ---- domain -------------------------------------------------------------------------------

TEST(NttDomain, FiveIsTheSmallestNonResidue) {
    // snarkjs/ffjavascript take the smallest non-residue as the root generator; for both
    // scalar fields that is 5 (4 is a square; 2 and 3 are squares here).
    static_assert(bls12_381::fr::from_u64(2).legendre() == 1 && bls12_381::fr::from_u64(3).legendre() == 1 &&
                  bls12_381::fr::from_u64(5).legendre() == -1);
    static_assert(bn254::fr::from_u64(2).legendre() == 1 && bn254::fr::from_u64(3).legendre() == 1 &&
                  bn254::fr::from_u64(5).legendre() == -1);
    static_assert(ntt::domain<bls12_381::fr>::root_base == 5 && ntt::domain<bn254::fr>::root_base == 5);
    static_assert(ntt::domain<bls12_381::fr>::max_log_size == 32 && ntt::domain<bn254::fr>::max_log_size == 28);
}

TYPED_TEST(NttHost, RootsOfUnityMatchGmp) {
    using F = TypeParam;
    mpz_t p, e, g, w;
    mpz_inits(p, e, g, w, nullptr);
    modulus_mpz<F>(p);
    mpz_set_ui(g, 5);
    for (size_t k = 0; k <= F::two_adicity; ++k) {
        mpz_sub_ui(e, p, 1);
        mpz_fdiv_q_2exp(e, e, k);  // (r - 1) / 2^k
        mpz_powm(w, g, e, p);
        F root = ntt::domain<F>::root_of_unity(k);
        EXPECT_EQ(root, from_mpz<F>(w)) << "k = " << k;
        // exact order 2^k: w^(2^k) = 1 and, for k > 0, w^(2^(k-1)) = -1
        F x = root;
        for (size_t i = 0; i + 1 < k; ++i) x = x.square();
        if (k > 0) {
            EXPECT_EQ(x, -F::one()) << "k = " << k;
            x = x.square();
        }
        EXPECT_TRUE(x.is_one()) << "k = " << k;
    }
    mpz_clears(p, e, g, w, nullptr);
}

TYPED_TEST(NttHost, DomainConstants) {
    using F = TypeParam;
    mpz_t p, x, y;
    mpz_inits(p, x, y, nullptr);
    modulus_mpz<F>(p);
    for (size_t k : {size_t(0), size_t(1), size_t(5), size_t(20), F::two_adicity}) {
        ntt::domain<F> d(k);
        EXPECT_EQ(d.size(), size_t(1) << k);
        EXPECT_TRUE((d.root() * d.root_inverse()).is_one());
        mpz_set_ui(x, 1);
        mpz_mul_2exp(x, x, k);
        ASSERT_NE(mpz_invert(y, x, p), 0);
        EXPECT_EQ(d.size_inverse(), from_mpz<F>(y));
        EXPECT_EQ(d.coset_shift(), F::from_u64(5));
        EXPECT_TRUE((d.coset_shift() * d.coset_shift_inverse()).is_one());
        // Z vanishes on H, is the constant g^n - 1 on the coset, and that constant is non-zero
        F g_n = d.coset_shift().pow_vartime(uint64_t(1) << k);
        EXPECT_EQ(d.vanishing_on_coset(), g_n - F::one());
        EXPECT_FALSE(d.vanishing_on_coset().is_zero());
        for (size_t i : {size_t(0), size_t(1), size_t(3), d.size() - 1}) {
            EXPECT_TRUE(d.vanishing(d.element(i)).is_zero());
            EXPECT_EQ(d.vanishing(d.coset_element(i)), d.vanishing_on_coset());
        }
    }
    // snarkjs's odd coset: shift w_{2n}, Z = -2 there
    auto s = ntt::domain<F>::snarkjs_odd_coset(10);
    EXPECT_EQ(s.coset_shift().square(), s.root());
    EXPECT_EQ(s.vanishing_on_coset(), -F::from_u64(2));
    mpz_clears(p, x, y, nullptr);
}

TYPED_TEST(NttHost, DomainErrors) {
    using F = TypeParam;
    constexpr size_t s = F::two_adicity;
    EXPECT_THROW(ntt::domain<F>(s + 1), invalid_argument);
    EXPECT_THROW(ntt::domain<F>::root_of_unity(s + 1), invalid_argument);
    EXPECT_THROW(ntt::domain<F>::for_size(0), invalid_argument);
    EXPECT_THROW(ntt::domain<F>::for_size(3), invalid_argument);
    EXPECT_THROW(ntt::domain<F>::for_size(1000), invalid_argument);
    EXPECT_THROW(ntt::domain<F>::snarkjs_odd_coset(s), invalid_argument);
    EXPECT_EQ(ntt::domain<F>::for_size(1024).log_size(), 10u);
    // a shift inside H (or zero) would make the coset meet H
    EXPECT_THROW(ntt::domain<F>(4, ntt::domain<F>::root_of_unity(3)), invalid_argument);
    EXPECT_THROW(ntt::domain<F>(4, F::zero()), invalid_argument);
    try {
        ntt::domain<F>(s + 1);
    } catch (const invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("2-adicity"), std::string::npos) << e.what();
    }
    // spans that are not a positive multiple of the size
    ntt::domain<F> d(3);
    std::vector<F> v(12);
    EXPECT_THROW(ntt::forward(d, std::span(v)), invalid_argument);
    EXPECT_THROW(ntt::inverse(d, std::span(v)), invalid_argument);
    EXPECT_THROW(ntt::forward(d, std::span(v).first(0)), invalid_argument);
    EXPECT_THROW(ntt::bit_reverse_permute(std::span(v), 3), invalid_argument);
}

// ---- bellperson's roots of unity ---------------------------------------------------------

// The constant bellperson's keys are built on: ff's ROOT_OF_UNITY for BLS12-381 Fr, canonical
// 0x16a2a19e...439f0d2b (zkcrypto/bls12_381 docs; filecoin-project/blstrs 284624fe src/scalar.rs
// stores it in Montgomery form, the limbs below). Typed in from those sources, not computed.
constexpr const char* blstrs_root_of_unity_hex = "16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b";
constexpr uint64_t blstrs_root_of_unity_montgomery[4] = {0xb9b58d8c5f0e466aull, 0x5b1b4c801819d7ecull,
                                                         0x0af53ae352a31e64ull, 0x5bf3adda19e9b27bull};
constexpr uint64_t blstrs_generator_montgomery[4] = {0x0000000efffffff1ull, 0x17e363d300189c0full,
                                                     0xff9c57876f8457b0ull, 0x351332208fc5a8c4ull};

TEST(NttDomain, BellpersonRootIsBlstrsRootOfUnity) {
    using F = bls12_381::fr;
    using D = ntt::domain<F>;
    static_assert(D::root_generator(ntt::domain_roots::bellperson) == 7);
    static_assert(D::root_generator(ntt::domain_roots::snarkjs) == 5);
    mpz_t p, e, w, want, m, rinv, gen;
    mpz_inits(p, e, w, want, m, rinv, gen, nullptr);
    modulus_mpz<F>(p);
    // 7^((r-1)/2^32) by GMP
    mpz_sub_ui(e, p, 1);
    mpz_fdiv_q_2exp(e, e, 32);
    mpz_set_ui(gen, 7);
    mpz_powm(w, gen, e, p);
    // the published constant, and blstrs's Montgomery limbs times 2^-256 mod r
    ASSERT_EQ(mpz_set_str(want, blstrs_root_of_unity_hex, 16), 0);
    EXPECT_EQ(mpz_cmp(w, want), 0) << "7^((r-1)/2^32) is not the published constant";
    mpz_set_ui(rinv, 1);
    mpz_mul_2exp(rinv, rinv, 256);
    ASSERT_NE(mpz_invert(rinv, rinv, p), 0);
    mpz_import(m, 4, -1, sizeof(uint64_t), 0, 0, blstrs_root_of_unity_montgomery);
    mpz_mul(m, m, rinv);
    mpz_mod(m, m, p);
    EXPECT_EQ(mpz_cmp(m, want), 0) << "blstrs's Montgomery ROOT_OF_UNITY is not the constant";
    mpz_import(m, 4, -1, sizeof(uint64_t), 0, 0, blstrs_generator_montgomery);
    mpz_mul(m, m, rinv);
    mpz_mod(m, m, p);
    EXPECT_EQ(mpz_cmp_ui(m, 7), 0) << "blstrs's GENERATOR is not 7";
    EXPECT_EQ(mpz_legendre(gen, p), -1) << "7 must be a non-residue";

    const F root = D::root_of_unity(32, ntt::domain_roots::bellperson);
    EXPECT_EQ(root, from_mpz<F>(want));
    // order exactly 2^32: w^(2^31) = -1, w^(2^32) = 1
    F x = root;
    for (int i = 0; i < 31; ++i) x = x.square();
    EXPECT_EQ(x, -F::one());
    EXPECT_TRUE(x.square().is_one());
    // every smaller domain: 7^((r-1)/2^k) by GMP, and the 32 - k fold square of the constant
    // (bellperson's EvaluationDomain::from_coeffs)
    F squared = from_mpz<F>(want);
    for (size_t k = 32; k-- > 0;) {
        squared = squared.square();
        mpz_sub_ui(e, p, 1);
        mpz_fdiv_q_2exp(e, e, k);
        mpz_powm(w, gen, e, p);
        const F got = D::root_of_unity(k, ntt::domain_roots::bellperson);
        EXPECT_EQ(got, from_mpz<F>(w)) << "k = " << k;
        EXPECT_EQ(got, squared) << "k = " << k;
        // the two choices coincide for 1, 2 and 4 points and differ from 8 on
        mpz_set_ui(m, 5);
        mpz_powm(m, m, e, p);
        EXPECT_EQ(mpz_cmp(m, w) == 0, k <= 2) << "k = " << k;
        EXPECT_EQ(D::root_of_unity(k) == got, k <= 2) << "k = " << k;
    }
    mpz_clears(p, e, w, want, m, rinv, gen, nullptr);
}

TYPED_TEST(NttHost, BellpersonDomainConstantsAndTransforms) {
    using F = TypeParam;
    mpz_t p, seven;
    mpz_inits(p, seven, nullptr);
    modulus_mpz<F>(p);
    mpz_set_ui(seven, 7);
    const bool seven_is_non_residue = mpz_legendre(seven, p) == -1;  // GMP decides where the roots exist
    mpz_clears(p, seven, nullptr);
    if (!seven_is_non_residue) {
        EXPECT_THROW(ntt::domain<F>(3, ntt::domain_roots::bellperson), invalid_argument);
        EXPECT_THROW(ntt::domain<F>::root_of_unity(3, ntt::domain_roots::bellperson), invalid_argument);
        return;
    }
    for (size_t k : {size_t(0), size_t(3), size_t(6)}) {
        const ntt::domain<F> d(k, ntt::domain_roots::bellperson);
        EXPECT_EQ(d.roots(), ntt::domain_roots::bellperson);
        EXPECT_EQ(d.root(), ntt::domain<F>::root_of_unity(k, ntt::domain_roots::bellperson));
        EXPECT_EQ(d.coset_shift(), F::from_u64(7));  // bellperson's coset_fft shift
        EXPECT_FALSE(d.vanishing_on_coset().is_zero());
        const auto odd = ntt::domain<F>::odd_coset(k, ntt::domain_roots::bellperson);
        EXPECT_EQ(odd.coset_shift().square(), d.root());
        EXPECT_EQ(odd.vanishing_on_coset(), -F::from_u64(2));
        // the transforms use the domain's root: against the naive DFT on bellperson's points
        auto a = random_vector<F>(d.size(), 70 + k);
        for (auto c : {ntt::coset::none, ntt::coset::shifted}) {
            auto x = a;
            ntt::forward(d, std::span(x), ntt::ordering::nn, c);
            EXPECT_EQ(x, naive_dft(a, d.root(), c == ntt::coset::shifted ? d.coset_shift() : F::one())) << k;
            ntt::inverse(d, std::span(x), ntt::ordering::nn, c);
            EXPECT_EQ(x, a) << k;
        }
    }
    EXPECT_EQ(ntt::domain<F>::for_size(64, ntt::domain_roots::bellperson).roots(), ntt::domain_roots::bellperson);
    EXPECT_EQ(ntt::domain<F>(5).roots(), ntt::domain_roots::snarkjs);
}

// ---- transforms against the naive DFT ---------------------------------------------------

TYPED_TEST(NttHost, MatchesNaiveDftEveryOrderAndCoset) {
    using F = TypeParam;
    for (size_t k = 0; k <= 8; ++k) {
        ntt::domain<F> d(k);
        auto a = random_vector<F>(d.size(), 100 + k);
        for (auto c : {ntt::coset::none, ntt::coset::shifted}) {
            F shift = c == ntt::coset::shifted ? d.coset_shift() : F::one();
            auto expect = naive_dft(a, d.root(), shift);
            for (auto o : all_orders) {
                auto x = ntt::input_bit_reversed(o) ? permuted(a) : a;
                ntt::forward(d, std::span(x), o, c);
                EXPECT_EQ(x, ntt::output_bit_reversed(o) ? permuted(expect) : expect)
                    << "forward k=" << k << " order=" << int(o) << " coset=" << int(c);
                // the inverse in the mirrored ordering takes it back
                auto y = ntt::output_bit_reversed(o) ? permuted(expect) : expect;
                ntt::ordering back = ntt::output_bit_reversed(o)
                                         ? (ntt::input_bit_reversed(o) ? ntt::ordering::rr : ntt::ordering::rn)
                                         : (ntt::input_bit_reversed(o) ? ntt::ordering::nr : ntt::ordering::nn);
                ntt::inverse(d, std::span(y), back, c);
                EXPECT_EQ(y, ntt::input_bit_reversed(o) ? permuted(a) : a)
                    << "inverse k=" << k << " order=" << int(back) << " coset=" << int(c);
            }
        }
    }
}

TYPED_TEST(NttHost, MatchesNaiveDft1024) {
    using F = TypeParam;
    ntt::domain<F> d(10);
    auto a = random_vector<F>(d.size(), 7);
    auto x = a;
    ntt::forward(d, std::span(x), ntt::ordering::nn);
    EXPECT_EQ(x, naive_dft(a, d.root(), F::one()));
    // inverse via the naive DFT with w^-1, scaled by 1/n
    auto y = x;
    ntt::inverse(d, std::span(y), ntt::ordering::nn);
    auto z = naive_dft(x, d.root_inverse(), F::one());
    for (auto& e : z) e *= d.size_inverse();
    EXPECT_EQ(y, z);
    EXPECT_EQ(y, a);
}

TYPED_TEST(NttHost, CosetEvaluationEqualsDirectEvaluation) {
    using F = TypeParam;
    for (size_t k : {1, 6, 9}) {
        // also a caller-chosen shift (snarkjs's odd coset)
        for (auto d : {ntt::domain<F>(k), ntt::domain<F>::snarkjs_odd_coset(k)}) {
            auto a = random_vector<F>(d.size(), 31 + k);
            auto x = a;
            ntt::forward(d, std::span(x), ntt::ordering::nn, ntt::coset::shifted);
            for (size_t i = 0; i < d.size(); ++i) ASSERT_EQ(x[i], horner(a, d.coset_element(i))) << "k=" << k;
        }
    }
}

TYPED_TEST(NttHost, ToCosetMovesValuesOnHToTheCoset) {
    using F = TypeParam;
    for (size_t k = 0; k <= 9; ++k) {
        for (auto d : {ntt::domain<F>(k), ntt::domain<F>::snarkjs_odd_coset(k)}) {
            // two polynomials in one span: values on H in, values on g·H out (Horner at each point)
            auto p = random_vector<F>(d.size(), 71 + k), q = random_vector<F>(d.size(), 171 + k);
            auto x = naive_dft(p, d.root(), F::one());
            const auto xq = naive_dft(q, d.root(), F::one());
            x.insert(x.end(), xq.begin(), xq.end());
            ntt::to_coset(d, std::span(x));
            for (size_t i = 0; i < d.size(); ++i) {
                ASSERT_EQ(x[i], horner(p, d.coset_element(i))) << "k=" << k << " i=" << i;
                ASSERT_EQ(x[d.size() + i], horner(q, d.coset_element(i))) << "k=" << k << " i=" << i;
            }
        }
    }
    ntt::domain<F> d(4);
    std::vector<F> bad(24);
    EXPECT_THROW(ntt::to_coset(d, std::span(bad)), cuzk::invalid_argument);
}

TYPED_TEST(NttHost, PolynomialProductEqualsSchoolbook) {
    using F = TypeParam;
    const size_t deg = 100;  // two polynomials of 100 coefficients: product has 199
    auto a = random_vector<F>(deg, 1), b = random_vector<F>(deg, 2);
    std::vector<F> school(2 * deg - 1, F::zero());
    for (size_t i = 0; i < deg; ++i)
        for (size_t j = 0; j < deg; ++j) school[i + j] += a[i] * b[j];
    ntt::domain<F> d(8);
    std::vector<F> pa(d.size(), F::zero()), pb(d.size(), F::zero());
    std::copy(a.begin(), a.end(), pa.begin());
    std::copy(b.begin(), b.end(), pb.begin());
    ntt::forward(d, std::span(pa), ntt::ordering::nr);
    ntt::forward(d, std::span(pb), ntt::ordering::nr);
    for (size_t i = 0; i < d.size(); ++i) pa[i] *= pb[i];
    ntt::inverse(d, std::span(pa), ntt::ordering::rn);
    for (size_t i = 0; i < d.size(); ++i) EXPECT_EQ(pa[i], i < school.size() ? school[i] : F::zero()) << i;
}

TYPED_TEST(NttHost, BatchEqualsOneByOne) {
    using F = TypeParam;
    ntt::domain<F> d(7);
    const size_t batch = 3;
    auto a = random_vector<F>(batch * d.size(), 5);
    for (auto o : all_orders)
        for (auto c : {ntt::coset::none, ntt::coset::shifted}) {
            auto x = a;
            ntt::forward(d, std::span(x), o, c);
            for (size_t p = 0; p < batch; ++p) {
                std::vector<F> one(a.begin() + p * d.size(), a.begin() + (p + 1) * d.size());
                ntt::forward(d, std::span(one), o, c);
                EXPECT_TRUE(std::equal(one.begin(), one.end(), x.begin() + p * d.size()));
            }
            ntt::inverse(d, std::span(x),
                         o == ntt::ordering::nr   ? ntt::ordering::rn
                         : o == ntt::ordering::rn ? ntt::ordering::nr
                                                  : o,
                         c);
            EXPECT_EQ(x, a);
        }
}

TYPED_TEST(NttHost, ConstantAndMonomial) {
    using F = TypeParam;
    ntt::domain<F> d(12);
    // constant c -> c everywhere; x -> w^i (natural order)
    std::vector<F> v(d.size(), F::zero());
    v[0] = F::from_u64(42);
    ntt::forward(d, std::span(v));
    for (auto& e : v) ASSERT_EQ(e, F::from_u64(42));
    std::fill(v.begin(), v.end(), F::zero());
    v[1] = F::one();
    ntt::forward(d, std::span(v));
    F w = F::one();
    for (size_t i = 0; i < d.size(); ++i, w *= d.root()) ASSERT_EQ(v[i], w) << i;
}

// Round trips in the prover's cheap pairing up to 2^20 (a few hundred ms on 2 cores).
TYPED_TEST(NttHost, RoundTripLarge) {
    using F = TypeParam;
    for (size_t k : {14, 20}) {
        ntt::domain<F> d(k);
        auto a = random_vector<F>(d.size(), k);
        auto x = a;
        ntt::forward(d, std::span(x), ntt::ordering::nr, ntt::coset::shifted);
        ntt::inverse(d, std::span(x), ntt::ordering::rn, ntt::coset::shifted);
        EXPECT_EQ(x, a) << "k=" << k;
        if (k == 20) {
            // spot-check one evaluation of the 2^20 transform with Horner
            ntt::forward(d, std::span(x), ntt::ordering::nn);
            EXPECT_EQ(x[12345], horner(a, d.element(12345)));
        }
    }
}

// 2^22 only when asked (the device-machine run sets CUZK_NTT_LARGE=1): seconds on 2 cores.
TYPED_TEST(NttHost, RoundTrip2to22) {
    using F = TypeParam;
    if (std::getenv("CUZK_NTT_LARGE") == nullptr) GTEST_SKIP() << "set CUZK_NTT_LARGE=1 to run 2^22";
    ntt::domain<F> d(22);
    auto a = random_vector<F>(d.size(), 22);
    auto x = a;
    ntt::forward(d, std::span(x), ntt::ordering::nn);
    ntt::inverse(d, std::span(x), ntt::ordering::nn);
    EXPECT_EQ(x, a);
}

}  // namespace
