// SPDX-License-Identifier: MIT OR Apache-2.0
// io::abc_rows and io::evaluate_abc (io/zkey_groth16.hpp) against the definition written out
// here: the plain loop over the coefficient list, abc[row] += value * w[signal], then c = a * b.
// The keys are random lists with repeated (row, signal) entries (some cancelling to zero), rows
// with no entries, coefficients 0, 1, -1 and random, in shuffled order; on a small domain (the
// serial paths) and one large enough for the parallel ones. Bad coefficients are errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "cuzk/core/error.hpp"
#include "cuzk/io/zkey_groth16.hpp"

using namespace cuzk;
using namespace cuzk::io;

namespace {

/// The oracle: the definition, one coefficient at a time in list order.
template <class Fr>
std::vector<Fr> naive_abc(const std::vector<zkey_coefficient<Fr>>& coeffs, size_t n, const std::vector<Fr>& w) {
    std::vector<Fr> abc(3 * n, Fr::zero());
    for (const auto& e : coeffs) {
        Fr& slot = abc[(e.matrix == zkey_matrix::a ? 0 : n) + e.constraint];
        slot = slot + e.value * w[e.signal];
    }
    for (size_t i = 0; i < n; ++i) abc[2 * n + i] = abc[i] * abc[n + i];
    return abc;
}

/// Each (matrix, row, signal) triple's coefficients added up.
template <class Fr>
std::map<std::tuple<uint32_t, uint32_t, uint32_t>, Fr> summed_entries(const std::vector<zkey_coefficient<Fr>>& coeffs) {
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, Fr> sums;
    for (const auto& e : coeffs) {
        auto [it, fresh] = sums.try_emplace({uint32_t(e.matrix), e.constraint, e.signal}, Fr::zero());
        it->second = it->second + e.value;
    }
    return sums;
}

/// Triples whose coefficients do not add up to zero: what abc_rows keeps.
template <class Fr>
size_t distinct_nonzero_entries(const std::vector<zkey_coefficient<Fr>>& coeffs) {
    const auto sums = summed_entries(coeffs);
    return size_t(std::count_if(sums.begin(), sums.end(), [](const auto& kv) { return !kv.second.is_zero(); }));
}

/// Of those, the ones whose summed coefficient is not 1, -1 or 2: what abc_rows keeps a value for.
template <class Fr>
size_t distinct_general_entries(const std::vector<zkey_coefficient<Fr>>& coeffs) {
    const auto sums = summed_entries(coeffs);
    const Fr one = Fr::one(), small[] = {Fr::zero(), one, -one, one + one};
    return size_t(std::count_if(sums.begin(), sums.end(), [&](const auto& kv) {
        return std::none_of(std::begin(small), std::end(small), [&](const Fr& v) { return kv.second == v; });
    }));
}

/// A random coefficient list on n rows over n_signals signals: about a quarter of the rows of
/// each matrix empty, the others with 1 to 6 entries drawn from a few signals (so repeats are
/// common); coefficients 0, 1, -1, 2 or random; plus, per 8 rows, an entry repeated with the
/// same value and a pair that cancels; then shuffled.
template <class Fr>
std::vector<zkey_coefficient<Fr>> random_coefficients(uint32_t n, uint32_t n_signals, std::mt19937_64& rng) {
    std::vector<zkey_coefficient<Fr>> out;
    auto pick = [&](uint64_t k) { return uint32_t(rng() % k); };
    auto value = [&]() -> Fr {
        switch (pick(5)) {
            case 0: return Fr::zero();
            case 1: return Fr::one();
            case 2: return -Fr::one();
            case 3: return Fr::from_u64(2);
            default: return Fr::random(rng);
        }
    };
    for (zkey_matrix m : {zkey_matrix::a, zkey_matrix::b})
        for (uint32_t row = 0; row < n; ++row) {
            if (pick(4) == 0) continue;  // no entries
            const uint32_t pool[3] = {pick(n_signals), pick(n_signals), pick(n_signals)};
            for (uint32_t k = 0, len = 1 + pick(6); k < len; ++k) out.push_back({m, row, pool[pick(3)], value()});
            if (row % 8 == 3) {
                const auto e = out.back();
                out.push_back(e);  // the same entry twice
                const Fr v = Fr::random(rng);
                out.push_back({m, row, pool[0], v});
                out.push_back({m, row, pool[0], -v});  // a pair that cancels
            }
        }
    std::shuffle(out.begin(), out.end(), rng);
    return out;
}

template <class Fr>
std::vector<Fr> random_witness(size_t n, std::mt19937_64& rng) {
    std::vector<Fr> w(n);
    w[0] = Fr::one();
    for (size_t i = 1; i < n; ++i) w[i] = Fr::random(rng);
    return w;
}

/// Runs f, expects cuzk::invalid_argument whose message contains `part`.
template <class F>
void expect_invalid(F&& f, const std::string& part) {
    try {
        f();
    } catch (const cuzk::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(part), std::string::npos)
            << "message: " << e.what() << "\nmissing: " << part;
        return;
    } catch (const std::exception& e) {
        ADD_FAILURE() << "expected invalid_argument, got: " << e.what();
        return;
    }
    ADD_FAILURE() << "expected invalid_argument (" << part << "), nothing thrown";
}

}  // namespace

template <class Curve>
class io_zkey_abc : public ::testing::Test {};
using curves = ::testing::Types<bn128, bls12381>;
TYPED_TEST_SUITE(io_zkey_abc, curves);

TYPED_TEST(io_zkey_abc, rows_give_exactly_the_plain_loops_a_b_c) {
    using fr = typename TypeParam::fr;
    std::mt19937_64 rng(2027);
    // 16 rows: the serial paths; 8192: the parallel row sorts (>= 8192 rows of A and B) and
    // evaluation (>= 4096 rows), several chunks each; 32768: also the parallel count and
    // placement (>= 65536 coefficients, abc_rows::parallel_build_min).
    for (uint32_t n : {16u, 8192u, 32768u}) {
        SCOPED_TRACE("domain " + std::to_string(n));
        const uint32_t n_signals = n / 2 + 3;
        const auto coeffs = random_coefficients<fr>(n, n_signals, rng);
        const abc_rows<fr> rows(coeffs, n, n_signals);
        EXPECT_EQ(rows.domain_size(), n);
        EXPECT_EQ(rows.entries(), distinct_nonzero_entries(coeffs));
        EXPECT_EQ(rows.general_entries(), distinct_general_entries(coeffs));  // 1, -1, 2 keep no value
        EXPECT_GT(rows.general_entries(), 0u);
        EXPECT_LT(rows.general_entries(), rows.entries());
        EXPECT_LT(rows.entries(), coeffs.size());        // the list has repeats and zeros to fold
        if (n == 32768u) {
            EXPECT_GE(coeffs.size(), abc_rows<fr>::parallel_build_min);
        }
        for (int witness = 0; witness < 2; ++witness) {  // one layout, many witnesses
            const auto w = random_witness<fr>(n_signals, rng);
            const auto want = naive_abc(coeffs, n, w);
            EXPECT_TRUE(rows.evaluate(w) == want) << "abc_rows::evaluate, witness " << witness;
            EXPECT_TRUE(evaluate_abc<TypeParam>(coeffs, n, w) == want) << "evaluate_abc, witness " << witness;
        }
        // A longer witness than the coefficients read is fine (evaluate_abc always allowed it).
        auto longer = random_witness<fr>(n_signals + 5, rng);
        EXPECT_TRUE(rows.evaluate(longer) == naive_abc(coeffs, n, longer));
    }
}

TYPED_TEST(io_zkey_abc, empty_lists_and_empty_layouts) {
    using fr = typename TypeParam::fr;
    const std::vector<zkey_coefficient<fr>> none;
    const std::vector<fr> w{fr::one()};
    const auto abc = abc_rows<fr>(none, 8, 1).evaluate(w);
    ASSERT_EQ(abc.size(), 24u);
    for (const fr& x : abc) EXPECT_TRUE(x.is_zero());
    EXPECT_TRUE(abc_rows<fr>().evaluate(w).empty());
    EXPECT_EQ(abc_rows<fr>().domain_size(), 0u);
}

TYPED_TEST(io_zkey_abc, bad_coefficients_are_errors) {
    using fr = typename TypeParam::fr;
    std::mt19937_64 rng(7);
    const uint32_t n = 16, n_signals = 10;
    auto coeffs = random_coefficients<fr>(n, n_signals, rng);
    const auto w = random_witness<fr>(n_signals, rng);

    auto bad_signal = coeffs;
    bad_signal[5].signal = n_signals;
    expect_invalid([&] { (void)abc_rows<fr>(bad_signal, n, n_signals); },
                   "coefficient signal 10 is beyond the witness (10 values)");
    expect_invalid([&] { (void)evaluate_abc<TypeParam>(bad_signal, n, w); },
                   "coefficient signal 10 is beyond the witness (10 values)");

    auto bad_row = coeffs;
    bad_row[9].constraint = n;
    expect_invalid([&] { (void)abc_rows<fr>(bad_row, n, n_signals); }, "coefficient row 16 is beyond the domain");
    expect_invalid([&] { (void)evaluate_abc<TypeParam>(bad_row, n, w); }, "coefficient row 16 is beyond the domain");

    // The first bad one in list order is the one reported.
    auto both = coeffs;
    both[2].constraint = n + 4;
    both[3].signal = n_signals + 7;
    expect_invalid([&] { (void)abc_rows<fr>(both, n, n_signals); }, "coefficient row 20 is beyond the domain");
    both[1].signal = n_signals + 1;
    expect_invalid([&] { (void)abc_rows<fr>(both, n, n_signals); }, "coefficient signal 11 is beyond the witness");

    // The same in a list long enough for the parallel checks: the first in list order, wherever
    // the threads found their bad ones.
    {
        const uint32_t big = 32768, big_signals = 1000;
        auto many = random_coefficients<fr>(big, big_signals, rng);
        ASSERT_GE(many.size(), abc_rows<fr>::parallel_build_min);
        const size_t m = many.size();
        many[m - 1].signal = big_signals + 2;
        many[m / 2 + 1].constraint = big + 3;
        many[m / 3].signal = big_signals + 5;
        expect_invalid([&] { (void)abc_rows<fr>(many, big, big_signals); }, "coefficient signal 1005 is beyond the witness");
        many[m / 3].signal = 0;
        expect_invalid([&] { (void)abc_rows<fr>(many, big, big_signals); }, "coefficient row 32771 is beyond the domain");
    }

    // A layout built for n_signals, evaluated with a witness too short for the largest signal
    // any coefficient reads (even one whose coefficient is 0, as evaluate_abc did).
    coeffs.push_back({zkey_matrix::b, 0, n_signals - 1, fr::zero()});
    const abc_rows<fr> rows(coeffs, n, n_signals);
    const std::vector<fr> short_w(w.begin(), w.end() - 1);
    expect_invalid([&] { (void)rows.evaluate(short_w); }, "coefficient signal 9 is beyond the witness (9 values)");
    expect_invalid([&] { (void)evaluate_abc<TypeParam>(coeffs, n, short_w); },
                   "coefficient signal 9 is beyond the witness (9 values)");
}
