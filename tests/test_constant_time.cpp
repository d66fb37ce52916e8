// SPDX-License-Identifier: MIT OR Apache-2.0
// Constant-time checks in the ctgrind style (bitcoin-core/secp256k1 src/ctime_tests.c): the
// secret inputs are marked undefined with valgrind's client requests, so memcheck reports every
// conditional jump and every memory address that depends on them. Covered: every path documented
// as constant time (docs/CURVES.md, ec/scalar_mul.hpp, field/mont_field.hpp):
//   - mul(P, k), with k and P both secret (the randomisers, and the secret point B_g1 that
//     assemble_proof multiplies by r), for BLS12-381 G1/G2 and BN254 G1/G2;
//   - detail::add_ct over every exceptional case (identity either side, P + P, P + (-P));
//   - ct_select with a secret condition;
//   - the field arithmetic under them (+, -, *, square, dbl, negation, to_canonical) and
//     mont_field::inverse ("constant time in the value"), for Fr, Fq and Fq2 of both curves;
//   - the host Montgomery squaring and multiplication on both code paths (portable C++ and
//     x86 ADX asm), called directly (ConstantTimeHostArith);
//   - the randomiser arithmetic of groth16::assemble_proof (r s, [r] delta, [s] delta in G1 and
//     G2, [s] A, [r] B_g1, [r s] delta), with r, s secret (ConstantTimeAssemble);
//   - assemble_proof itself, r and s secret from the generator on (ConstantTimeProof): what it
//     may reveal (a rejected candidate, a zero r or s redrawn, the finished proof) goes through
//     core/declassify.hpp, which this target turns on with CUZK_CT_CHECK.
// Each case also checks its result against variable-time code on the same public inputs, so the
// plain run means something too (the client requests do nothing outside valgrind).
//
// ctest runs this executable several ways (tests/CMakeLists.txt, tests/ct_valgrind.cmake):
//   test_constant_time           plain, as every gtest executable (results only)
//   ct_valgrind                  under valgrind memcheck, all but ConstantTimeLeaks.*: must
//                                report 0 errors
//   ct_valgrind_detects_branch   ConstantTimeLeaks.SecretBranch: memcheck MUST report a jump,
//   ct_valgrind_detects_index    ConstantTimeLeaks.SecretIndex: an address,
//   ct_valgrind_detects_vartime  ConstantTimeLeaks.VartimeMulIsReported: a jump (mul_vartime),
//                                so a valgrind that silently checks nothing fails the suite.
// The valgrind tests are SKIPPED where valgrind or valgrind/memcheck.h is missing.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define CT_HAVE_VALGRIND 1
#else
#define CT_HAVE_VALGRIND 0
#endif

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"
#include "cuzk/ec/ct_select.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/groth16/curve.hpp"
#include "cuzk/groth16/prover.hpp"
#include "test_ec_util.hpp"

namespace {

using namespace cuzk;

/// Marks x secret: memcheck treats its bytes as undefined until declassified.
template <class T>
void secret(T& x) {
#if CT_HAVE_VALGRIND
    (void)VALGRIND_MAKE_MEM_UNDEFINED(&x, sizeof x);
#else
    (void)x;
#endif
}
/// Marks x public (a result that is, or that the test is about to compare).
template <class T>
void reveal(T& x) {
#if CT_HAVE_VALGRIND
    (void)VALGRIND_MAKE_MEM_DEFINED(&x, sizeof x);
#else
    (void)x;
#endif
}
/// A copy of x that memcheck sees as secret.
template <class T>
T secret_copy(const T& x) {
    T y = x;
    secret(y);
    return y;
}

bool under_valgrind() {
#if CT_HAVE_VALGRIND
    return RUNNING_ON_VALGRIND != 0;
#else
    return false;
#endif
}

/// Scalars the multiplications are tried with: random ones and the edges of the window walk
/// (0, 1, r - 1, a single top-window digit, all-ones windows).
template <class Fr>
std::vector<Fr> sample_scalars(std::mt19937_64& rng, size_t random_count) {
    std::vector<Fr> k = {Fr::zero(), Fr::one(), -Fr::one(), Fr::from_u64(15), Fr::from_u64(16)};
    Fr top = Fr::one();
    for (size_t i = 0; i + 1 < Fr::modulus_bits; ++i) top = top.dbl();  // 2^(bits - 1)
    k.push_back(top);
    for (size_t i = 0; i < random_count; ++i) k.push_back(Fr::random(rng));
    return k;
}

template <class G>
class ConstantTimeGroup : public ::testing::Test {};
using groups = ::testing::Types<bls12_381::g1, bls12_381::g2, bn254::g1, bn254::g2>;
TYPED_TEST_SUITE(ConstantTimeGroup, groups);

// mul(P, k) with k and P secret: no report, and the same point as wNAF on the public copies.
TYPED_TEST(ConstantTimeGroup, mul_secret_scalar_and_point) {
    using G = TypeParam;
    using Fr = typename G::scalar;
    std::mt19937_64 rng(0xc7 + sizeof(typename G::field));
    const auto scalars = sample_scalars<Fr>(rng, under_valgrind() ? 2 : 8);
    const std::vector<affine<G>> points = {ec_test::random_subgroup_point<G>(rng), affine<G>::generator(),
                                           affine<G>::identity()};
    for (const auto& pa : points) {
        const jacobian<G> p = ec_test::rescaled_jacobian(pa, rng);  // Z != 1, as in the prover
        for (const Fr& k : scalars) {
            const jacobian<G> expect = mul_vartime(p, k);
            jacobian<G> got = mul(secret_copy(p), secret_copy(k));
            reveal(got);
            EXPECT_TRUE(got == expect) << G::name;
        }
    }
}

// add_ct on secret operands, every exceptional case included.
TYPED_TEST(ConstantTimeGroup, add_ct_every_case) {
    using G = TypeParam;
    std::mt19937_64 rng(0xadd + sizeof(typename G::field));
    const jacobian<G> p = ec_test::rescaled_jacobian(ec_test::random_curve_point<G>(rng), rng);
    const jacobian<G> q = ec_test::rescaled_jacobian(ec_test::random_curve_point<G>(rng), rng);
    const jacobian<G> p_again = ec_test::rescaled_jacobian(to_affine(p), rng);  // same point, other Z
    const jacobian<G> o = jacobian<G>::identity();
    const std::pair<jacobian<G>, jacobian<G>> cases[] = {{p, q}, {p, p_again}, {p, -p_again}, {p, o}, {o, q}, {o, o}};
    for (const auto& [a, b] : cases) {
        const jacobian<G> expect = a + b;
        jacobian<G> got = detail::add_ct(secret_copy(a), secret_copy(b));
        reveal(got);
        EXPECT_TRUE(got == expect) << G::name;
    }
}

// ct_select with a secret condition and secret operands.
TYPED_TEST(ConstantTimeGroup, ct_select_secret_condition) {
    using G = TypeParam;
    std::mt19937_64 rng(0x5e1);
    const jacobian<G> a = jacobian<G>::from_affine(ec_test::random_curve_point<G>(rng));
    const jacobian<G> b = jacobian<G>::from_affine(ec_test::random_curve_point<G>(rng));
    for (bool take_b : {false, true}) {
        jacobian<G> got = ct_select(secret_copy(a), secret_copy(b), secret_copy(take_b));
        reveal(got);
        const jacobian<G>& want = take_b ? b : a;
        EXPECT_EQ(0, std::memcmp(&got, &want, sizeof got));
    }
}

template <class F>
class ConstantTimeField : public ::testing::Test {};
using fields = ::testing::Types<bls12_381::fr, bls12_381::fp, bls12_381::fp2, bn254::fr, bn254::fq, bn254::fp2>;
TYPED_TEST_SUITE(ConstantTimeField, fields);

// The field operations under the point formulas, and inverse ("constant time in the value").
TYPED_TEST(ConstantTimeField, arithmetic_on_secrets) {
    using F = TypeParam;
    std::mt19937_64 rng(0xf1e1d);
    for (int round = 0; round < 4; ++round) {
        const F a = round == 0 ? F::zero() : F::random(rng);
        const F b = round == 1 ? a : F::random(rng);
        const F sa = secret_copy(a), sb = secret_copy(b);
        F results[] = {sa + sb, sa - sb, sa * sb, sa.square(), sa.dbl(), -sa, sa.inverse()};
        const F expect[] = {a + b, a - b, a * b, a.square(), a.dbl(), -a, a.inverse()};
        for (size_t i = 0; i < std::size(results); ++i) {
            reveal(results[i]);
            EXPECT_TRUE(results[i] == expect[i]) << "operation " << i << ", round " << round;
        }
        if constexpr (requires { a.to_canonical(); }) {
            auto c = sa.to_canonical();
            reveal(c);
            EXPECT_TRUE(c == a.to_canonical());
        }
    }
}

template <class F>
class ConstantTimeHostArith : public ::testing::Test {};
using base_fields = ::testing::Types<bls12_381::fr, bls12_381::fp, bn254::fr, bn254::fq>;
TYPED_TEST_SUITE(ConstantTimeHostArith, base_fields);

// The host Montgomery products on each code path, called directly with a secret operand: the
// squaring and multiplication of the portable C++ (what builds without ADX run) and the
// dispatching mont_sqr / mont_mul (the x86 ADX asm where the compiler targets it). Edge inputs
// 0, 1 and p - 1 as well as random ones (their final subtraction goes both ways).
TYPED_TEST(ConstantTimeHostArith, squaring_and_multiplication_paths) {
    using F = TypeParam;
    constexpr uint64_t inv = F::params::mont_inv64;
    std::mt19937_64 rng(0x5b7);
    const F inputs[] = {F::zero(), F::one(), -F::one(), F::random(rng), F::random(rng)};
    for (const F& a : inputs) {
        const F b = F::random(rng);
        const auto sa = secret_copy(a.mont), sb = secret_copy(b.mont);
        typename F::integer got[4] = {};
        host_arith::mont_sqr_portable(got[0], sa, F::modulus, inv);
        host_arith::mont_sqr(got[1], sa, F::modulus, inv);
        host_arith::mont_mul_portable(got[2], sa, sb, F::modulus, inv);
        host_arith::mont_mul(got[3], sa, sb, F::modulus, inv);
        for (auto& g : got) reveal(g);
        const F sq = a * a, prod = a * b;
        EXPECT_TRUE(got[0] == sq.mont && got[1] == sq.mont) << F::config::name;
        EXPECT_TRUE(got[2] == prod.mont && got[3] == prod.mont) << F::config::name;
    }
}

template <class C>
class ConstantTimeAssemble : public ::testing::Test {};
using curves = ::testing::Types<bls12_381::curve, bn254::curve>;
TYPED_TEST_SUITE(ConstantTimeAssemble, curves);

// The secret part of assemble_proof (groth16/prover.hpp): with r, s and the secret point
// B_g1 = sum_b1 + beta + [s] delta marked undefined, the products r s, [r] delta, [s] delta
// (G1 and G2), [s] A, [r] B_g1 and [r s] delta, each combined with add_ct. assemble_proof itself
// adds these to public points with jacobian::operator+, which branches on its operands (see
// docs/RELIABILITY.md, "Constant time"): that is checked here with the same formulas, not the
// same call, until assemble_proof uses add_ct.
TYPED_TEST(ConstantTimeAssemble, randomiser_arithmetic) {
    using C = TypeParam;
    using Fr = typename C::fr;
    using G1 = typename C::g1;
    using G2 = typename C::g2;
    std::mt19937_64 rng(0xa55e);
    const jacobian<G1> delta1 = jacobian<G1>::from_affine(ec_test::random_subgroup_point<G1>(rng));
    const jacobian<G2> delta2 = jacobian<G2>::from_affine(ec_test::random_subgroup_point<G2>(rng));
    const jacobian<G1> sum_b1 = jacobian<G1>::from_affine(ec_test::random_subgroup_point<G1>(rng));
    const jacobian<G1> a_pub = jacobian<G1>::from_affine(ec_test::random_subgroup_point<G1>(rng));
    const Fr r = Fr::random(rng), s = Fr::random(rng);

    const Fr sr = secret_copy(r), ss = secret_copy(s);
    const Fr srs = sr * ss;
    jacobian<G1> r_delta = mul(delta1, sr);
    jacobian<G1> s_delta = mul(delta1, ss);
    jacobian<G2> s_delta2 = mul(delta2, ss);
    jacobian<G1> b1 = detail::add_ct(sum_b1, s_delta);  // secret: B_g1 is not in the proof
    jacobian<G1> c_part = detail::add_ct(detail::add_ct(mul(a_pub, ss), mul(b1, sr)), -mul(delta1, srs));
    reveal(r_delta);
    reveal(s_delta2);
    reveal(b1);
    reveal(c_part);

    const Fr rs = r * s;
    EXPECT_TRUE(r_delta == mul_vartime(delta1, r));
    EXPECT_TRUE(s_delta2 == mul_vartime(delta2, s));
    EXPECT_TRUE(b1 == sum_b1 + mul_vartime(delta1, s));
    EXPECT_TRUE(c_part == mul_vartime(a_pub, s) + mul_vartime(b1, r) - mul_vartime(delta1, rs));
}

/// A UniformRandomBitGenerator whose words memcheck sees as secret: r and s inside
/// assemble_proof are then secret from the moment they are sampled.
struct secret_rng {
    using result_type = uint64_t;
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return ~result_type(0); }
    std::mt19937_64 words;
    result_type operator()() {
        result_type v = words();
        secret(v);
        return v;
    }
};

template <class C>
class ConstantTimeProof : public ::testing::Test {};
TYPED_TEST_SUITE(ConstantTimeProof, curves);

// assemble_proof itself with r, s secret from the generator on: the rejection sampling of r and
// s, the additions of the secret terms (add_ct) and the normalisation of the public A, B, C
// (after declassify). Without valgrind it checks that the secret generator changes nothing.
TYPED_TEST(ConstantTimeProof, assemble_proof_end_to_end) {
    using C = TypeParam;
    using G1 = typename C::g1;
    using G2 = typename C::g2;
    std::mt19937_64 rng(0xe2e);
    groth16::proving_key<C> pk{};
    pk.delta_g1 = ec_test::random_subgroup_point<G1>(rng);
    pk.beta_g1 = ec_test::random_subgroup_point<G1>(rng);
    pk.vk.alpha_g1 = ec_test::random_subgroup_point<G1>(rng);
    pk.vk.beta_g2 = ec_test::random_subgroup_point<G2>(rng);
    pk.vk.delta_g2 = ec_test::random_subgroup_point<G2>(rng);
    jacobian<G1> sums[4];
    for (auto& p : sums) p = jacobian<G1>::from_affine(ec_test::random_subgroup_point<G1>(rng));
    const jacobian<G2> sum_b2 = jacobian<G2>::from_affine(ec_test::random_subgroup_point<G2>(rng));

    secret_rng secret_words{std::mt19937_64(42)};
    auto got = groth16::assemble_proof<C>(pk, sums[0], sums[1], sum_b2, sums[2], sums[3], secret_words);
    reveal(got);
    std::mt19937_64 public_words(42);
    const auto want = groth16::assemble_proof<C>(pk, sums[0], sums[1], sum_b2, sums[2], sums[3], public_words);
    EXPECT_TRUE(got.a == want.a && got.b == want.b && got.c == want.c);
}

// ---- deliberate leaks: valgrind must report these (ct_valgrind_detects_*) ---------------------

/// mul with the window digit used in a branch (skipping the addition for zero digits), the
/// classic timing leak.
template <class G>
jacobian<G> mul_branch_leak(const jacobian<G>& p, const typename G::scalar& k) {
    constexpr size_t window = 4, windows = (G::scalar::modulus_bits + window - 1) / window;
    jacobian<G> table[1 << window];
    table[0] = jacobian<G>::identity();
    table[1] = p;
    for (size_t i = 2; i < (1 << window); ++i) table[i] = detail::add_ct(table[i - 1], p);
    const auto e = k.to_canonical();
    jacobian<G> acc = jacobian<G>::identity();
    for (size_t w = windows; w-- > 0;) {
        for (size_t i = 0; i < window; ++i) acc = acc.dbl();
        const uint32_t digit = e.bits_at(window * w, window);
        if (digit == 0) continue;  // LEAK: a branch on a secret digit
        jacobian<G> t = table[0];
        for (uint32_t i = 1; i < (1u << window); ++i) t = ct_select(t, table[i], i == digit);
        acc = detail::add_ct(acc, t);
    }
    return acc;
}

/// mul with the table read at the secret digit (a cache-timing leak), otherwise branch-free.
template <class G>
jacobian<G> mul_index_leak(const jacobian<G>& p, const typename G::scalar& k) {
    constexpr size_t window = 4, windows = (G::scalar::modulus_bits + window - 1) / window;
    jacobian<G> table[1 << window];
    table[0] = jacobian<G>::identity();
    table[1] = p;
    for (size_t i = 2; i < (1 << window); ++i) table[i] = detail::add_ct(table[i - 1], p);
    const auto e = k.to_canonical();
    jacobian<G> acc = jacobian<G>::identity();
    for (size_t w = windows; w-- > 0;) {
        for (size_t i = 0; i < window; ++i) acc = acc.dbl();
        const uint32_t digit = e.bits_at(window * w, window);
        acc = detail::add_ct(acc, table[digit]);  // LEAK: a memory index from a secret digit
    }
    return acc;
}

TEST(ConstantTimeLeaks, SecretBranch) {
    using G = bn254::g1;
    std::mt19937_64 rng(7);
    const jacobian<G> p = jacobian<G>::generator();
    const auto k = G::scalar::random(rng);
    jacobian<G> got = mul_branch_leak(p, secret_copy(k));
    reveal(got);
    EXPECT_TRUE(got == mul_vartime(p, k));
}

TEST(ConstantTimeLeaks, SecretIndex) {
    using G = bn254::g1;
    std::mt19937_64 rng(8);
    const jacobian<G> p = jacobian<G>::generator();
    const auto k = G::scalar::random(rng);
    jacobian<G> got = mul_index_leak(p, secret_copy(k));
    reveal(got);
    EXPECT_TRUE(got == mul_vartime(p, k));
}

// The variable-time multiplication, on a secret scalar: must be reported too (its digits
// branch), which shows that the _vartime name is earned.
TEST(ConstantTimeLeaks, VartimeMulIsReported) {
    using G = bn254::g1;
    std::mt19937_64 rng(9);
    const jacobian<G> p = jacobian<G>::generator();
    const auto k = G::scalar::random(rng);
    jacobian<G> got = mul_vartime(p, secret_copy(k));
    reveal(got);
    EXPECT_TRUE(got == mul(p, k));
}

}  // namespace
