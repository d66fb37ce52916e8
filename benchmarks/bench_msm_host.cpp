// Host MSM benchmarks: BLS12-381 G1 and BN254 G1 (and G2), uniform random full-width scalars.
// Sizes 2^CUZK_MSM_HOST_LOG_MIN .. 2^CUZK_MSM_HOST_LOG_MAX (environment; default 10..16, up
// to 26 on request), each with XYZZ (acc:1) and batch-affine (acc:2) buckets; G2 too with
// CUZK_MSM_HOST_G2=1. Every size is checked against the closed form first. Threads: OpenMP's
// default (OMP_NUM_THREADS=1 gives the per-thread figure compared with blst in issue 4).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "../tests/test_msm_util.hpp"
#include "cuzk/msm/pippenger_host.hpp"

namespace {

using namespace cuzk;
using namespace msm_test;

unsigned env_or(const char* name, unsigned dflt) {
    const char* v = std::getenv(name);
    return v != nullptr ? unsigned(std::atoi(v)) : dflt;
}

template <class G>
struct host_inputs {
    progression<G> prog = progression<G>::make(2026, 1024);
    std::vector<affine<G>> points;
    std::vector<scalar_int<G>> scalars;
    static inline size_t max_n = 0;
    static host_inputs& get() {
        static host_inputs in = [] {
            host_inputs h;
            h.points = h.prog.points(max_n);
            h.scalars = random_scalars<G>(max_n, 7);
            return h;
        }();
        return in;
    }
};

template <class G>
void BM_msm_host(benchmark::State& state) {
    const size_t n = size_t(1) << state.range(0);
    auto& in = host_inputs<G>::get();
    std::span<const affine<G>> p(in.points.data(), n);
    std::span<const scalar_int<G>> s(in.scalars.data(), n);
    const msm::host_options opt{.accumulation = msm::host_accumulation(state.range(1))};
    if (!(msm::msm_host<G>(p, s, opt) == in.prog.expected(s))) {
        state.SkipWithError("MSM result differs from the closed form");
        return;
    }
    for (auto _ : state) benchmark::DoNotOptimize(msm::msm_host<G>(p, s, opt));
    state.counters["verified"] = 1;
    state.counters["window_bits"] = msm::host_window_bits(n, G::scalar::modulus_bits);
}

template <class G>
void register_group(const char* name) {
    const unsigned lo = env_or("CUZK_MSM_HOST_LOG_MIN", 10), hi = env_or("CUZK_MSM_HOST_LOG_MAX", 16);
    host_inputs<G>::max_n = size_t(1) << hi;
    auto* b = benchmark::RegisterBenchmark((std::string("msm_host/") + name).c_str(), BM_msm_host<G>);
    // acc: 1 = XYZZ buckets, 2 = batch-affine (msm::host_accumulation)
    for (unsigned l = lo; l <= hi; l += 2)
        for (int acc : {1, 2}) b->Args({l, acc});
    b->ArgNames({"lg", "acc"})->Unit(benchmark::kMillisecond)->Iterations(1);
}

}  // namespace

int main(int argc, char** argv) {
    register_group<bls_g1>("bls12_381_g1");
    register_group<bn_g1>("bn254_g1");
    if (env_or("CUZK_MSM_HOST_G2", 0) != 0) {
        register_group<bls_g2>("bls12_381_g2");
        register_group<bn_g2>("bn254_g2");
    }
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
