// SPDX-License-Identifier: MIT OR Apache-2.0
// Host NTT at 2^20 (and smaller), against a simple recursive radix-2 reference.
//   build-<you>/benchmarks/bench_ntt_host --benchmark_filter=20
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"
#include "cuzk/ntt/ntt_host.hpp"

namespace {

using namespace cuzk;

template <class F>
std::vector<F> random_vector(size_t n) {
    std::mt19937_64 rng(42);
    std::vector<F> v(n);
    for (auto& x : v) x = F::random(rng);
    return v;
}

/// Textbook recursive radix-2 FFT (even/odd split, fresh vectors per level, one thread):
/// the baseline the library's transform is compared with.
template <class F>
void recursive_fft(std::vector<F>& a, const F& w) {
    const size_t n = a.size();
    if (n == 1) return;
    std::vector<F> even(n / 2), odd(n / 2);
    for (size_t i = 0; i < n / 2; ++i) {
        even[i] = a[2 * i];
        odd[i] = a[2 * i + 1];
    }
    F w2 = w.square();
    recursive_fft(even, w2);
    recursive_fft(odd, w2);
    F x = F::one();
    for (size_t k = 0; k < n / 2; ++k, x *= w) {
        F t = x * odd[k];
        a[k] = even[k] + t;
        a[k + n / 2] = even[k] - t;
    }
}

template <class F>
void BM_forward_nr(benchmark::State& state) {
    ntt::domain<F> d(size_t(state.range(0)));
    auto v = random_vector<F>(d.size());
    for (auto _ : state) {
        ntt::forward(d, std::span(v), ntt::ordering::nr);
        benchmark::DoNotOptimize(v.data());
    }
}
template <class F>
void BM_coset_nr(benchmark::State& state) {
    ntt::domain<F> d(size_t(state.range(0)));
    auto v = random_vector<F>(d.size());
    for (auto _ : state) {
        ntt::forward(d, std::span(v), ntt::ordering::nr, ntt::coset::shifted);
        benchmark::DoNotOptimize(v.data());
    }
}
template <class F>
void BM_inverse_rn(benchmark::State& state) {
    ntt::domain<F> d(size_t(state.range(0)));
    auto v = random_vector<F>(d.size());
    for (auto _ : state) {
        ntt::inverse(d, std::span(v), ntt::ordering::rn);
        benchmark::DoNotOptimize(v.data());
    }
}
template <class F>
void BM_recursive_reference(benchmark::State& state) {
    ntt::domain<F> d(size_t(state.range(0)));
    auto v = random_vector<F>(d.size());
    for (auto _ : state) {
        recursive_fft(v, d.root());
        benchmark::DoNotOptimize(v.data());
    }
}

using bls_fr = bls12_381::fr;
using bn_fr = bn254::fr;
BENCHMARK(BM_forward_nr<bls_fr>)->Arg(16)->Arg(20)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_coset_nr<bls_fr>)->Arg(20)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_inverse_rn<bls_fr>)->Arg(20)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_recursive_reference<bls_fr>)->Arg(16)->Arg(20)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_forward_nr<bn_fr>)->Arg(20)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_recursive_reference<bn_fr>)->Arg(20)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
