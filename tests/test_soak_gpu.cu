// SPDX-License-Identifier: MIT OR Apache-2.0
// Soak on the GPU: many proofs at 2^16 on one resident CUDA prover (key and circuit resident,
// the shape of a long-running proving service), and the resources measured between proofs,
// outside the proving path:
//   - VRAM: the budget's accounting (gpu_context::budget().used()) and the device pool's live
//     bytes (cudaMemPoolAttrUsedMemCurrent) must return exactly to their post-warm-up level;
//     cudaMemGetInfo's use must stay within one proof's buffers of it (the pool may keep them);
//   - host: resident set, heap in use (mallinfo2), open descriptors and threads, as in
//     tests/test_soak_cpu.cpp (tolerances below).
// Proofs alternate between a, b, c evaluated on the GPU (prove(z)) and on the host (prove(cs, z):
// the staging ring's uploads), and in pairs between one cuda_worker kept for the whole run (its
// share of the budget and its buffers are part of the baseline) and a worker made per proof.
// Every proof is compared with the previous one (r, s fresh); the first, the last and every
// CUZK_SOAK_VERIFY_EVERY-th are verified (default 10: verification is on the CPU and would
// otherwise cost more than the proofs). Skipped without a GPU.
//
// CUZK_SOAK_PROOFS: measured proofs per curve (default 2000: long enough for a slow leak of a
// few bytes a proof to pass the tolerances).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>

#include "cuzk/groth16/cuda/prover.cuh"
#include "cuzk/groth16/synthetic_circuit.hpp"
#include "cuzk/groth16/cuda/test_setup.cuh"
#include "cuzk/groth16/verifier.hpp"
#include "device_memory.hpp"
#include "gpu_test.hpp"
#include "groth16_curves.hpp"
#include "process_resources.hpp"

namespace {

using namespace cuzk;
using namespace cuzk::groth16;

size_t env_or(const char* name, size_t fallback) {
    if (const char* s = std::getenv(name)) return size_t(std::strtoull(s, nullptr, 10));
    return fallback;
}

template <class C>
class SoakGpu : public ::testing::Test {};
TYPED_TEST_SUITE(SoakGpu, test::groth16_curves);

TYPED_TEST(SoakGpu, resident_prover_returns_to_baseline) {
    SKIP_WITHOUT_GPU();
    using C = TypeParam;
    using Fr = typename C::fr;
    constexpr unsigned log_n = 16;
    constexpr size_t warmup = 10;
    constexpr int device = 0;
    const size_t proofs = env_or("CUZK_SOAK_PROOFS", 2000);
    const size_t verify_every = std::max<size_t>(1, env_or("CUZK_SOAK_VERIFY_EVERY", 10));
    // Host tolerances: glibc keeps freed arena pages mapped, and one proof's host a, b, c are
    // 6 MiB at 2^16 (a leak of them every proof passes 32 MiB within six proofs). The heap may
    // differ by the CUDA runtime's own bookkeeping of the two streams and five events each proof
    // creates and destroys; a leaked proof-sized block (>= 64 KiB) fails within 16 proofs.
    constexpr long rss_tolerance = 32l << 20;
    constexpr long heap_tolerance = 1l << 20;

    const auto ckt = synthetic_circuit<Fr>({.log_domain = log_n, .num_public = 4, .bit_share = 0.5, .seed = 16});
    const auto pk = std::make_shared<const proving_key<C>>(test_setup_insecure_cuda<C>(ckt.system, 16));
    const auto cs = std::make_shared<const r1cs<Fr>>(ckt.system);
    gpu_context gpu(device, size_t(8) << 30);
    const cuda_prover<C> p(pk, gpu, cs);
    ASSERT_TRUE(p.key_resident()) << p.fallback_reason();
    ASSERT_TRUE(p.circuit_resident()) << p.circuit_fallback_reason();
    // Between proofs the pool may keep what the last proof freed (released at a later
    // synchronisation), and the driver rounds to its pages.
    const uint64_t device_tolerance = p.per_proof_bytes() + (uint64_t(16) << 20);

    cuda_worker<C> w = p.make_worker();
    std::mt19937_64 rng(16);
    proof<C> previous{};
    size_t verified = 0;
    using clock = std::chrono::steady_clock;
    clock::duration prove_time{};
    auto prove_one = [&](size_t i, bool check) {
        const auto t0 = clock::now();
        const std::span<const Fr> z(ckt.assignment);
        const bool on_gpu = i % 2 == 0, on_kept_worker = (i / 2) % 2 == 0;
        proof<C> pi = on_kept_worker ? (on_gpu ? p.prove(w, z, rng) : p.prove(w, ckt.system, z, rng))
                                     : (on_gpu ? p.prove(z, rng) : p.prove(ckt.system, z, rng));
        prove_time += clock::now() - t0;
        ASSERT_FALSE(pi == previous) << "proof " << i << " repeats the previous one (r, s not fresh)";
        if (check) {
            ASSERT_TRUE(verify(pk->vk, ckt.public_inputs(), pi)) << "proof " << i << " does not verify";
            ++verified;
        }
        previous = pi;
    };

    for (size_t i = 0; i < warmup; ++i) ASSERT_NO_FATAL_FAILURE(prove_one(i, i == 0));
    struct level {
        size_t budget;
        test::device_memory vram;
        test::process_resources host;
        static level now(gpu_context& g) {
            return {g.budget().used(), test::device_memory::now(g.device(), g.pool().get()), test::process_resources::now()};
        }
    };
    const level base = level::now(gpu);
    level last = base, worst = base;  // worst: the highest value of each measure after warm-up
    const size_t sample_every = std::max<size_t>(1, proofs / 20);
    const auto t_start = clock::now();
    prove_time = {};
    for (size_t i = 0; i < proofs; ++i) {
        const bool check = i == 0 || i + 1 == proofs || (i + 1) % verify_every == 0;
        ASSERT_NO_FATAL_FAILURE(prove_one(warmup + i, check));
        if ((i + 1) % sample_every == 0 || i + 1 == proofs) {
            last = level::now(gpu);
            worst.budget = std::max(worst.budget, last.budget);
            worst.vram.pool_used = std::max(worst.vram.pool_used, last.vram.pool_used);
            worst.vram.pool_reserved = std::max(worst.vram.pool_reserved, last.vram.pool_reserved);
            worst.vram.device_used = std::max(worst.vram.device_used, last.vram.device_used);
            worst.host.rss_bytes = std::max(worst.host.rss_bytes, last.host.rss_bytes);
            worst.host.heap_bytes = std::max(worst.host.heap_bytes, last.host.heap_bytes);
            worst.host.fds = std::max(worst.host.fds, last.host.fds);
            worst.host.threads = std::max(worst.host.threads, last.host.threads);
        }
    }
    const double wall_s = std::chrono::duration<double>(clock::now() - t_start).count();

    const auto mib = [](uint64_t b) { return double(b) / double(1 << 20); };
    std::printf(
        "soak gpu: %zu proofs at 2^%u after %zu warm-up, one resident prover (key and circuit resident), "
        "half on one kept worker (%llu proofs); %zu verified (first, last, every %zu-th)\n",
        proofs, log_n, warmup, (unsigned long long)w.proofs(), verified, verify_every);
    std::printf("soak gpu: %.1f s, %.2f ms per proof (prove calls only)\n", wall_s,
                std::chrono::duration<double, std::milli>(prove_time).count() / double(proofs));
    std::printf("soak gpu: budget used   %zu -> %zu bytes (max %zu; resident %zu)\n", base.budget, last.budget,
                worst.budget, gpu.budget().resident());
    std::printf("soak gpu: pool used     %.2f -> %.2f MiB (max %.2f)\n", mib(base.vram.pool_used),
                mib(last.vram.pool_used), mib(worst.vram.pool_used));
    std::printf("soak gpu: pool reserved %.2f -> %.2f MiB (max %.2f)\n", mib(base.vram.pool_reserved),
                mib(last.vram.pool_reserved), mib(worst.vram.pool_reserved));
    std::printf("soak gpu: cudaMemGetInfo used %.2f -> %.2f MiB (max %.2f, tolerance +%.2f)\n",
                mib(base.vram.device_used), mib(last.vram.device_used), mib(worst.vram.device_used),
                mib(device_tolerance));
    std::printf("soak gpu: rss  %ld -> %ld bytes (max %ld, tolerance +%ld)\n", base.host.rss_bytes, last.host.rss_bytes,
                worst.host.rss_bytes, rss_tolerance);
    std::printf("soak gpu: heap %ld -> %ld bytes in use (max %ld, tolerance +%ld)\n", base.host.heap_bytes,
                last.host.heap_bytes, worst.host.heap_bytes, heap_tolerance);
    std::printf("soak gpu: fds  %ld -> %ld (max %ld); threads %ld -> %ld (max %ld)\n", base.host.fds, last.host.fds,
                worst.host.fds, base.host.threads, last.host.threads, worst.host.threads);

    EXPECT_EQ(base.budget, gpu.budget().resident()) << "a proof's reservation outlived it";
    EXPECT_EQ(worst.budget, base.budget) << "the budget's accounting grew";
    EXPECT_EQ(worst.vram.pool_used, base.vram.pool_used) << "device allocations outlived their proof";
    EXPECT_LE(worst.vram.device_used, base.vram.device_used + device_tolerance) << "device memory in use grew";
    ASSERT_GT(base.host.rss_bytes, 0) << "/proc/self/statm unreadable";
    ASSERT_GT(base.host.fds, 0) << "/proc/self/fd unreadable";
    EXPECT_LE(worst.host.rss_bytes - base.host.rss_bytes, rss_tolerance) << "resident memory grew";
    if (base.host.heap_bytes >= 0)
        EXPECT_LE(worst.host.heap_bytes - base.host.heap_bytes, heap_tolerance) << "heap in use grew";
    EXPECT_EQ(worst.host.fds, base.host.fds) << "file descriptors were left open";
    EXPECT_EQ(last.host.threads, base.host.threads) << "threads leaked";
}

}  // namespace
