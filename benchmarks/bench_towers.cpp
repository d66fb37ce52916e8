// SPDX-License-Identifier: MIT OR Apache-2.0
// Host extension-tower arithmetic for BLS12-381 and BN254: Fp2 mul/square/inverse/sqrt,
// Fp12 mul/square/cyclotomic square/inverse/Frobenius. Dependent chains (each result feeds the
// next operation) so the numbers are latencies, as in a pairing.
#include <benchmark/benchmark.h>

#include <random>

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"

namespace {

template <class F>
F random_element() {
    std::mt19937_64 rng(42);
    return F::random(rng);
}

template <class F>
void bm_mul(benchmark::State& st) {
    F a = random_element<F>(), b = a.square() + F::one();
    for (auto _ : st) {
        a = a * b;
        benchmark::DoNotOptimize(a);
    }
}
template <class F>
void bm_square(benchmark::State& st) {
    F a = random_element<F>();
    for (auto _ : st) {
        a = a.square();
        benchmark::DoNotOptimize(a);
    }
}
template <class F>
void bm_inverse(benchmark::State& st) {
    F a = random_element<F>();
    for (auto _ : st) {
        a = a.inverse() + F::one();
        benchmark::DoNotOptimize(a);
    }
}
template <class F>
void bm_sqrt(benchmark::State& st) {
    F a = random_element<F>().square();
    for (auto _ : st) {
        F r{};
        bool ok = a.sqrt_into(r);
        benchmark::DoNotOptimize(ok);
        benchmark::DoNotOptimize(r);
    }
}
template <class F>
void bm_cyclotomic_square(benchmark::State& st) {
    F f = random_element<F>();
    f = f.conjugate() * f.inverse();
    f = f.frobenius_map(2) * f;
    for (auto _ : st) {
        f = f.cyclotomic_square();
        benchmark::DoNotOptimize(f);
    }
}
template <class F>
void bm_frobenius(benchmark::State& st) {
    F a = random_element<F>();
    for (auto _ : st) {
        a = a.template frobenius_map<1>();
        benchmark::DoNotOptimize(a);
    }
}

namespace bls = cuzk::bls12_381;
namespace bn = cuzk::bn254;

BENCHMARK(bm_mul<bls::fp2>)->Name("bls12_381/fp2_mul");
BENCHMARK(bm_square<bls::fp2>)->Name("bls12_381/fp2_square");
BENCHMARK(bm_inverse<bls::fp2>)->Name("bls12_381/fp2_inverse");
BENCHMARK(bm_sqrt<bls::fp2>)->Name("bls12_381/fp2_sqrt");
BENCHMARK(bm_mul<bls::fp6>)->Name("bls12_381/fp6_mul");
BENCHMARK(bm_mul<bls::fp12>)->Name("bls12_381/fp12_mul");
BENCHMARK(bm_square<bls::fp12>)->Name("bls12_381/fp12_square");
BENCHMARK(bm_cyclotomic_square<bls::fp12>)->Name("bls12_381/fp12_cyclotomic_square");
BENCHMARK(bm_inverse<bls::fp12>)->Name("bls12_381/fp12_inverse");
BENCHMARK(bm_frobenius<bls::fp12>)->Name("bls12_381/fp12_frobenius");

BENCHMARK(bm_mul<bn::fp2>)->Name("bn254/fp2_mul");
BENCHMARK(bm_square<bn::fp2>)->Name("bn254/fp2_square");
BENCHMARK(bm_inverse<bn::fp2>)->Name("bn254/fp2_inverse");
BENCHMARK(bm_sqrt<bn::fp2>)->Name("bn254/fp2_sqrt");
BENCHMARK(bm_mul<bn::fp6>)->Name("bn254/fp6_mul");
BENCHMARK(bm_mul<bn::fp12>)->Name("bn254/fp12_mul");
BENCHMARK(bm_square<bn::fp12>)->Name("bn254/fp12_square");
BENCHMARK(bm_cyclotomic_square<bn::fp12>)->Name("bn254/fp12_cyclotomic_square");
BENCHMARK(bm_inverse<bn::fp12>)->Name("bn254/fp12_inverse");
BENCHMARK(bm_frobenius<bn::fp12>)->Name("bn254/fp12_frobenius");

}  // namespace

BENCHMARK_MAIN();
