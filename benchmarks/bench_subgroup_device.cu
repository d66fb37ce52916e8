// SPDX-License-Identifier: MIT OR Apache-2.0
// Device subgroup checks (ec/subgroup_device.cuh), points a second, for BLS12-381 G1 and G2 and
// BN254 G2 at 2^CUZK_SUBGROUP_LOG_MIN .. 2^CUZK_SUBGROUP_LOG_MAX points (default 20..24, step
// CUZK_SUBGROUP_LOG_STEP, default 2), two ways:
//   streamed/  points in pageable host memory through first_not_in_subgroup_device (the .params
//              reader's path: copies into page-locked slots and DMA overlapping the checks; the
//              staging, 3 slots of 2^20 points, made once outside the timing);
//   resident/  points already on the device, one subgroup_first_bad_async launch (the kernel alone).
// Each size is checked before it is timed: the clean array must give "no failure" (n) and the
// same array with one point outside the subgroup at index 2n/3 + 1 must give that index. Then 5
// calls are timed with CUDA events on the calling stream and the median reported (manual time).
// The points are 2^14 distinct subgroup points tiled (a point's cost does not depend on which
// multiple of the generator it is). At the end the program prints an extrapolation, stated as
// such, of the streamed rates at the largest size to a 44 GiB .params file.
//
//   build/benchmarks/bench_subgroup_device --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"
#include "cuzk/ec/batch_normalize.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/gpu/device_buffer.hpp"
#include "cuzk/gpu/event.hpp"
#include "cuzk/gpu/stream.hpp"
#include "cuzk/io/subgroup_check_device.cuh"

namespace {

using namespace cuzk;

unsigned env_or(const char* name, unsigned dflt) {
    const char* v = std::getenv(name);
    return v != nullptr && *v != '\0' ? unsigned(std::strtoul(v, nullptr, 10)) : dflt;
}

constexpr size_t pool_size = size_t(1) << 14;
constexpr int timed_reps = 5;

/// pool_size distinct subgroup points: running sums of [k]G for a few random k.
template <class G>
std::vector<affine<G>> point_pool(uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<jacobian<G>> steps;
    for (int i = 0; i < 4; ++i)
        steps.push_back(mul_vartime(jacobian<G>::generator(), G::scalar::random(rng).to_canonical()));
    std::vector<jacobian<G>> acc(pool_size);
    jacobian<G> s = steps[0];
    for (size_t i = 0; i < pool_size; ++i) acc[i] = s = s + steps[i % steps.size()];
    return batch_normalize<jacobian<G>>(std::span<const jacobian<G>>(acc));
}

/// A point on the curve outside the subgroup: random x until x^3 + b is a square.
template <class G>
affine<G> off_subgroup_point() {
    std::mt19937_64 rng(7);
    for (;;) {
        const auto x = G::field::random(rng);
        const auto y = (x.square() * x + G::b).sqrt();
        if (!y) continue;
        const affine<G> q{x, *y};
        if (!is_in_subgroup(q)) return q;
    }
}

template <class G>
std::vector<affine<G>>& tiled(unsigned lg) {
    static std::vector<affine<G>> v;
    static const std::vector<affine<G>> pool = point_pool<G>(11);
    const size_t n = size_t(1) << lg;
    if (v.size() != n) {
        v.resize(n);
        for (size_t i = 0; i < n; i += pool_size) std::copy_n(pool.begin(), std::min(pool_size, n - i), v.begin() + i);
    }
    return v;
}

/// The streamed rates (points/s, median) at each size, for the extrapolation.
std::map<std::string, std::map<unsigned, double>>& streamed_rates() {
    static std::map<std::string, std::map<unsigned, double>> r;
    return r;
}

template <class F>
std::vector<double> time_calls(cudaStream_t s, F&& call) {
    std::vector<double> ms;
    for (int r = 0; r < timed_reps; ++r) {
        gpu::event a, b;
        a.record(s);
        call();
        b.record(s);
        b.synchronize();
        ms.push_back(b.elapsed_ms_since(a));
    }
    std::sort(ms.begin(), ms.end());
    return ms;
}

void report(benchmark::State& state, const std::vector<double>& ms, size_t n, size_t point_bytes) {
    const double med = ms[ms.size() / 2];
    state.SetIterationTime(med / 1e3);
    state.counters["median_ms"] = med;
    state.counters["min_ms"] = ms.front();
    state.counters["max_ms"] = ms.back();
    state.counters["Mpoints_s"] = double(n) / (med / 1e3) / 1e6;
    state.counters["GB_s"] = double(n) * double(point_bytes) / (med / 1e3) / 1e9;
}

template <class G>
void bm_streamed(benchmark::State& state, std::string name) {
    const unsigned lg = unsigned(state.range(0));
    const size_t n = size_t(1) << lg;
    auto& pts = tiled<G>(lg);
    gpu::stream s;
    // Made once, as the reader's hook makes it (page-locking the slots is not part of a check).
    auto staging = subgroup_staging::for_group<G>();
    for (auto _ : state) {
        const std::span<const affine<G>> all(pts);
        if (first_not_in_subgroup_device<G>(all, s, staging) != n) {
            state.SkipWithError("a subgroup point was rejected");
            return;
        }
        const size_t at = 2 * n / 3 + 1;
        const affine<G> keep = pts[at];
        pts[at] = off_subgroup_point<G>();
        const uint64_t got = first_not_in_subgroup_device<G>(all, s, staging);
        pts[at] = keep;
        if (got != at) {
            state.SkipWithError("the point outside the subgroup was not the one reported");
            return;
        }
        const auto ms = time_calls(s, [&] { benchmark::DoNotOptimize(first_not_in_subgroup_device<G>(all, s, staging)); });
        report(state, ms, n, sizeof(affine<G>));
        streamed_rates()[name][lg] = double(n) / (ms[ms.size() / 2] / 1e3);
    }
}

template <class G>
void bm_resident(benchmark::State& state) {
    const unsigned lg = unsigned(state.range(0));
    const size_t n = size_t(1) << lg;
    const auto& pts = tiled<G>(lg);
    gpu::stream s;
    gpu::device_buffer<affine<G>> d(n, s);
    gpu::device_buffer<unsigned long long> first(1, s);
    CUZK_CUDA_CHECK(cudaMemcpyAsync(d.data(), pts.data(), d.bytes(), cudaMemcpyHostToDevice, s));
    auto run = [&] {
        const unsigned long long none = n;
        CUZK_CUDA_CHECK(cudaMemcpyAsync(first.data(), &none, sizeof(none), cudaMemcpyHostToDevice, s));
        subgroup_first_bad_async<G>(first.data(), d.data(), n, 0, s);
        unsigned long long got = 0;
        CUZK_CUDA_CHECK(cudaMemcpyAsync(&got, first.data(), sizeof(got), cudaMemcpyDeviceToHost, s));
        s.synchronize();
        return uint64_t(got);
    };
    for (auto _ : state) {
        if (run() != n) {
            state.SkipWithError("a subgroup point was rejected");
            return;
        }
        const size_t at = 2 * n / 3 + 1;
        const affine<G> bad = off_subgroup_point<G>();
        CUZK_CUDA_CHECK(cudaMemcpyAsync(d.data() + at, &bad, sizeof(bad), cudaMemcpyHostToDevice, s));
        const uint64_t got = run();
        CUZK_CUDA_CHECK(cudaMemcpyAsync(d.data() + at, &pts[at], sizeof(bad), cudaMemcpyHostToDevice, s));
        s.synchronize();
        if (got != at) {
            state.SkipWithError("the point outside the subgroup was not the one reported");
            return;
        }
        const auto ms = time_calls(s, [&] { benchmark::DoNotOptimize(run()); });
        report(state, ms, n, sizeof(affine<G>));
    }
}

template <class G>
void register_group(const std::string& name, unsigned lo, unsigned hi, unsigned step) {
    auto* a = benchmark::RegisterBenchmark(("streamed/" + name).c_str(),
                                           [name](benchmark::State& st) { bm_streamed<G>(st, name); });
    auto* b = benchmark::RegisterBenchmark(("resident/" + name).c_str(), bm_resident<G>);
    for (auto* x : {a, b}) {
        for (unsigned lg = lo; lg <= hi; lg += step) x->Arg(int(lg));
        x->ArgName("lg")->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
    }
}

/// 44 GiB as five sections of N points each (H, L, A, B_G1 in G1 at 96 bytes; B_G2 in G2 at 192:
/// 576 bytes a variable), N = 44 GiB / 576 bytes, checked at the streamed rates of the largest
/// size measured. The section shape is an assumption: a real file's A and B are density-compressed
/// and H is a power of two, but the G1/G2 split of its bytes is close to this.
void print_extrapolation() {
    auto& r = streamed_rates();
    if (!r.count("bls12_381_g1") || !r.count("bls12_381_g2")) return;
    const auto g1 = r["bls12_381_g1"].rbegin(), g2 = r["bls12_381_g2"].rbegin();
    const double n = 44.0 * double(uint64_t(1) << 30) / 576.0;
    const double s = 4 * n / g1->second + n / g2->second;
    std::printf(
        "extrapolation (not measured): a 44 GiB .params file as 5 sections of %.1fM points (4 G1, 1 G2), at the "
        "streamed rates of 2^%u G1 (%.2f Mpoints/s) and 2^%u G2 (%.2f Mpoints/s): %.0f s for the subgroup check\n",
        n / 1e6, g1->first, g1->second / 1e6, g2->first, g2->second / 1e6, s);
}

}  // namespace

int main(int argc, char** argv) {
    const unsigned lo = env_or("CUZK_SUBGROUP_LOG_MIN", 20), hi = env_or("CUZK_SUBGROUP_LOG_MAX", 24);
    const unsigned step = std::max(1u, env_or("CUZK_SUBGROUP_LOG_STEP", 2));
    register_group<bls12_381::g1>("bls12_381_g1", lo, hi, step);
    register_group<bls12_381::g2>("bls12_381_g2", lo, hi, step);
    register_group<bn254::g2>("bn254_g2", lo, hi, step);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    print_extrapolation();
    return 0;
}
