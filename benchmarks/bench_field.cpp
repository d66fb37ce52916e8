// SPDX-License-Identifier: MIT OR Apache-2.0
// Host prime-field arithmetic per field (one thread): add, mul, square (ADX and portable) and
// inverse (Fermat and binary GCD).
//
// Each benchmark runs a dependency chain (x <- op(x, y)), so it measures latency per op as a
// real prover sees it in sequential code; items_per_second is ops per second. The *_x8 rows run
// 8 independent chains at once (throughput, as in point formulas and batch checks, where the
// out-of-order core overlaps independent products); the *_portable rows call the portable C++
// of host_arith directly (what a build without ADX runs).
#include <benchmark/benchmark.h>

#include <random>

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"

namespace {

using namespace cuzk;

template <class F>
std::pair<F, F> operands() {
    std::mt19937_64 rng(1);
    return {F::random(rng), F::random(rng)};
}

template <class F>
void BM_add(benchmark::State& state) {
    auto [x, y] = operands<F>();
    for (auto _ : state) {
        x = x + y;
        benchmark::DoNotOptimize(x);
    }
    state.SetItemsProcessed(state.iterations());
}

template <class F>
void BM_mul(benchmark::State& state) {
    auto [x, y] = operands<F>();
    for (auto _ : state) {
        x = x * y;
        benchmark::DoNotOptimize(x);
    }
    state.SetItemsProcessed(state.iterations());
}

template <class F>
void BM_square(benchmark::State& state) {
    auto [x, y] = operands<F>();
    for (auto _ : state) {
        x = x.square();
        benchmark::DoNotOptimize(x);
    }
    state.SetItemsProcessed(state.iterations());
}

/// 8 independent chains: ops per second when the core can overlap them.
template <class F, class Op>
void run_x8(benchmark::State& state, Op op) {
    std::mt19937_64 rng(1);
    F x[8];
    for (F& v : x) v = F::random(rng);
    const F y = F::random(rng);
    for (auto _ : state) {
        for (F& v : x) v = op(v, y);
        benchmark::DoNotOptimize(x);
    }
    state.SetItemsProcessed(8 * state.iterations());
}

template <class F>
void BM_mul_x8(benchmark::State& state) {
    run_x8<F>(state, [](const F& v, const F& y) { return v * y; });
}

template <class F>
void BM_square_x8(benchmark::State& state) {
    run_x8<F>(state, [](const F& v, const F&) { return v.square(); });
}

template <class F>
void BM_mul_portable(benchmark::State& state) {
    auto [x, y] = operands<F>();
    for (auto _ : state) {
        host_arith::mont_mul_portable(x.mont, x.mont, y.mont, F::modulus, F::params::mont_inv64);
        benchmark::DoNotOptimize(x);
    }
    state.SetItemsProcessed(state.iterations());
}

template <class F>
void BM_square_portable(benchmark::State& state) {
    auto [x, y] = operands<F>();
    for (auto _ : state) {
        host_arith::mont_sqr_portable(x.mont, x.mont, F::modulus, F::params::mont_inv64);
        benchmark::DoNotOptimize(x);
    }
    state.SetItemsProcessed(state.iterations());
}

template <class F>
void BM_inverse(benchmark::State& state) {
    auto [x, y] = operands<F>();
    for (auto _ : state) {
        x = x.inverse() + y;  // + y keeps the chain away from a fixed point
        benchmark::DoNotOptimize(x);
    }
    state.SetItemsProcessed(state.iterations());
}

template <class F>
void BM_inverse_vartime(benchmark::State& state) {
    auto [x, y] = operands<F>();
    for (auto _ : state) {
        x = x.inverse_vartime() + y;
        benchmark::DoNotOptimize(x);
    }
    state.SetItemsProcessed(state.iterations());
}

#define CUZK_HOST_FIELD_BENCH(F, label)                               \
    BENCHMARK(BM_add<F>)->Name(label "/add");                         \
    BENCHMARK(BM_mul<F>)->Name(label "/mul");                         \
    BENCHMARK(BM_square<F>)->Name(label "/square");                   \
    BENCHMARK(BM_mul_x8<F>)->Name(label "/mul_x8");                   \
    BENCHMARK(BM_square_x8<F>)->Name(label "/square_x8");             \
    BENCHMARK(BM_mul_portable<F>)->Name(label "/mul_portable");       \
    BENCHMARK(BM_square_portable<F>)->Name(label "/square_portable"); \
    BENCHMARK(BM_inverse<F>)->Name(label "/inverse");                 \
    BENCHMARK(BM_inverse_vartime<F>)->Name(label "/inverse_vartime");

CUZK_HOST_FIELD_BENCH(bls12_381::fp, "bls12_381_fp")
CUZK_HOST_FIELD_BENCH(bls12_381::fr, "bls12_381_fr")
CUZK_HOST_FIELD_BENCH(bn254::fq, "bn254_fq")
CUZK_HOST_FIELD_BENCH(bn254::fr, "bn254_fr")

}  // namespace

BENCHMARK_MAIN();
