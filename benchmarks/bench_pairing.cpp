// SPDX-License-Identifier: MIT OR Apache-2.0
// Host optimal ate pairing for BLS12-381 and BN254: one pairing, a multi-pairing of 4 pairs
// (one Miller loop chain, one final exponentiation: the Groth16 verifier's shape), the Miller
// loop alone and the final exponentiation alone; and the multi-pairing with prepared G2 points.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/pairing/pairing.hpp"

namespace {

template <class Config>
std::vector<cuzk::pairing_input<Config>> random_inputs(size_t n) {
    using g1 = typename Config::g1;
    using g2 = typename Config::g2;
    std::mt19937_64 rng(7);
    std::vector<cuzk::pairing_input<Config>> out;
    for (size_t i = 0; i < n; ++i) {
        auto a = g1::scalar::random(rng), b = g1::scalar::random(rng);
        out.push_back({cuzk::to_affine(cuzk::mul_vartime(cuzk::affine<g1>::generator(), a)),
                       cuzk::to_affine(cuzk::mul_vartime(cuzk::affine<g2>::generator(), b))});
    }
    return out;
}

template <class Config>
void bm_pairing(benchmark::State& st) {
    auto in = random_inputs<Config>(1);
    for (auto _ : st) benchmark::DoNotOptimize(cuzk::pairing<Config>(in[0].p, in[0].q));
}
template <class Config>
void bm_multi_pairing(benchmark::State& st) {
    auto in = random_inputs<Config>(size_t(st.range(0)));
    for (auto _ : st) benchmark::DoNotOptimize(cuzk::multi_pairing<Config>(in));
}
/// The multi-pairing with every G2 point prepared beforehand (a verifier with a fixed key).
template <class Config>
void bm_multi_pairing_prepared(benchmark::State& st) {
    auto in = random_inputs<Config>(size_t(st.range(0)));
    std::vector<cuzk::affine<typename Config::g1>> ps;
    std::vector<cuzk::g2_prepared<Config>> qs;
    for (const auto& x : in) {
        ps.push_back(x.p);
        qs.push_back(cuzk::g2_prepared<Config>::prepare(x.q));
    }
    std::vector<const cuzk::g2_prepared<Config>*> qp;
    for (const auto& q : qs) qp.push_back(&q);
    for (auto _ : st)
        benchmark::DoNotOptimize(cuzk::final_exponentiation<Config>(cuzk::miller_loop_prepared_vartime<Config>(ps, qp)));
}
template <class Config>
void bm_miller_loop(benchmark::State& st) {
    auto in = random_inputs<Config>(1);
    for (auto _ : st) benchmark::DoNotOptimize(cuzk::miller_loop_vartime<Config>(in));
}
template <class Config>
void bm_final_exponentiation(benchmark::State& st) {
    auto in = random_inputs<Config>(1);
    auto f = cuzk::miller_loop_vartime<Config>(in);
    for (auto _ : st) benchmark::DoNotOptimize(cuzk::final_exponentiation<Config>(f));
}

using bls = cuzk::bls12_381::pairing_config;
using bn = cuzk::bn254::pairing_config;

BENCHMARK(bm_pairing<bls>)->Name("bls12_381/pairing")->Unit(benchmark::kMicrosecond);
BENCHMARK(bm_multi_pairing<bls>)->Name("bls12_381/multi_pairing")->Arg(4)->Unit(benchmark::kMicrosecond);
BENCHMARK(bm_multi_pairing_prepared<bls>)->Name("bls12_381/multi_pairing_prepared")->Arg(4)->Unit(benchmark::kMicrosecond);
BENCHMARK(bm_miller_loop<bls>)->Name("bls12_381/miller_loop")->Unit(benchmark::kMicrosecond);
BENCHMARK(bm_final_exponentiation<bls>)->Name("bls12_381/final_exponentiation")->Unit(benchmark::kMicrosecond);
BENCHMARK(bm_pairing<bn>)->Name("bn254/pairing")->Unit(benchmark::kMicrosecond);
BENCHMARK(bm_multi_pairing<bn>)->Name("bn254/multi_pairing")->Arg(4)->Unit(benchmark::kMicrosecond);
BENCHMARK(bm_multi_pairing_prepared<bn>)->Name("bn254/multi_pairing_prepared")->Arg(4)->Unit(benchmark::kMicrosecond);
BENCHMARK(bm_miller_loop<bn>)->Name("bn254/miller_loop")->Unit(benchmark::kMicrosecond);
BENCHMARK(bm_final_exponentiation<bn>)->Name("bn254/final_exponentiation")->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
