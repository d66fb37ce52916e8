// SPDX-License-Identifier: MIT OR Apache-2.0
// R1CS, the circuit builder and the synthetic circuit generator.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"
#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/synthetic_circuit.hpp"

namespace {

using namespace cuzk::groth16;

template <class F>
class R1csTest : public ::testing::Test {};
using ScalarFields = ::testing::Types<cuzk::bls12_381::fr, cuzk::bn254::fr>;
TYPED_TEST_SUITE(R1csTest, ScalarFields);

TYPED_TEST(R1csTest, BuilderRenumbersAndSatisfies) {
    using F = TypeParam;
    circuit_builder<F> cb;
    auto x = cb.add_witness(F::from_u64(3));
    auto y = cb.add_public(F::from_u64(35));  // x^3 + x + 5 = 35 (the classic example)
    auto x2 = cb.add_witness(F::from_u64(9));
    auto x3 = cb.add_witness(F::from_u64(27));
    cb.enforce(x, x, x2);
    cb.enforce(x2, x, x3);
    cb.enforce(linear_combination<F>(x3) + x + F::from_u64(5) * circuit_builder<F>::one(), cb.one(), y);
    auto c = std::move(cb).build();
    EXPECT_EQ(c.system.num_public, 1u);
    EXPECT_EQ(c.system.num_variables, 5u);
    EXPECT_EQ(c.assignment[1], F::from_u64(35));  // publics come right after the one
    EXPECT_EQ(c.public_inputs().size(), 1u);
    c.system.validate();
    EXPECT_FALSE(c.system.first_unsatisfied(c.assignment).has_value());
    EXPECT_EQ(c.system.domain_size(), 8u);  // 3 constraints + 2 public rows -> 8

    // Change x^3: the second constraint breaks and evaluate() says so.
    c.assignment[4] = F::from_u64(28);
    EXPECT_EQ(c.system.first_unsatisfied(c.assignment), std::optional<size_t>(1));
    size_t n = c.system.domain_size();
    std::vector<F> a(n), b(n), cc(n);
    EXPECT_EQ(c.system.evaluate(c.assignment, a, b, cc), std::optional<size_t>(1));
}

// dot_row adds the coefficients +1, -1 and 2 instead of multiplying: every kind, mixed in one row
// and alone, against the sum of the products of the row's values and z.
TYPED_TEST(R1csTest, DotRowMatchesTheProductsForEveryCoefficientKind) {
    using F = TypeParam;
    std::mt19937_64 rng(7);
    const F one = F::one();
    const std::vector<F> coefficients = {one, -one, one + one, F::zero(), one + one + one, -(one + one),
                                         F::random(rng), F::from_u64(1ull << 40)};
    std::vector<F> z(64);
    for (auto& x : z) x = F::random(rng);
    sparse_matrix<F> m;
    for (const F& c : coefficients) {  // each kind alone, on two variables
        const term<F> row[] = {{3, c}, {17, c}};
        m.append_row(row);
    }
    for (int r = 0; r < 50; ++r) {  // mixed rows of 0 to 11 terms
        std::vector<term<F>> row(size_t(rng() % 12));
        for (auto& t : row) t = {uint32_t(rng() % z.size()), coefficients[rng() % coefficients.size()]};
        m.append_row(row);
    }
    m.append_row({});
    for (size_t i = 0; i < m.rows(); ++i) {
        F want = F::zero();
        for (size_t k = 0; k < m.columns(i).size(); ++k) want += m.values(i)[k] * z[m.columns(i)[k]];
        EXPECT_EQ(m.dot_row(i, z), want) << "row " << i;
    }
}

TYPED_TEST(R1csTest, AssignmentShapeErrors) {
    using F = TypeParam;
    auto c = synthetic_circuit<F>({.log_domain = 5, .num_public = 2, .bit_share = 0.5, .seed = 3});
    auto z = c.assignment;
    z.pop_back();
    EXPECT_THROW(c.system.first_unsatisfied(z), cuzk::invalid_argument);
    z = c.assignment;
    z[0] = F::from_u64(2);
    EXPECT_THROW(c.system.first_unsatisfied(z), cuzk::invalid_argument);
    size_t n = c.system.domain_size();
    std::vector<F> a(n - 1), b(n), cc(n);
    EXPECT_THROW(c.system.evaluate(c.assignment, a, b, cc), cuzk::invalid_argument);
}

TYPED_TEST(R1csTest, SyntheticCircuitsFillTheDomainAndSatisfy) {
    using F = TypeParam;
    for (double share : {0.0, 0.5, 0.95}) {
        for (unsigned k : {3u, 8u, 12u}) {
            auto c = synthetic_circuit<F>({.log_domain = k, .num_public = 3, .bit_share = share, .seed = k});
            c.system.validate();
            EXPECT_EQ(c.system.domain_size(), size_t(1) << k);
            EXPECT_EQ(c.system.domain_rows(), size_t(1) << k);
            size_t n = c.system.domain_size();
            std::vector<F> a(n), b(n), cc(n);
            EXPECT_FALSE(c.system.evaluate(c.assignment, a, b, cc).has_value());
            for (size_t j = 0; j < n; ++j) ASSERT_EQ(a[j] * b[j], cc[j]) << j;
            // The public-input rows carry z_k in A.
            size_t m = c.system.num_constraints();
            for (size_t p = 0; p <= c.system.num_public; ++p) EXPECT_EQ(a[m + p], c.assignment[p]);
            // The witness has the requested share of bits (within sampling noise).
            size_t bit_values = 0;
            for (size_t i = 1 + c.system.num_public; i < c.assignment.size(); ++i)
                bit_values += c.assignment[i].is_zero() || c.assignment[i].is_one();
            double observed = double(bit_values) / double(c.system.num_aux());
            if (k == 12) {
                EXPECT_NEAR(observed, share, 0.05) << "share " << share;
            }
        }
    }
}

TYPED_TEST(R1csTest, SyntheticRejectsBadOptions) {
    using F = TypeParam;
    EXPECT_THROW(synthetic_circuit<F>({.log_domain = 2}), cuzk::invalid_argument);
    EXPECT_THROW(synthetic_circuit<F>({.log_domain = 8, .bit_share = 1.5}), cuzk::invalid_argument);
    EXPECT_THROW(synthetic_circuit<F>({.log_domain = 3, .num_public = 6}), cuzk::invalid_argument);
}

}  // namespace
