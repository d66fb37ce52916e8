// SPDX-License-Identifier: MIT OR Apache-2.0
// r1cs::evaluate (a, b, c from z, with its check of every constraint) on PoRep-shaped partitions
// (groth16/synthetic_circuit.hpp's porep_shape, 97% bit rows): the host's share of the CPU prover
// and of the CUDA prover within a VRAM budget too small for the circuit.
//   build-<you>/benchmarks/bench_r1cs --benchmark_filter=lg:20
//   CUZK_R1CS_LOG_MAX=22 ...   (largest domain, default 2^20; the smallest is 2^18)
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <vector>

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"
#include "cuzk/groth16/synthetic_circuit.hpp"

namespace {

using namespace cuzk;
using namespace cuzk::groth16;

template <class F>
void BM_evaluate_porep(benchmark::State& state) {
    const auto ckt = synthetic_circuit<F>(porep_shape(unsigned(state.range(0)), 1));
    const size_t n = ckt.system.domain_size();
    std::vector<F> a(n), b(n), c(n);
    for (auto _ : state) {
        // The circuit is satisfied: a violated constraint here would be a wrong a, b or c.
        if (ckt.system.evaluate(ckt.assignment, a, b, c)) {
            state.SkipWithError("evaluate found a violated constraint in a satisfied circuit");
            break;
        }
        benchmark::DoNotOptimize(a.data());
    }
    state.counters["rows/s"] = benchmark::Counter(double(ckt.system.num_constraints()),
                                                  benchmark::Counter::kIsIterationInvariantRate);
}

void sizes(benchmark::internal::Benchmark* b) {
    const char* max = std::getenv("CUZK_R1CS_LOG_MAX");
    const int hi = max != nullptr ? std::atoi(max) : 20;
    for (int lg = 18; lg <= hi; lg += 2) b->Arg(lg);
    b->ArgName("lg")->Unit(benchmark::kMillisecond)->UseRealTime();
}

BENCHMARK(BM_evaluate_porep<bls12_381::fr>)->Name("evaluate_porep/bls12_381")->Apply(sizes);
BENCHMARK(BM_evaluate_porep<bn254::fr>)->Name("evaluate_porep/bn254")->Apply(sizes);

}  // namespace

BENCHMARK_MAIN();
