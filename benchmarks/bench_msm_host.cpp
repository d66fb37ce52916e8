// SPDX-License-Identifier: MIT OR Apache-2.0
// Host MSM benchmarks: BLS12-381 G1 and BN254 G1 (and G2), uniform random full-width scalars.
// Sizes 2^CUZK_MSM_HOST_LOG_MIN .. 2^CUZK_MSM_HOST_LOG_MAX (environment; default 10..16, up
// to 26 on request), each with XYZZ (acc:1) and batch-affine (acc:2) buckets, full-width scalars
// (parts:1) and the endomorphism split (parts:2, and parts:4 on BLS12-381 G2); G2 too with
// CUZK_MSM_HOST_G2=1. Every size is checked against the closed form first. Threads: OpenMP's
// default (OMP_NUM_THREADS=1 gives the per-thread figure that compares with blst's single thread).
// CUZK_MSM_HOST_WINDOWS="11 12 13" also runs each size with those window widths forced (win:c;
// win:0 is host_window_bits' choice), to check the window model against measurement.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <random>
#include <ranges>
#include <sstream>
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

template <class G, unsigned Parts>
unsigned split_bits() {
    if constexpr (msm::has_endomorphism_split<G, Parts>) return msm::endomorphism_split<G, Parts>::part_bits;
    return 0;
}

template <class G>
void BM_msm_host(benchmark::State& state) {
    const size_t n = size_t(1) << state.range(0);
    auto& in = host_inputs<G>::get();
    std::span<const affine<G>> p(in.points.data(), n);
    std::span<const scalar_int<G>> s(in.scalars.data(), n);
    const unsigned parts = unsigned(state.range(2));  // 1: no split; 2 or 4: the endomorphism split
    const msm::host_options opt{.window_bits = unsigned(state.range(3)),
                                .accumulation = msm::host_accumulation(state.range(1)),
                                .split = parts == 1 ? msm::host_split::off : msm::host_split::on,
                                .split_parts = parts == 1 ? 0 : parts};
    if (!(msm::msm_host<G>(p, s, opt) == in.prog.expected(s))) {
        state.SkipWithError("MSM result differs from the closed form");
        return;
    }
    for (auto _ : state) benchmark::DoNotOptimize(msm::msm_host<G>(p, s, opt));
    state.counters["verified"] = 1;
    state.counters["window_bits"] = opt.window_bits != 0 ? opt.window_bits
                                    : parts == 1     ? msm::host_window_bits(n, G::scalar::modulus_bits)
                                               : parts == 2 ? msm::host_window_bits(2 * n, split_bits<G, 2>())
                                                            : msm::host_window_bits(4 * n, split_bits<G, 4>());
}

template <class G>
void register_group(const char* name) {
    const unsigned lo = env_or("CUZK_MSM_HOST_LOG_MIN", 10), hi = env_or("CUZK_MSM_HOST_LOG_MAX", 16);
    host_inputs<G>::max_n = size_t(1) << hi;
    auto* b = benchmark::RegisterBenchmark((std::string("msm_host/") + name).c_str(), BM_msm_host<G>);
    // acc: 1 = XYZZ buckets, 2 = batch-affine (msm::host_accumulation); parts: 1 = full-width
    // scalars, 2 (and 4 on BLS12-381 G2) = the endomorphism split into that many parts
    std::vector<int64_t> windows{0};
    if (const char* w = std::getenv("CUZK_MSM_HOST_WINDOWS"))
        for (std::istringstream in(w); int64_t c : std::views::istream<int64_t>(in)) windows.push_back(c);
    for (unsigned l = lo; l <= hi; l += 2)
        for (int acc : {1, 2})
            for (int parts : {1, 2, 4})
                if (parts == 1 || (parts == 2 && msm::has_endomorphism_split<G, 2>) ||
                    (parts == 4 && msm::has_endomorphism_split<G, 4>))
                    for (int64_t c : windows) b->Args({l, acc, parts, c});
    b->ArgNames({"lg", "acc", "parts", "win"})->Unit(benchmark::kMillisecond)->Iterations(1);
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
