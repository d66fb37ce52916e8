// SPDX-License-Identifier: MIT OR Apache-2.0
// Device MSM benchmark body shared by bench_msm_device.cu (G1) and bench_msm_device_g2.cu (G2):
// device-resident points and uniform random full-width scalars, as the sppark anchors were
// measured (docs/PERFORMANCE.md), so that the two compare.
//
// Sizes: 2^CUZK_MSM_LOG_MIN .. 2^CUZK_MSM_LOG_MAX (environment; default 10..26, G2 up to
// CUZK_MSM_G2_LOG_MAX, default 24). Each size is verified against the closed form of the
// progression point set before it is timed (the verification call doubles as the warm-up);
// a mismatch aborts the benchmark with an error. Time per call is wall time of msm_device
// (kernels, the window-sum copy and the host-side Horner step): use
// --benchmark_repetitions=7 --benchmark_report_aggregates_only=true for medians.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "../tests/test_msm_util.hpp"
#include "cuzk/gpu/device_buffer.hpp"
#include "cuzk/gpu/stream.hpp"
#include "cuzk/msm/fixed_bases.cuh"
#include "cuzk/msm/pippenger_device.cuh"
#include "cuzk/msm/streamed_bases.cuh"
#include "cuzk/msm/witness_device.cuh"

namespace msm_bench {

using namespace cuzk;
using namespace msm_test;

unsigned env_or(const char* name, unsigned dflt) {
    const char* v = std::getenv(name);
    return v != nullptr ? unsigned(std::atoi(v)) : dflt;
}

/// Inputs for the largest size of a group, shared by all its sizes (prefixes).
template <class G>
struct inputs {
    gpu::stream st;
    progression<G> prog = progression<G>::make(2026, 1024);
    std::vector<scalar_int<G>> scalars;
    gpu::device_buffer<affine<G>> points;
    gpu::device_buffer<scalar_int<G>> dscalars;
    size_t n = 0;

    void ensure(size_t want) {
        if (want <= n) return;
        scalars.resize(want);
        std::mt19937_64 rng(7);
        for (auto& s : scalars) s = random_scalar<G>(rng);
        points = gpu::device_buffer<affine<G>>(want, st);
        dscalars = gpu::device_buffer<scalar_int<G>>(want, st);
        progression_points_device<G>(prog, points.data(), want, st);
        CUZK_CUDA_CHECK_LAUNCH("progression_points_kernel");
        dscalars.upload(scalars.data(), st);
        st.synchronize();
        n = want;
    }
    static inline size_t max_n = 0;  // the largest size registered: generated once
    static inputs& get() {
        static inputs in;
        return in;
    }
};

/// The plain MSM of 2^range(0) points with options opt.
template <class G>
void run_plain(benchmark::State& state, const msm::device_options& opt) {
    const size_t n = size_t(1) << state.range(0);
    auto& in = inputs<G>::get();
    in.ensure(std::max(n, inputs<G>::max_n));
    const msm::detail::device_plan<G> plan(n, opt);  // the workspace size and the accumulation chosen
    const size_t bytes = plan.total;
    gpu::device_buffer<char> ws(bytes, in.st);
    jacobian<G> got = msm::msm_device<G>(in.points.data(), in.dscalars.data(), n, ws.data(), bytes, in.st, opt);
    const jacobian<G> want = in.prog.expected(std::span<const scalar_int<G>>(in.scalars.data(), n));
    if (!(got == want)) {
        state.SkipWithError("MSM result differs from the closed form");
        return;
    }
    for (auto _ : state) {
        auto t0 = std::chrono::steady_clock::now();
        jacobian<G> r = msm::msm_device<G>(in.points.data(), in.dscalars.data(), n, ws.data(), bytes, in.st, opt);
        auto t1 = std::chrono::steady_clock::now();
        benchmark::DoNotOptimize(r);
        state.SetIterationTime(std::chrono::duration<double>(t1 - t0).count());
    }
    state.counters["verified"] = 1;
    state.counters["window_bits"] = msm::device_window_bits(n, G::scalar::modulus_bits);
    state.counters["batch_affine"] = plan.batch_affine;
    state.counters["workspace_MiB"] = double(bytes) / (1 << 20);
    in.st.synchronize();
}

/// The plain MSM with the dispatcher's choices.
template <class G>
void BM_msm_device(benchmark::State& state) {
    run_plain<G>(state, {});
}

/// The plain MSM with the bucket accumulation forced: range(1) 0 XYZZ, 1 batch-affine.
template <class G>
void BM_msm_accumulation(benchmark::State& state) {
    using acc = msm::device_options::accumulation;
    run_plain<G>(state, {.accumulate = state.range(1) != 0 ? acc::batch_affine : acc::xyzz});
}

/// The same MSM with a table of shifted bases (msm/fixed_bases.cuh) built for this size
/// (not timed; its build time and size are reported as counters).
template <class G>
void BM_msm_device_fixed(benchmark::State& state) {
    const size_t n = size_t(1) << state.range(0);
    auto& in = inputs<G>::get();
    in.ensure(std::max(n, inputs<G>::max_n));
    auto t0 = std::chrono::steady_clock::now();
    msm::fixed_bases<G> table(in.points.data(), n, in.st);
    in.st.synchronize();
    const double build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const size_t bytes = msm::msm_device_workspace_bytes(table, n);
    gpu::device_buffer<char> ws(bytes, in.st);
    jacobian<G> got = msm::msm_device(table, in.dscalars.data(), n, ws.data(), bytes, in.st);
    if (!(got == in.prog.expected(std::span<const scalar_int<G>>(in.scalars.data(), n)))) {
        state.SkipWithError("fixed-bases MSM result differs from the closed form");
        return;
    }
    for (auto _ : state) {
        auto t1 = std::chrono::steady_clock::now();
        jacobian<G> r = msm::msm_device(table, in.dscalars.data(), n, ws.data(), bytes, in.st);
        auto t2 = std::chrono::steady_clock::now();
        benchmark::DoNotOptimize(r);
        state.SetIterationTime(std::chrono::duration<double>(t2 - t1).count());
    }
    state.counters["verified"] = 1;
    state.counters["window_bits"] = table.window_bits();
    state.counters["table_GiB"] = double(msm::fixed_bases<G>::bytes_for(n)) / (1 << 30);
    state.counters["table_build_s"] = build_s;
    in.st.synchronize();
}

/// The witness MSM (msm/witness_device.cuh) on witness-shaped scalars: a share bits% of 0s and
/// 1s (half each), the rest uniform; verified against the closed form, then timed like msm_device.
template <class G>
void BM_msm_witness(benchmark::State& state) {
    const size_t n = size_t(1) << state.range(0);
    const double bits = double(state.range(1)) / 100;
    auto& in = inputs<G>::get();
    in.ensure(std::max(n, inputs<G>::max_n));
    std::vector<scalar_int<G>> sc(n);
    std::mt19937_64 rng(9);
    std::uniform_real_distribution<double> u(0, 1);
    for (auto& x : sc) {
        const double v = u(rng);
        x = v < bits / 2 ? scalar_int<G>{} : v < bits ? scalar_int<G>::from_u64(1) : random_scalar<G>(rng);
    }
    gpu::device_buffer<scalar_int<G>> ds(n, in.st);
    ds.upload(sc.data(), in.st);
    const size_t bytes = msm::msm_witness_workspace_bytes<G>(n);
    gpu::device_buffer<char> ws(bytes, in.st);
    jacobian<G> got = msm::msm_witness_device<G>(in.points.data(), ds.data(), n, ws.data(), bytes, in.st);
    if (!(got == in.prog.expected(std::span<const scalar_int<G>>(sc)))) {
        state.SkipWithError("witness MSM result differs from the closed form");
        return;
    }
    for (auto _ : state) {
        auto t0 = std::chrono::steady_clock::now();
        jacobian<G> r = msm::msm_witness_device<G>(in.points.data(), ds.data(), n, ws.data(), bytes, in.st);
        auto t1 = std::chrono::steady_clock::now();
        benchmark::DoNotOptimize(r);
        state.SetIterationTime(std::chrono::duration<double>(t1 - t0).count());
    }
    state.counters["verified"] = 1;
    in.st.synchronize();
}

/// The witness MSM (90% bits) over bases kept in page-locked host memory and streamed to the
/// device in chunks of 2^range(1) points (msm/streamed_bases.cuh): what proving within a small
/// VRAM budget costs against msm_witness/lg/bits_pct:90 (the bases resident). Verified first.
template <class G>
void BM_msm_streamed(benchmark::State& state) {
    const size_t n = size_t(1) << state.range(0), chunk = size_t(1) << state.range(1);
    auto& in = inputs<G>::get();
    in.ensure(std::max(n, inputs<G>::max_n));
    std::vector<affine<G>> host(n);
    CUZK_CUDA_CHECK(
        cudaMemcpyAsync(host.data(), in.points.data(), n * sizeof(affine<G>), cudaMemcpyDeviceToHost, in.st));
    in.st.synchronize();
    CUZK_CUDA_CHECK(cudaHostRegister(host.data(), n * sizeof(affine<G>), cudaHostRegisterDefault));
    std::vector<scalar_int<G>> sc(n);
    std::mt19937_64 rng(9);
    std::uniform_real_distribution<double> u(0, 1);
    for (auto& x : sc) {
        const double v = u(rng);
        x = v < 0.45 ? scalar_int<G>{} : v < 0.9 ? scalar_int<G>::from_u64(1) : random_scalar<G>(rng);
    }
    gpu::device_buffer<scalar_int<G>> ds(n, in.st);
    ds.upload(sc.data(), in.st);
    const size_t ws_bytes = msm::msm_witness_workspace_bytes<G>(std::min(chunk, n));
    gpu::device_buffer<char> ws(ws_bytes, in.st), buffers(msm::streamed_bases_bytes<G>(std::min(chunk, n)), in.st);
    auto run = [&] {
        return msm::msm_streamed_bases<G>(host.data(), n, chunk, buffers.data(), buffers.bytes(), in.st,
                                          [&](const affine<G>* d, size_t first, size_t count) {
                                              return msm::msm_witness_device<G>(d, ds.data() + first, count, ws.data(),
                                                                                ws_bytes, in.st);
                                          });
    };
    if (!(run() == in.prog.expected(std::span<const scalar_int<G>>(sc)))) {
        CUZK_CUDA_CHECK(cudaHostUnregister(host.data()));
        state.SkipWithError("streamed MSM result differs from the closed form");
        return;
    }
    for (auto _ : state) {
        auto t0 = std::chrono::steady_clock::now();
        jacobian<G> r = run();
        auto t1 = std::chrono::steady_clock::now();
        benchmark::DoNotOptimize(r);
        state.SetIterationTime(std::chrono::duration<double>(t1 - t0).count());
    }
    state.counters["verified"] = 1;
    state.counters["device_MiB"] = double(ws_bytes + buffers.bytes()) / (1 << 20);
    CUZK_CUDA_CHECK(cudaHostUnregister(host.data()));
}

/// Rows {lg, chunk lg} of BM_msm_streamed.
template <class G>
void register_streamed(const char* name, std::initializer_list<std::pair<int, int>> rows) {
    auto* b = benchmark::RegisterBenchmark((std::string("msm_streamed/") + name).c_str(), BM_msm_streamed<G>);
    for (auto [lg, chunk] : rows) {
        b->Args({lg, chunk});
        inputs<G>::max_n = std::max(inputs<G>::max_n, size_t(1) << lg);
    }
    b->ArgNames({"lg", "chunk_lg"})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond)
        ->Iterations(env_or("CUZK_MSM_ITERS", 1));
}

/// The plain MSM on short scalars (uniform below 2^bits, device_options::scalar_bits = bits):
/// the shape an endomorphism split produces. GLS on G2 turns n full-width scalars into 4n of a
/// quarter of the bits (2n of half for GLV on G1), so comparing msm_short/lg+2/bits=64 with
/// msm_device/lg measures what the split can buy before the cost of computing the extra points.
template <class G>
void BM_msm_short(benchmark::State& state) {
    const size_t n = size_t(1) << state.range(0);
    const unsigned bits = unsigned(state.range(1));
    auto& in = inputs<G>::get();
    in.ensure(std::max(n, inputs<G>::max_n));
    std::vector<scalar_int<G>> sc(n);
    std::mt19937_64 rng(11);
    for (auto& x : sc) {
        x = scalar_int<G>{};
        for (unsigned b = 0; b < bits; b += 64) {
            const uint64_t w = rng();
            x.limb[b / 64] = bits - b >= 64 ? w : w & ((uint64_t(1) << (bits - b)) - 1);
        }
    }
    gpu::device_buffer<scalar_int<G>> ds(n, in.st);
    ds.upload(sc.data(), in.st);
    const msm::device_options opt{.scalar_bits = bits};
    const size_t bytes = msm::msm_device_workspace_bytes<G>(n, opt);
    gpu::device_buffer<char> ws(bytes, in.st);
    jacobian<G> got = msm::msm_device<G>(in.points.data(), ds.data(), n, ws.data(), bytes, in.st, opt);
    if (!(got == in.prog.expected(std::span<const scalar_int<G>>(sc)))) {
        state.SkipWithError("short-scalar MSM result differs from the closed form");
        return;
    }
    for (auto _ : state) {
        auto t0 = std::chrono::steady_clock::now();
        jacobian<G> r = msm::msm_device<G>(in.points.data(), ds.data(), n, ws.data(), bytes, in.st, opt);
        auto t1 = std::chrono::steady_clock::now();
        benchmark::DoNotOptimize(r);
        state.SetIterationTime(std::chrono::duration<double>(t1 - t0).count());
    }
    state.counters["verified"] = 1;
    state.counters["window_bits"] = msm::device_window_bits(n, bits);
    in.st.synchronize();
}

/// Rows {lg, bits} of BM_msm_short (the larger of lg and the group's sizes is generated once).
template <class G>
void register_short(const char* name, std::initializer_list<std::pair<int, int>> rows) {
    auto* b = benchmark::RegisterBenchmark((std::string("msm_short/") + name).c_str(), BM_msm_short<G>);
    for (auto [lg, bits] : rows) {
        b->Args({lg, bits});
        inputs<G>::max_n = std::max(inputs<G>::max_n, size_t(1) << lg);
    }
    b->ArgNames({"lg", "bits"})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond)
        ->Iterations(env_or("CUZK_MSM_ITERS", 1));
}

template <class G>
void register_witness(const char* name, unsigned log_max) {
    const unsigned lo = std::max(16u, env_or("CUZK_MSM_LOG_MIN", 10));
    auto* b = benchmark::RegisterBenchmark((std::string("msm_witness/") + name).c_str(), BM_msm_witness<G>);
    for (unsigned l = lo; l <= log_max; l += 2)
        for (int bits : {0, 90, 99}) b->Args({l, bits});
    b->ArgNames({"lg", "bits_pct"})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond)
        ->Iterations(env_or("CUZK_MSM_ITERS", 1));
}

template <class G>
void register_fixed(const char* name, unsigned log_max) {
    const unsigned lo = env_or("CUZK_MSM_LOG_MIN", 10);
    auto* b = benchmark::RegisterBenchmark((std::string("msm_device_fixed/") + name).c_str(), BM_msm_device_fixed<G>);
    for (unsigned l = lo; l <= log_max; l += 2) b->Arg(l);
    b->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(env_or("CUZK_MSM_ITERS", 1));
}

template <class G>
void register_group(const char* name, unsigned log_max) {
    const unsigned lo = env_or("CUZK_MSM_LOG_MIN", 10);
    inputs<G>::max_n = std::max(inputs<G>::max_n, size_t(1) << log_max);
    auto* b = benchmark::RegisterBenchmark((std::string("msm_device/") + name).c_str(), BM_msm_device<G>);
    for (unsigned l = lo; l <= log_max; l += 2) b->Arg(l);
    b->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(env_or("CUZK_MSM_ITERS", 1));
    // Both accumulations at every size: the data behind affine_min_items.
    auto* a = benchmark::RegisterBenchmark((std::string("msm_accumulation/") + name).c_str(), BM_msm_accumulation<G>);
    for (unsigned l = lo; l <= log_max; l += 2)
        for (int mode : {0, 1}) a->Args({l, mode});
    a->ArgNames({"lg", "batch_affine"})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond)
        ->Iterations(env_or("CUZK_MSM_ITERS", 1));
}

}  // namespace msm_bench
