// SPDX-License-Identifier: MIT OR Apache-2.0
// Device NTT over BLS12-381 Fr (and BN254 Fr), data on the device, in place, lg n = 16..28:
// forward NR, forward coset NN and NR, inverse RN and NN, a batch of 3. Each benchmark times
// 7 calls with CUDA events after 2 warm-ups and reports the median (manual time); counter
// sppark_ms is the matching sppark number measured on the same H200 kind (docs/PERFORMANCE.md)
// (BLS12-381 Fr only) and ratio = ours / sppark. Every benchmarked size is checked: the
// round trip forward-then-inverse must give back the input, and for lg n <= 20 the forward
// output must equal the host NTT's; a failure aborts the benchmark with an error.
// variant: 0 fwd NR, 1 fwd coset NN, 2 fwd coset NR, 3 inv RN, 4 inv NN, 5 fwd NR on a batch of 3,
// 6 fwd coset NR with full coset tables, 7 inv coset RN.
//
//   LD_LIBRARY_PATH=. build-<you>/benchmarks/bench_ntt_device --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <vector>

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"
#include "cuzk/gpu/device_buffer.hpp"
#include "cuzk/gpu/event.hpp"
#include "cuzk/gpu/stream.hpp"
#include "cuzk/ntt/ntt_device.cuh"
#include "cuzk/ntt/ntt_host.hpp"

namespace {

using namespace cuzk;
using ntt::coset;
using ntt::ordering;

enum variant { fwd_nr, fwd_coset_nn, fwd_coset_nr, inv_rn, inv_nn, fwd_nr_batch3, fwd_coset_nr_full, inv_coset_rn };

// sppark, BLS12-381 Fr, H200, ms, median of 7 (peer-bench-h200.md section 3.2).
double sppark_ms(variant v, int lg) {
    static const std::map<int, std::array<double, 4>> t = {
        // fwd NR, fwd coset NN, inv NN, inv NR
        {16, {0.025, 0.035, 0.031, 0.026}}, {18, {0.068, 0.090, 0.082, 0.072}},
        {20, {0.261, 0.320, 0.294, 0.278}}, {22, {1.048, 1.278, 1.188, 1.114}},
        {24, {4.43, 5.34, 4.99, 4.69}},     {26, {20.93, 26.21, 24.85, 21.97}},
        {28, {92.97, 113.88, 108.21, 97.33}}};
    auto it = t.find(lg);
    if (it == t.end()) return 0;
    switch (v) {
        case fwd_nr: return it->second[0];
        case fwd_coset_nn: return it->second[1];
        case inv_nn: return it->second[2];
        case inv_rn: return it->second[3];  // sppark's inverse without reorder (its "inv NR")
        default: return 0;
    }
}

template <class F>
__global__ void fill_random(F* out, uint64_t n, uint64_t seed) {
    for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
        F x;
        for (size_t l = 0; l < F::limbs; ++l) {
            uint64_t z = seed + (i * F::limbs + l + 1) * 0x9e3779b97f4a7c15ull;  // splitmix64
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
            x.mont.limb[l] = z ^ (z >> 31);
        }
        x.mont.limb[F::limbs - 1] &= 0x0fffffffffffffffull;  // < 2^252 < r
        out[i] = x;
    }
}
template <class F>
__global__ void count_mismatches(const F* a, const F* b, uint64_t n, unsigned long long* out) {
    for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
        if (a[i] != b[i]) atomicAdd(out, 1ull);
}

struct call {
    bool inverse;
    ordering order;
    coset c;
};
call call_of(variant v) {
    switch (v) {
        case fwd_nr: return {false, ordering::nr, coset::none};
        case fwd_coset_nn: return {false, ordering::nn, coset::shifted};
        case fwd_coset_nr: return {false, ordering::nr, coset::shifted};
        case inv_rn: return {true, ordering::rn, coset::none};
        case inv_nn: return {true, ordering::nn, coset::none};
        case fwd_nr_batch3: return {false, ordering::nr, coset::none};
        case fwd_coset_nr_full: return {false, ordering::nr, coset::shifted};
        case inv_coset_rn: return {true, ordering::rn, coset::shifted};
    }
    return {};
}
/// The inverse of a call (same coset, mirrored order).
call undo(call k) {
    ordering o = k.order == ordering::nr ? ordering::rn : k.order == ordering::rn ? ordering::nr : k.order;
    return {!k.inverse, o, k.c};
}

template <class F, class V>
void run(const ntt::device_domain<F>& dd, F* p, size_t count, call k, cudaStream_t s,
         ntt::detail::device_tuning tuning) {
    ntt::detail::run_device<F, V>(dd, std::span<F>(p, count), k.inverse, k.order, k.c, s, "bench", tuning);
}

/// Checks and times one transform; tuning other than the default only from BM_tuning.
template <class F, class V = ntt::detail::pass_variant<>>
void measure(benchmark::State& state, int lg, variant v, ntt::detail::device_tuning tuning) {
    const size_t batch = v == fwd_nr_batch3 ? 3 : 1;
    const call k = call_of(v);
    gpu::stream s;
    ntt::domain<F> d{size_t(lg)};
    ntt::device_domain<F> dd(d, s, v == fwd_coset_nr_full ? ntt::coset_tables::full : ntt::coset_tables::compact);
    const size_t count = batch * d.size();
    gpu::device_buffer<F> data(count, s), orig(count, s);
    gpu::device_buffer<unsigned long long> bad(1, s);
    fill_random<F><<<2048, 256, 0, s>>>(orig.data(), count, 1234 + lg);

    // Correctness of this size: round trip, and the host NTT for lg <= 20.
    CUZK_CUDA_CHECK(cudaMemcpyAsync(data.data(), orig.data(), orig.bytes(), cudaMemcpyDeviceToDevice, s));
    run<F, V>(dd, data.data(), count, k, s, tuning);
    if (lg <= 20) {
        std::vector<F> in(count), out(count);
        orig.download(in.data(), s);
        data.download(out.data(), s);
        s.synchronize();
        if (k.inverse)
            ntt::inverse(d, std::span(in), k.order, k.c);
        else
            ntt::forward(d, std::span(in), k.order, k.c);
        if (in != out) {
            state.SkipWithError("device result differs from the host NTT");
            return;
        }
    }
    run<F, V>(dd, data.data(), count, undo(k), s, tuning);
    CUZK_CUDA_CHECK(cudaMemsetAsync(bad.data(), 0, sizeof(unsigned long long), s));
    count_mismatches<F><<<2048, 256, 0, s>>>(data.data(), orig.data(), count, bad.data());
    unsigned long long mismatches = 1;
    bad.download(&mismatches, s);
    s.synchronize();
    if (mismatches != 0) {
        state.SkipWithError("round trip does not give back the input");
        return;
    }

    gpu::event start, stop;
    for (int i = 0; i < 2; ++i) run<F, V>(dd, data.data(), count, k, s, tuning);  // warm-up
    std::vector<double> ms;
    for (auto _ : state) {
        ms.clear();
        for (int i = 0; i < 7; ++i) {
            start.record(s);
            run<F, V>(dd, data.data(), count, k, s, tuning);
            stop.record(s);
            stop.synchronize();
            ms.push_back(stop.elapsed_ms_since(start));
        }
        std::sort(ms.begin(), ms.end());
        state.SetIterationTime(ms[3] / 1e3);
    }
    state.counters["median_ms"] = ms[3];
    state.counters["min_ms"] = ms.front();
    state.counters["max_ms"] = ms.back();
    if constexpr (std::is_same_v<F, bls12_381::fr>) {  // sppark's numbers are for this field only
        const double ref = sppark_ms(v, lg);
        if (ref > 0) {
            state.counters["sppark_ms"] = ref;
            state.counters["ratio"] = ms[3] / ref;
        }
    }
}

template <class F>
void BM_device_ntt(benchmark::State& state) {
    measure<F>(state, int(state.range(0)), variant(state.range(1)), {});
}

/// Forward NR with other tile sizes and butterflies per thread (run-time) and pass kernel
/// variants V (build-time), to pick the defaults; lg_tile 0 is the default plan.
template <class F, class V>
void BM_tuning(benchmark::State& state) {
    ntt::detail::device_tuning t{uint32_t(state.range(1)), uint32_t(state.range(2))};
    measure<F, V>(state, int(state.range(0)), fwd_nr, t);
}

void sizes(benchmark::internal::Benchmark* b) {
    for (int lg = 16; lg <= 28; ++lg) b->Args({lg, fwd_nr});
    for (int v : {fwd_coset_nn, fwd_coset_nr, inv_rn, inv_nn, fwd_coset_nr_full, inv_coset_rn})
        for (int lg = 16; lg <= 28; lg += 2) b->Args({lg, v});
    for (int lg : {20, 24}) b->Args({lg, fwd_nr_batch3});
}

BENCHMARK(BM_device_ntt<bls12_381::fr>)->Apply(sizes)->ArgNames({"lg", "variant"})->UseManualTime()
    ->Iterations(1)->Unit(benchmark::kMillisecond);
using radix4_ilp1 = ntt::detail::pass_variant<true, 1>;  // the default
using radix4_ilp2 = ntt::detail::pass_variant<true, 2>;
using radix2_ilp1 = ntt::detail::pass_variant<false, 1>;
using radix2_ilp2 = ntt::detail::pass_variant<false, 2>;
BENCHMARK(BM_tuning<bls12_381::fr, radix4_ilp1>)
    ->ArgsProduct({{20, 24, 26, 28}, {0}, {2}})
    ->ArgsProduct({{24, 26}, {0}, {4}})
    ->ArgNames({"lg", "lg_tile", "bfly_per_thread"})->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_tuning<bls12_381::fr, radix4_ilp2>)
    ->ArgsProduct({{20, 24, 26, 28}, {0}, {2}})
    ->ArgsProduct({{24, 26}, {0}, {4}})
    ->ArgNames({"lg", "lg_tile", "bfly_per_thread"})->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_tuning<bls12_381::fr, radix2_ilp1>)
    ->ArgsProduct({{24, 26}, {10}, {2}})
    ->ArgNames({"lg", "lg_tile", "bfly_per_thread"})->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_tuning<bls12_381::fr, radix2_ilp2>)
    ->ArgsProduct({{24, 26}, {10}, {2}})
    ->ArgNames({"lg", "lg_tile", "bfly_per_thread"})->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_device_ntt<bn254::fr>)->Args({20, fwd_nr})->Args({24, fwd_nr})->Args({24, fwd_coset_nr})
    ->Args({24, inv_rn})->ArgNames({"lg", "variant"})->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
