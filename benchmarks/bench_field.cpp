// Host prime-field arithmetic: add, mul, square and inverse (Fermat and binary GCD) per field (one thread).
//
// Each benchmark runs a dependency chain (x <- op(x, y)), so it measures latency per op as a
// real prover sees it in sequential code; items_per_second is ops per second.
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

#define CUZK_HOST_FIELD_BENCH(F, label)                      \
    BENCHMARK(BM_add<F>)->Name(label "/add");                \
    BENCHMARK(BM_mul<F>)->Name(label "/mul");                \
    BENCHMARK(BM_square<F>)->Name(label "/square");          \
    BENCHMARK(BM_inverse<F>)->Name(label "/inverse");        \
    BENCHMARK(BM_inverse_vartime<F>)->Name(label "/inverse_vartime");

CUZK_HOST_FIELD_BENCH(bls12_381::fp, "bls12_381_fp")
CUZK_HOST_FIELD_BENCH(bls12_381::fr, "bls12_381_fr")
CUZK_HOST_FIELD_BENCH(bn254::fq, "bn254_fq")
CUZK_HOST_FIELD_BENCH(bn254::fr, "bn254_fr")

}  // namespace

BENCHMARK_MAIN();
