// SPDX-License-Identifier: MIT OR Apache-2.0
// Device field multiplication throughput over the whole GPU (multiplications per second), and
// the two inversions (Fermat, binary GCD): throughput and single-thread latency.
//
// Each thread runs `chains` independent dependency chains x_c <- x_c * y (or x_c <- x_c^2)
// for `iters` steps; the grid is one full wave of resident blocks on every SM (occupancy
// from the CUDA API), so the IMAD pipes stay busy and no tail effect dilutes the rate. Each
// launch is timed with CUDA events after a warm-up launch; the reported rate (counter
// mul_per_s) uses the median of 9 launches. The chains' results are written out (so the
// compiler keeps the work) and two threads' chains are recomputed on the host and compared
// bit for bit before any number is reported.
//
// "cuzk" is the library's mont_mul / mont_sqr; "variant_cios" and "variant_karatsuba" are the
// two multiplication strategies mont_mul chooses between; "baseline" is the straightforward
// CIOS multiply this library started with (separate lo and hi carry chains per row), kept
// here only as the reference that docs/PERFORMANCE.md compares against.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"
#include "cuzk/gpu/cuda_error.hpp"

namespace {

using namespace cuzk;

// ---- the reference: the original straightforward CIOS (commit 2ee9147) ---------------------
namespace baseline {

template <class Config>
__device__ __forceinline__ void mont_mul(bigint<Config::limbs>& out, const bigint<Config::limbs>& a,
                                         const bigint<Config::limbs>& b) {
    constexpr size_t n = 2 * Config::limbs;
    constexpr uint32_t inv = uint32_t(Config::mont_inv64);
    const uint32_t* p = device_arith::modulus32<Config>();
    auto x = device_arith::split(a), y = device_arith::split(b);
    uint32_t t[n + 2];
#pragma unroll
    for (size_t j = 0; j < n + 2; ++j) t[j] = 0;
#pragma unroll
    for (size_t i = 0; i < n; ++i) {
        const uint32_t bi = y.w[i];
        asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[0]) : "r"(x.w[0]), "r"(bi));
#pragma unroll
        for (size_t j = 1; j < n; ++j) asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[j]) : "r"(x.w[j]), "r"(bi));
        asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(t[n]));
        asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[n + 1]));
        asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[1]) : "r"(x.w[0]), "r"(bi));
#pragma unroll
        for (size_t j = 1; j < n; ++j) asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[j + 1]) : "r"(x.w[j]), "r"(bi));
        asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[n + 1]));
        const uint32_t m = t[0] * inv;
        asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[0]) : "r"(m), "r"(p[0]));
#pragma unroll
        for (size_t j = 1; j < n; ++j) asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[j]) : "r"(m), "r"(p[j]));
        asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(t[n]));
        asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[n + 1]));
        asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[1]) : "r"(m), "r"(p[0]));
#pragma unroll
        for (size_t j = 1; j < n; ++j) asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[j + 1]) : "r"(m), "r"(p[j]));
        asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[n + 1]));
#pragma unroll
        for (size_t j = 0; j <= n; ++j) t[j] = t[j + 1];
        t[n + 1] = 0;
    }
    uint32_t r[n];
#pragma unroll
    for (size_t j = 0; j < n; ++j) r[j] = t[j];
    device_arith::reduce_once<Config>(r);  // t[n] is 0: the result is below 2p < 2^(32n)
    out = device_arith::join<Config::limbs>(r);
}

}  // namespace baseline

// ---- the operations timed ------------------------------------------------------------------

enum class op { mul, sqr, mul_baseline, mul_cios, mul_karatsuba, inv_fermat, inv_vartime };

constexpr bool is_inversion(op o) { return o == op::inv_fermat || o == op::inv_vartime; }

template <class F, op Op>
__device__ __forceinline__ F step(const F& x, const F& y) {
    using P = typename F::params;
    using device_arith::detail::mul_algo;
    F r{};
    if constexpr (Op == op::mul) r = x * y;
    else if constexpr (Op == op::sqr) r = x.square();
    else if constexpr (Op == op::mul_baseline) baseline::mont_mul<P>(r.mont, x.mont, y.mont);
    else if constexpr (Op == op::mul_cios) device_arith::detail::mont_mul_with<P, mul_algo::cios>(r.mont, x.mont, y.mont);
    else if constexpr (Op == op::mul_karatsuba) device_arith::detail::mont_mul_with<P, mul_algo::karatsuba>(r.mont, x.mont, y.mont);
    else if constexpr (Op == op::inv_fermat) r = x.inverse() + y;  // + y keeps the chain off a fixed point
    else r = x.inverse_vartime() + y;
    return r;
}

template <class F, op Op>
F host_step(const F& x, const F& y) {
    if constexpr (is_inversion(Op)) return x.inverse() + y;
    return Op == op::sqr ? x.square() : x * y;
}

template <class F, op Op, int chains>
__global__ void __launch_bounds__(256) chain_kernel(const F* in, F* out, int iters) {
    const size_t t = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
    F x[chains];
#pragma unroll
    for (int c = 0; c < chains; ++c) x[c] = in[chains * t + c];
    const F y = in[chains * t] + F::one();
#pragma unroll 1
    for (int k = 0; k < iters; ++k) {
#pragma unroll
        for (int c = 0; c < chains; ++c) x[c] = step<F, Op>(x[c], y);
    }
#pragma unroll
    for (int c = 0; c < chains; ++c) out[chains * t + c] = x[c];
}

template <class F, op Op, int chains>
void BM_chain(benchmark::State& state) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        state.SkipWithError("no CUDA device");
        return;
    }
    const int iters = int(state.range(0));
    int sms = 0, per_sm = 0;
    CUZK_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int block = int(state.range(1));
    CUZK_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, chain_kernel<F, Op, chains>, block, 0));
    // One full wave; block 1 (one thread) measures a single chain's latency instead.
    const int grid = block == 1 ? 1 : sms * std::max(per_sm, 1);
    const size_t threads = size_t(grid) * block;

    std::mt19937_64 rng(42);
    std::vector<F> in(chains * threads);
    for (auto& v : in) v = F::random(rng);
    F *din = nullptr, *dout = nullptr;
    CUZK_CUDA_CHECK(cudaMalloc(&din, in.size() * sizeof(F)));
    CUZK_CUDA_CHECK(cudaMalloc(&dout, in.size() * sizeof(F)));
    CUZK_CUDA_CHECK(cudaMemcpy(din, in.data(), in.size() * sizeof(F), cudaMemcpyHostToDevice));
    cudaEvent_t start, stop;
    CUZK_CUDA_CHECK(cudaEventCreate(&start));
    CUZK_CUDA_CHECK(cudaEventCreate(&stop));

    chain_kernel<F, Op, chains><<<grid, block>>>(din, dout, iters);  // warm-up
    CUZK_CUDA_CHECK_LAUNCH("chain_kernel");
    CUZK_CUDA_CHECK(cudaDeviceSynchronize());

    // Correctness: recompute the chains of the first and last thread on the host.
    std::vector<F> out(in.size());
    CUZK_CUDA_CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(F), cudaMemcpyDeviceToHost));
    for (size_t t : {size_t(0), threads - 1}) {
        const F y = in[chains * t] + F::one();
        for (int c = 0; c < chains; ++c) {
            F x = in[chains * t + c];
            for (int k = 0; k < iters; ++k) x = host_step<F, Op>(x, y);
            if (std::memcmp(&x, &out[chains * t + c], sizeof(F)) != 0) {
                state.SkipWithError("device chain result differs from the host");
                return;
            }
        }
    }

    std::vector<double> ms;
    for (auto _ : state) {
        CUZK_CUDA_CHECK(cudaEventRecord(start));
        chain_kernel<F, Op, chains><<<grid, block>>>(din, dout, iters);
        CUZK_CUDA_CHECK(cudaEventRecord(stop));
        CUZK_CUDA_CHECK(cudaEventSynchronize(stop));
        float t = 0;
        CUZK_CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
        ms.push_back(t);
        state.SetIterationTime(t / 1e3);
    }
    CUZK_CUDA_CHECK_LAUNCH("chain_kernel");
    std::sort(ms.begin(), ms.end());
    const double median_s = ms[ms.size() / 2] / 1e3;
    const double muls = double(threads) * chains * iters;
    state.counters[is_inversion(Op) ? "inv_per_s" : "mul_per_s"] = muls / median_s;
    if (block == 1) state.counters["latency_us"] = median_s * 1e6 / iters;
    state.counters["median_ms"] = median_s * 1e3;
    state.counters["grid"] = grid;
    state.counters["blocks_per_sm"] = per_sm;
    state.SetItemsProcessed(int64_t(muls) * state.iterations());
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(din);
    cudaFree(dout);
}

// Arguments: chain length, threads per block. Each op runs with 1 and 2 chains per thread
// and 128- and 256-thread blocks (the best of the four is the GPU's rate; the spread shows
// how sensitive the kernel is to occupancy and code size).
#define CUZK_CHAIN_BENCH(F, O, label)                                                      \
    BENCHMARK(BM_chain<F, op::O, 1>)->Name(label "/chains:1")->Args({2048, 128})->Args({2048, 256})->Iterations(9)->UseManualTime(); \
    BENCHMARK(BM_chain<F, op::O, 2>)->Name(label "/chains:2")->Args({1024, 128})->Args({1024, 256})->Iterations(9)->UseManualTime()
// Inversions: throughput over a full wave (every lane inverting its own values: the binary GCD
// diverges inside a warp), and the latency of one chain on one thread (what a block waits for
// when one lane inverts a batch's product).
#define CUZK_INVERSE_BENCH(F, O, label)                                                                       \
    BENCHMARK(BM_chain<F, op::O, 1>)->Name(label "/chains:1")->Args({16, 128})->Args({16, 256})->Iterations(9)->UseManualTime(); \
    BENCHMARK(BM_chain<F, op::O, 1>)->Name(label "/latency")->Args({64, 1})->Iterations(5)->UseManualTime()
#define CUZK_FIELD_BENCH(F, label)                                          \
    CUZK_CHAIN_BENCH(F, mul, label "/mul/cuzk");                            \
    CUZK_CHAIN_BENCH(F, sqr, label "/sqr/cuzk");                            \
    CUZK_CHAIN_BENCH(F, mul_baseline, label "/mul/baseline");               \
    CUZK_CHAIN_BENCH(F, mul_cios, label "/mul/variant_cios");               \
    CUZK_CHAIN_BENCH(F, mul_karatsuba, label "/mul/variant_karatsuba");     \
    CUZK_INVERSE_BENCH(F, inv_fermat, label "/inverse/fermat");             \
    CUZK_INVERSE_BENCH(F, inv_vartime, label "/inverse/binary_gcd");

CUZK_FIELD_BENCH(bls12_381::fp, "bls12_381_fp")
CUZK_FIELD_BENCH(bls12_381::fr, "bls12_381_fr")
CUZK_FIELD_BENCH(bn254::fq, "bn254_fq")
CUZK_FIELD_BENCH(bn254::fr, "bn254_fr")

}  // namespace

BENCHMARK_MAIN();
