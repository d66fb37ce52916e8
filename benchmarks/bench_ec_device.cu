// SPDX-License-Identifier: MIT OR Apache-2.0
// Device point-arithmetic throughput over the whole GPU, per curve group.
//
//   xyzz_mixed_add   acc <- acc + P[j] (affine P read from global memory): the MSM bucket step
//   xyzz_add         acc <- acc + Q[j] (XYZZ Q from global memory): bucket merging
//   jacobian_add     acc <- acc + R[j] (Jacobian R from global memory)
//   mul_constant_time, mul_vartime: one full scalar multiplication per thread
// The grid is one full wave of resident blocks (occupancy from the CUDA API). Each launch is
// timed with CUDA events after a warm-up launch; the rate (counter ops_per_s) uses the median
// of 7 launches. Before a number is reported, a sample of threads is recomputed on the host
// and compared bit for bit (a mismatch reports an error instead of a number). The kernels are
// test_ec_device's, compiled once for both (tests/ec_device_kernels.hpp).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"
#include "cuzk/ec/batch_normalize.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/ec/xyzz.hpp"
#include "cuzk/gpu/cuda_error.hpp"
#include "ec_device_kernels.hpp"

namespace {

using namespace cuzk;

constexpr size_t table_size = 1 << 14;  // distinct input points (power of two)

using ec_kernels::op;

/// The table walk of every chain: thread tid starts at (tid * 40503) mod table_size and adds
/// the next `iters` table entries (the kernels are shared with test_ec_device,
/// tests/ec_device_kernels.hpp).
ec_kernels::chain_shape walk(unsigned iters) {
    return {.iters = iters, .stride = 40503, .offset = 1, .mask = table_size - 1};
}

template <class T>
T* to_device(const std::vector<T>& h) {
    T* d = nullptr;
    CUZK_CUDA_CHECK(cudaMalloc(&d, h.size() * sizeof(T)));
    CUZK_CUDA_CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

template <class G>
struct tables {
    std::vector<affine<G>> a;
    std::vector<xyzz<G>> x;
    std::vector<jacobian<G>> j;
    std::vector<typename G::scalar> k;
    affine<G>* da = nullptr;
    xyzz<G>* dx = nullptr;
    jacobian<G>* dj = nullptr;
    typename G::scalar* dk = nullptr;
    tables() {
        std::mt19937_64 rng(7);
        jacobian<G> w = mul_vartime(jacobian<G>::generator(), G::scalar::random(rng));
        const jacobian<G> step = mul_vartime(jacobian<G>::generator(), G::scalar::random(rng));
        for (size_t i = 0; i < table_size; ++i) {
            w += step;
            j.push_back(w);
            x.push_back(to_xyzz(w.dbl()));
            k.push_back(G::scalar::random(rng));
        }
        a = batch_normalize(std::span<const jacobian<G>>(j));
        da = to_device(a);
        dx = to_device(x);
        dj = to_device(j);
        dk = to_device(k);
    }
    ~tables() {
        cudaFree(da);
        cudaFree(dx);
        cudaFree(dj);
        cudaFree(dk);
    }
    static tables& get() {
        static tables t;
        return t;
    }
};

bool have_gpu() {
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

/// Times `launch` (warm-up + 7 timed launches) and returns the median in seconds.
template <class Launch>
double median_seconds(Launch&& launch) {
    cudaEvent_t e0, e1;
    CUZK_CUDA_CHECK(cudaEventCreate(&e0));
    CUZK_CUDA_CHECK(cudaEventCreate(&e1));
    launch();
    CUZK_CUDA_CHECK(cudaDeviceSynchronize());  // benchmark harness only, not library code
    std::vector<double> t;
    for (int r = 0; r < 7; ++r) {
        CUZK_CUDA_CHECK(cudaEventRecord(e0));
        launch();
        CUZK_CUDA_CHECK(cudaEventRecord(e1));
        CUZK_CUDA_CHECK(cudaEventSynchronize(e1));
        float ms = 0;
        CUZK_CUDA_CHECK(cudaEventElapsedTime(&ms, e0, e1));
        t.push_back(ms * 1e-3);
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

template <class T>
bool same_bytes(const T& a, const T& b) {
    return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class G, op O>
void BM_chain(benchmark::State& state) {
    if (!have_gpu()) {
        state.SkipWithError("no CUDA device");
        return;
    }
    using T = ec_kernels::op_types<G, O>;
    using Acc = typename T::acc;
    auto& tb = tables<G>::get();
    const ec_kernels::chain_shape shape = walk(unsigned(state.range(0)));
    // the start table has the accumulator's type; what is added is affine, XYZZ or Jacobian
    const Acc *first = nullptr, *h_first = nullptr;
    const typename T::addend *second = nullptr, *h_second = nullptr;
    if constexpr (T::xyzz_acc) {
        first = tb.dx, h_first = tb.x.data();
    } else {
        first = tb.dj, h_first = tb.j.data();
    }
    if constexpr (T::mixed) {
        second = tb.da, h_second = tb.a.data();
    } else if constexpr (!T::doubling) {
        second = first, h_second = h_first;
    }
    int dev = 0, sms = 0;
    constexpr int block = 128;
    CUZK_CUDA_CHECK(cudaGetDevice(&dev));
    CUZK_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    const int per_sm = ec_kernels::chain_blocks_per_sm<G, O>(block);
    const size_t blocks = size_t(sms) * std::max(per_sm, 1), threads = blocks * block;
    Acc* out = nullptr;
    CUZK_CUDA_CHECK(cudaMalloc(&out, threads * sizeof(Acc)));
    auto launch = [&] {
        ec_kernels::launch_chain<G, O>(unsigned(blocks), block, 0, threads, shape, first, second, out);
    };
    double sec = 0;
    for (auto _ : state) {
        sec = median_seconds(launch);
        state.SetIterationTime(sec);
    }
    // bit-for-bit check of a sample of threads against the host
    std::vector<Acc> got(threads);
    CUZK_CUDA_CHECK(cudaMemcpy(got.data(), out, threads * sizeof(Acc), cudaMemcpyDeviceToHost));
    cudaFree(out);
    for (size_t tid : {size_t(0), threads / 3, threads - 1}) {
        Acc want = ec_kernels::chain<G, O>(tid, shape, h_first, h_second);
        if (!same_bytes(want, got[tid])) {
            state.SkipWithError("device result differs from the host");
            return;
        }
    }
    state.counters["ops_per_s"] = double(threads) * shape.iters / sec;
    state.counters["threads"] = double(threads);
    state.counters["occupancy_blocks_per_sm"] = per_sm;
}

template <class G, bool CT>
void BM_mul(benchmark::State& state) {
    if (!have_gpu()) {
        state.SkipWithError("no CUDA device");
        return;
    }
    auto& tb = tables<G>::get();
    int dev = 0, sms = 0;
    constexpr int block = 64;
    CUZK_CUDA_CHECK(cudaGetDevice(&dev));
    CUZK_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    const int per_sm = ec_kernels::mul_blocks_per_sm<G, CT>(block);
    const size_t blocks = size_t(sms) * std::max(per_sm, 1), threads = blocks * block;
    jacobian<G>* out = nullptr;
    CUZK_CUDA_CHECK(cudaMalloc(&out, threads * sizeof(jacobian<G>)));
    auto launch = [&] {
        ec_kernels::launch_mul<G, CT>(unsigned(blocks), block, 0, threads, table_size - 1, tb.dj, tb.dk, out);
    };
    double sec = 0;
    for (auto _ : state) {
        sec = median_seconds(launch);
        state.SetIterationTime(sec);
    }
    std::vector<jacobian<G>> got(threads);
    CUZK_CUDA_CHECK(cudaMemcpy(got.data(), out, threads * sizeof(jacobian<G>), cudaMemcpyDeviceToHost));
    cudaFree(out);
    for (size_t tid : {size_t(0), threads / 2, threads - 1}) {
        const size_t i = tid & (table_size - 1);
        jacobian<G> want = CT ? mul(tb.j[i], tb.k[i]) : mul_vartime(tb.j[i], tb.k[i]);
        if (!same_bytes(want, got[tid])) {
            state.SkipWithError("device result differs from the host");
            return;
        }
    }
    state.counters["ops_per_s"] = double(threads) / sec;
    state.counters["threads"] = double(threads);
}

// Kept to the shapes the MSM and prover use (nvcc needs minutes per inlined G1 formula on
// the 2-core build machine): every op for BLS12-381, the bucket step for BN254.
#define CUZK_EC_DEVICE_CHAIN(G, O, name) \
    BENCHMARK(BM_chain<G, op::O>)->Name(name)->Arg(64)->UseManualTime()->Iterations(1)

CUZK_EC_DEVICE_CHAIN(bls12_381::g1, xyzz_mixed_add, "xyzz_mixed_add/bls12_381_g1");
CUZK_EC_DEVICE_CHAIN(bls12_381::g1, xyzz_add, "xyzz_add/bls12_381_g1");
CUZK_EC_DEVICE_CHAIN(bls12_381::g1, jacobian_add, "jacobian_add/bls12_381_g1");
CUZK_EC_DEVICE_CHAIN(bls12_381::g2, xyzz_mixed_add, "xyzz_mixed_add/bls12_381_g2");
CUZK_EC_DEVICE_CHAIN(bls12_381::g2, xyzz_add, "xyzz_add/bls12_381_g2");
CUZK_EC_DEVICE_CHAIN(bls12_381::g2, jacobian_add, "jacobian_add/bls12_381_g2");
CUZK_EC_DEVICE_CHAIN(bn254::g1, xyzz_mixed_add, "xyzz_mixed_add/bn254_g1");
CUZK_EC_DEVICE_CHAIN(bn254::g2, xyzz_mixed_add, "xyzz_mixed_add/bn254_g2");
BENCHMARK(BM_mul<bls12_381::g1, true>)->Name("mul_constant_time/bls12_381_g1")->UseManualTime()->Iterations(1);
BENCHMARK(BM_mul<bls12_381::g1, false>)->Name("mul_vartime/bls12_381_g1")->UseManualTime()->Iterations(1);
BENCHMARK(BM_mul<bls12_381::g2, true>)->Name("mul_constant_time/bls12_381_g2")->UseManualTime()->Iterations(1);
BENCHMARK(BM_mul<bls12_381::g2, false>)->Name("mul_vartime/bls12_381_g2")->UseManualTime()->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
