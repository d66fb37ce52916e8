// SPDX-License-Identifier: MIT OR Apache-2.0
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
    const auto plan = max_lg_tile == 0 ? ntt::detail::make_device_pass_plan(lg_n)
                                       : ntt::detail::make_pass_plan(lg_n, max_lg_tile);
    const auto sch = ntt::detail::make_schedule(inverse, o, c);
    uint32_t covered = 0;
    for (uint32_t i = 0; i < plan.count; ++i) covered += plan.pass[i].lg_k;
    ASSERT_EQ(covered, lg_n);
    for (uint32_t i = 0; i < plan.count; ++i) {
        const pass_shape sh = plan.pass[sch.dit ? plan.count - 1 - i : i];
        ASSERT_LE(sh.lg_tile(), max_lg_tile == 0 ? 10u : max_lg_tile);
        ASSERT_LE(sh.lg_c, sh.lg_l);
        const scaling pre = i == 0 ? sch.pre : scaling{};
        const scaling post = i + 1 == plan.count ? sch.post : scaling{};
        const uint32_t T = sh.tile_size(), K = uint32_t(1) << sh.lg_k;
        std::vector<F> wk(K / 2), tile(T);
        for (uint32_t x = 0; x < K / 2; ++x) wk[x] = twiddle(uint64_t(x) << (lg_n - sh.lg_k), sch.inverse_root);
        for (uint64_t t = 0; t < sh.tiles(); ++t) {
            // tile[] stands for shared memory: element i lives in slot swizzle(i)
            auto at = [&](uint32_t i) -> F& { return tile[sh.swizzle(i)]; };
            for (uint32_t s = 0; s < T; ++s) {
                uint64_t pos = sh.position(t, s);
                F v = data[pos];
                if (pre.kind != scaling::none) v *= factor(pre, pos);
                if (sch.dit && sh.lg_l != 0) v *= twiddle(sh.twiddle_exponent(pos), sch.inverse_root);
                at(s) = v;
            }
            auto radix2_stage = [&](uint32_t lm) {
                for (uint32_t q = 0; q < T / 2; ++q) {
                    uint32_t i0, i1, x;
                    sh.butterfly(lm, q, i0, i1, x);
                    ASSERT_LT(x, std::max(K / 2, 1u));
                    F u = at(i0), v = at(i1);
                    if (sch.dit) {
                        if (lm != 0) v *= wk[x];
                        at(i0) = u + v, at(i1) = u - v;
                    } else {
                        F dd = u - v;
                        if (lm != 0) dd *= wk[x];
                        at(i0) = u + v, at(i1) = dd;
                    }
                }
            };
            auto radix4_step = [&] {
                const F w4 = wk[K / 4];
                for (uint32_t g = 0; g < T / 4; ++g) {
                    F& x0 = at(sh.radix4_index(g, 0));
                    F& x1 = at(sh.radix4_index(g, 1));
                    F& x2 = at(sh.radix4_index(g, 2));
                    F& x3 = at(sh.radix4_index(g, 3));
                    if (sch.dit) {  // spans 1 then 2
                        F y0 = x0 + x1, y1 = x0 - x1, y2 = x2 + x3, y3 = (x2 - x3) * w4;
                        x0 = y0 + y2, x2 = y0 - y2, x1 = y1 + y3, x3 = y1 - y3;
                    } else {  // spans 2 then 1
                        F y0 = x0 + x2, y2 = x0 - x2, y1 = x1 + x3, y3 = (x1 - x3) * w4;
                        x0 = y0 + y1, x1 = y0 - y1, x2 = y2 + y3, x3 = y2 - y3;
                    }
                }
            };
            if (sh.lg_k == 1) {
                radix2_stage(0);
            } else if (sch.dit) {
                radix4_step();
                for (uint32_t lm = 2; lm < sh.lg_k; ++lm) radix2_stage(lm);
            } else {
                for (uint32_t lm = sh.lg_k; lm-- > 2;) radix2_stage(lm);
                radix4_step();
            }
            for (uint32_t s = 0; s < T; ++s) {
                uint64_t pos = sh.position(t, s);
                F v = at(s);
                if (!sch.dit && sh.lg_l != 0) v *= twiddle(sh.twiddle_exponent(pos), sch.inverse_root);
                if (post.kind != scaling::none) v *= factor(post, pos);
                data[pos] = v;
            }
        }
    }
    if (!sch.bit_reverse_after) return;
    if (lg_n < 8) {
        ntt::bit_reverse_permute(std::span(data), lg_n);
        return;
    }
    // ntt_device.cuh's bit_reverse_tiled_kernel: both tiles of a pair read, then written.
    const ntt::detail::bit_reverse_tiles br{lg_n};
    using R = ntt::detail::bit_reverse_tiles;
    for (uint64_t m = 0; m < br.tiles(); ++m) {
        const uint64_t m2 = br.partner(m);
        if (m2 < m) continue;
        F A[16][16], B[16][16];
        for (uint32_t a = 0; a < 16; ++a)
            for (uint32_t b = 0; b < 16; ++b) A[a][b] = data[br.index(m, a, b)], B[a][b] = data[br.index(m2, a, b)];
        for (uint32_t a = 0; a < 16; ++a)
            for (uint32_t b = 0; b < 16; ++b) {
                data[br.index(m2, a, b)] = A[R::rev4(b)][R::rev4(a)];
                data[br.index(m, a, b)] = B[R::rev4(b)][R::rev4(a)];
            }
    }
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
    // the shared-memory swizzle is a bijection on every tile shape the device uses
    for (uint32_t lg_n = 1; lg_n <= 28; ++lg_n) {
        auto plan = ntt::detail::make_device_pass_plan(lg_n);
        for (uint32_t i = 0; i < plan.count; ++i) {
            const auto& sh = plan.pass[i];
            std::vector<int> hit(sh.tile_size());
            for (uint32_t x = 0; x < sh.tile_size(); ++x) ++hit.at(sh.swizzle(x));
            for (int v : hit) ASSERT_EQ(v, 1);
        }
    }
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
    for (uint32_t lg_n : {0u, 1u, 2u, 3u, 4u, 5u, 7u, 8u, 9u, 12u}) {
        ntt::domain<F> d(lg_n);
        std::vector<F> a(d.size());
        for (auto& x : a) x = F::random(rng);
        for (uint32_t tile : {0u, 1u, 3u, 4u, 10u}) {  // 0: the device's own plan
            if (lg_n > 7 && tile != 0 && tile < 4) continue;  // keep it fast
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
