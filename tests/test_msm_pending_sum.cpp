// SPDX-License-Identifier: MIT OR Apache-2.0
// msm::pending_sum (msm/pending_sum.cuh), the host half of every device MSM: the window sums an
// enqueued MSM leaves in page-locked memory, combined after the wait. Checked on the host
// against scalar multiplications by the windows' weights (ec/scalar_mul.hpp): Horner's rule for
// plain windows, the groups' offsets for a table of shifted bases, the overflow flag's error,
// and sums merged with += (a witness MSM: ones' sum plus its others' windows).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuzk/core/error.hpp"
#include "cuzk/msm/pending_sum.cuh"
#include "test_msm_util.hpp"

namespace {

using namespace cuzk;
using namespace msm_test;

template <class G>
class PendingSum : public ::testing::Test {};
using Groups = ::testing::Types<bls_g1, bn_g1, bls_g2, bn_g2>;
TYPED_TEST_SUITE(PendingSum, Groups);

template <class G>
std::vector<xyzz<G>> random_buckets(size_t n, std::mt19937_64& rng) {
    std::vector<xyzz<G>> v;
    for (size_t i = 0; i < n; ++i) v.push_back(to_xyzz(random_point<G>(rng)));
    return v;
}

/// [k] of a bucket's point, as an independent scalar multiplication.
template <class G>
jacobian<G> times(const xyzz<G>& b, uint64_t k) {
    return mul_vartime(to_jacobian(b), scalar_int<G>::from_u64(k));
}

TYPED_TEST(PendingSum, WindowsCombineByTheirWeights) {
    using G = TypeParam;
    std::mt19937_64 rng(7);
    for (unsigned c : {1u, 5u, 9u}) {
        const unsigned windows = 6;  // weights up to 2^45
        const auto sums = random_buckets<G>(windows, rng);
        const uint32_t overflow = 0;
        msm::pending_sum<G> p;
        p.add_windows({.windows = windows, .c = c, .fold_sets = windows, .fold_buckets = 0, .shifted_bases = false},
                      sums.data(), nullptr, &overflow);
        jacobian<G> want = jacobian<G>::identity();
        for (unsigned w = 0; w < windows; ++w) want = want + times(sums[w], uint64_t(1) << (c * w));
        EXPECT_TRUE(p.get() == want) << G::name << " c=" << c;
    }
}

TYPED_TEST(PendingSum, ShiftedBaseGroupsAddTheirOffsets) {
    using G = TypeParam;
    std::mt19937_64 rng(8);
    for (uint32_t per_group : {1u, 2u, 64u}) {
        const unsigned groups = 5;
        const auto sums = random_buckets<G>(groups, rng), totals = random_buckets<G>(groups, rng);
        const uint32_t overflow = 0;
        msm::pending_sum<G> p;
        p.add_windows({.windows = 3, .c = 10, .fold_sets = groups, .fold_buckets = per_group, .shifted_bases = true},
                      sums.data(), totals.data(), &overflow);
        // sum_b (b + 1) B_b over one bucket set of V groups of L buckets: each group's own
        // weighted sum, plus g L times its plain total.
        jacobian<G> want = jacobian<G>::identity();
        for (unsigned g = 0; g < groups; ++g) want = want + to_jacobian(sums[g]) + times(totals[g], uint64_t(g) * per_group);
        EXPECT_TRUE(p.get() == want) << G::name << " L=" << per_group;
    }
}

TYPED_TEST(PendingSum, AnOverflowedScalarIsAnError) {
    using G = TypeParam;
    std::mt19937_64 rng(9);
    const auto sums = random_buckets<G>(2, rng);
    const uint32_t overflow = 1;
    msm::pending_sum<G> p;
    p.add_windows({.windows = 2, .c = 4, .fold_sets = 2}, sums.data(), nullptr, &overflow);
    EXPECT_THROW((void)p.get(), invalid_argument);
}

TYPED_TEST(PendingSum, PartsMergeIntoOneSum) {
    using G = TypeParam;
    std::mt19937_64 rng(10);
    const auto sums = random_buckets<G>(3, rng), ones = random_buckets<G>(1, rng);
    const jacobian<G> ready = random_point<G>(rng);
    const uint32_t overflow = 0;
    msm::pending_sum<G> a(ready), b;
    b.add_point(&ones[0]);
    b.add_windows({.windows = 3, .c = 2, .fold_sets = 3}, sums.data(), nullptr, &overflow);
    a += b;
    const jacobian<G> want = ready + to_jacobian(ones[0]) + to_jacobian(sums[0]) + times(sums[1], 4) + times(sums[2], 16);
    EXPECT_TRUE(a.get() == want);
    EXPECT_TRUE(msm::pending_sum<G>().get() == jacobian<G>::identity());
}

}  // namespace
