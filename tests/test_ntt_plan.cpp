// The device NTT's multi-pass schedule (pass_plan.hpp), emulated on the host with the same
// index, twiddle and scaling functions the kernels use, and compared with the host NTT for
// every order, coset and size up to 2^12, including schedules with many small passes.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"
#include "cuzk/ntt/ntt_host.hpp"
#include "cuzk/ntt/pass_plan.hpp"

namespace {

using namespace cuzk;
using ntt::detail::pass_shape;
using ntt::detail::scaling;

template <class F>
class NttPlan : public ::testing::Test {};
using Fields = ::testing::Types<bls12_381::fr, bn254::fr>;
TYPED_TEST_SUITE(NttPlan, Fields);

/// ntt_device.cuh's run_device and ntt_pass_kernel, one tile at a time on the host.
template <class F>
void emulate(const ntt::domain<F>& d, std::vector<F>& data, bool inverse, ntt::ordering o, ntt::coset c,
             uint32_t max_lg_tile) {
    const uint32_t lg_n = uint32_t(d.log_size());
    const uint64_t n = d.size();
    if (n == 1) return;
    std::vector<F> pw(n / 2);  // the device twiddle table: w^e, e < n/2
    F p = F::one();
    for (auto& x : pw) x = p, p *= d.root();
    auto twiddle = [&](uint64_t e, bool inv) {
        if (inv) e = (n - e) & (n - 1);
        return e < n / 2 ? pw[e] : -pw[e - n / 2];
    };
    std::vector<F> g(n), gi(n);  // g^j and g^-j / n
    g[0] = F::one(), gi[0] = d.size_inverse();
    for (uint64_t j = 1; j < n; ++j) g[j] = g[j - 1] * d.coset_shift(), gi[j] = gi[j - 1] * d.coset_shift_inverse();
    auto factor = [&](const scaling& s, uint64_t pos) {
        if (s.kind == scaling::size_inverse) return d.size_inverse();
        uint64_t j = s.bit_reversed ? ntt::bit_reverse(pos, lg_n) : pos;
        return s.kind == scaling::coset_powers ? g[j] : gi[j];
    };
    const auto plan = ntt::detail::make_pass_plan(lg_n, max_lg_tile);
    const auto sch = ntt::detail::make_schedule(inverse, o, c);
    uint32_t covered = 0;
    for (uint32_t i = 0; i < plan.count; ++i) covered += plan.pass[i].lg_k;
    ASSERT_EQ(covered, lg_n);
    for (uint32_t i = 0; i < plan.count; ++i) {
        const pass_shape sh = plan.pass[sch.dit ? plan.count - 1 - i : i];
        ASSERT_LE(sh.lg_tile(), max_lg_tile);
        ASSERT_LE(sh.lg_c, sh.lg_l);
        const scaling pre = i == 0 ? sch.pre : scaling{};
        const scaling post = i + 1 == plan.count ? sch.post : scaling{};
        const uint32_t T = sh.tile_size(), K = uint32_t(1) << sh.lg_k;
        std::vector<F> wk(K / 2), tile(T);
        for (uint32_t x = 0; x < K / 2; ++x) wk[x] = twiddle(uint64_t(x) << (lg_n - sh.lg_k), sch.inverse_root);
        for (uint64_t t = 0; t < sh.tiles(); ++t) {
            for (uint32_t s = 0; s < T; ++s) {
                uint64_t pos = sh.position(t, s);
                F v = data[pos];
                if (pre.kind != scaling::none) v *= factor(pre, pos);
                if (sch.dit && sh.lg_l != 0) v *= twiddle(sh.twiddle_exponent(pos), sch.inverse_root);
                tile[s] = v;
            }
            for (uint32_t st = 0; st < sh.lg_k; ++st) {
                const uint32_t lm = sch.dit ? st : sh.lg_k - 1 - st;
                for (uint32_t q = 0; q < T / 2; ++q) {
                    uint32_t i0, i1, x;
                    sh.butterfly(lm, q, i0, i1, x);
                    ASSERT_LT(x, std::max(K / 2, 1u));
                    F u = tile[i0], v = tile[i1];
                    if (sch.dit) {
                        if (lm != 0) v *= wk[x];
                        tile[i0] = u + v, tile[i1] = u - v;
                    } else {
                        F dd = u - v;
                        if (lm != 0) dd *= wk[x];
                        tile[i0] = u + v, tile[i1] = dd;
                    }
                }
            }
            for (uint32_t s = 0; s < T; ++s) {
                uint64_t pos = sh.position(t, s);
                F v = tile[s];
                if (!sch.dit && sh.lg_l != 0) v *= twiddle(sh.twiddle_exponent(pos), sch.inverse_root);
                if (post.kind != scaling::none) v *= factor(post, pos);
                data[pos] = v;
            }
        }
    }
    if (sch.bit_reverse_after) ntt::bit_reverse_permute(std::span(data), lg_n);
}

TEST(NttPlanShape, DeviceSplits) {
    // the device's splits (max tile 2^10): passes and their radices
    auto p24 = ntt::detail::make_pass_plan(24, 10);
    ASSERT_EQ(p24.count, 3u);
    EXPECT_EQ(p24.pass[0].lg_k + p24.pass[1].lg_k + p24.pass[2].lg_k, 24u);
    auto p28 = ntt::detail::make_pass_plan(28, 10);
    EXPECT_EQ(p28.count, 3u);
    EXPECT_EQ(ntt::detail::make_pass_plan(10, 10).count, 1u);
    EXPECT_EQ(ntt::detail::make_pass_plan(32, 10).count, 4u);
    EXPECT_EQ(ntt::detail::make_pass_plan(0, 10).count, 0u);
    // every position of every tile is covered exactly once
    for (uint32_t lg_n : {5u, 11u, 13u}) {
        auto plan = ntt::detail::make_pass_plan(lg_n, 4);
        for (uint32_t i = 0; i < plan.count; ++i) {
            std::vector<int> seen(size_t(1) << lg_n);
            const auto& sh = plan.pass[i];
            for (uint64_t t = 0; t < sh.tiles(); ++t)
                for (uint32_t s = 0; s < sh.tile_size(); ++s) ++seen[sh.position(t, s)];
            for (int v : seen) ASSERT_EQ(v, 1);
        }
    }
}

TYPED_TEST(NttPlan, EmulationMatchesHostEveryOrderAndCoset) {
    using F = TypeParam;
    std::mt19937_64 rng(9);
    for (uint32_t lg_n : {0u, 1u, 2u, 3u, 4u, 5u, 7u, 9u, 12u}) {
        ntt::domain<F> d(lg_n);
        std::vector<F> a(d.size());
        for (auto& x : a) x = F::random(rng);
        for (uint32_t tile : {1u, 3u, 4u, 10u}) {
            if (lg_n > 7 && tile < 4) continue;  // keep it fast
            for (auto o : {ntt::ordering::nn, ntt::ordering::nr, ntt::ordering::rn, ntt::ordering::rr})
                for (auto c : {ntt::coset::none, ntt::coset::shifted})
                    for (bool inv : {false, true}) {
                        auto expect = a, got = a;
                        if (inv)
                            ntt::inverse(d, std::span(expect), o, c);
                        else
                            ntt::forward(d, std::span(expect), o, c);
                        emulate(d, got, inv, o, c, tile);
                        ASSERT_EQ(got, expect) << "lg_n=" << lg_n << " tile=" << tile << " order=" << int(o)
                                               << " coset=" << int(c) << " inverse=" << inv;
                    }
        }
    }
}

}  // namespace
