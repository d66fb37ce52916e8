// SPDX-License-Identifier: MIT OR Apache-2.0
// Soak on the CPU: many proofs on one resident prover (the shape of a long-running proving
// service), every proof verified, and the process's resources measured between proofs:
//   - heap bytes in use (glibc mallinfo2: every arena, small and mmap'ed blocks): the exact
//     leak measure, must come back to its post-warm-up level within heap_tolerance;
//   - resident set size (/proc/self/statm): must stay within rss_tolerance of that level;
//   - open file descriptors (/proc/self/fd) and threads (/proc/self/task): unchanged.
// Warm-up first (OpenMP's thread pool, glibc's per-thread arenas and the first-touch pages
// reach their steady state there), then the baseline, then the measured proofs.
// The GPU soak (>= 2,000 proofs at 2^16, VRAM from the budget and cudaMemGetInfo) is
// tests/test_soak_gpu.cu, run by scripts/gpu-suite.sh; docs/RELIABILITY.md has both.
//
// CUZK_SOAK_PROOFS overrides the number of measured proofs (default 150) for a longer run.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/synthetic_circuit.hpp"
#include "cuzk/groth16/test_setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "groth16_curves.hpp"
#include "process_resources.hpp"

// ASan keeps freed blocks in quarantine (up to 256 MiB) and TSan keeps shadow memory: under
// them RSS is not a leak measure, and the sanitizer's own leak checker takes over.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CUZK_SOAK_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define CUZK_SOAK_SANITIZED 1
#endif
#endif
#ifndef CUZK_SOAK_SANITIZED
#define CUZK_SOAK_SANITIZED 0
#endif

namespace {

using namespace cuzk;
using namespace cuzk::groth16;

using resources = test::process_resources;

size_t measured_proofs() {
    if (const char* s = std::getenv("CUZK_SOAK_PROOFS")) return size_t(std::strtoull(s, nullptr, 10));
    return 150;
}

template <class C>
class SoakCpu : public ::testing::Test {};
// BN254 only: the budget of a CI test (BLS12-381's proofs cost about 2x; the prover code is the
// same template, and test_groth16_prover covers it for correctness).
using soak_curves = ::testing::Types<bn254::curve>;
TYPED_TEST_SUITE(SoakCpu, soak_curves);

TYPED_TEST(SoakCpu, resident_prover_returns_to_baseline) {
    using C = TypeParam;
    using Fr = typename C::fr;
    constexpr unsigned log_n = 10;
    constexpr size_t warmup = 10;
    const size_t proofs = measured_proofs();
    // Tolerances. Heap: the allocator's bookkeeping may differ by a few chunks between two
    // quiescent points; one proof's own buffers (a, b, c: 3 * 2^10 * 32 bytes = 96 KiB, plus
    // the MSM buckets) are far larger, so a per-proof leak of any of them fails within a few
    // proofs. RSS: glibc keeps freed pages of its arenas mapped (trimmed only at the top), so a
    // coarser bound; 150 leaked abc vectors would add 14 MiB.
    constexpr long heap_tolerance = 64 << 10;  // 64 KiB
    constexpr long rss_tolerance = 4 << 20;    // 4 MiB

    const auto ckt = synthetic_circuit<Fr>({.log_domain = log_n, .num_public = 4, .bit_share = 0.5, .seed = 10});
    const auto pk = std::make_shared<const proving_key<C>>(test_setup_insecure<C>(ckt.system, 10));
    const auto cs = std::make_shared<const r1cs<Fr>>(ckt.system);
    const prover<C> p(pk, cs);

    std::mt19937_64 rng(10);
    proof<C> previous{};
    using clock = std::chrono::steady_clock;
    clock::duration prove_time{}, verify_time{};
    auto prove_and_verify = [&](size_t i) {
        const auto t0 = clock::now();
        proof<C> pi = p.prove(std::span<const Fr>(ckt.assignment), rng);
        const auto t1 = clock::now();
        const bool ok = verify(pk->vk, ckt.public_inputs(), pi);
        prove_time += t1 - t0;
        verify_time += clock::now() - t1;
        ASSERT_TRUE(ok) << "proof " << i << " does not verify";
        ASSERT_FALSE(pi == previous) << "proof " << i << " repeats the previous one (r, s not fresh)";
        previous = pi;
    };

    for (size_t i = 0; i < warmup; ++i) ASSERT_NO_FATAL_FAILURE(prove_and_verify(i));
    const resources base = resources::now();
    resources worst = base;  // the highest level seen after warm-up
    resources last = base;
    const size_t samples_every = std::max<size_t>(1, proofs / 20);
    for (size_t i = 0; i < proofs; ++i) {
        ASSERT_NO_FATAL_FAILURE(prove_and_verify(warmup + i));
        if ((i + 1) % samples_every == 0 || i + 1 == proofs) {
            last = resources::now();
            worst.rss_bytes = std::max(worst.rss_bytes, last.rss_bytes);
            worst.heap_bytes = std::max(worst.heap_bytes, last.heap_bytes);
            worst.fds = std::max(worst.fds, last.fds);
            worst.threads = std::max(worst.threads, last.threads);
        }
    }

    std::printf("soak: %zu proofs at 2^%u after %zu warm-up proofs, every one verified\n", proofs, log_n, warmup);
    const auto ms = [](clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); };
    std::printf("soak: %.1f ms per proof, %.1f ms per verification (mean over all %zu)\n",
                ms(prove_time) / double(warmup + proofs), ms(verify_time) / double(warmup + proofs), warmup + proofs);
    std::printf("soak: rss  %ld -> %ld bytes (max %ld, tolerance +%ld)\n", base.rss_bytes, last.rss_bytes,
                worst.rss_bytes, rss_tolerance);
    std::printf("soak: heap %ld -> %ld bytes in use (max %ld, tolerance +%ld)\n", base.heap_bytes, last.heap_bytes,
                worst.heap_bytes, heap_tolerance);
    std::printf("soak: fds  %ld -> %ld (max %ld); threads %ld -> %ld (max %ld)\n", base.fds, last.fds, worst.fds,
                base.threads, last.threads, worst.threads);

    ASSERT_GT(base.rss_bytes, 0) << "/proc/self/statm unreadable";
    ASSERT_GT(base.fds, 0) << "/proc/self/fd unreadable";
    if (CUZK_SOAK_SANITIZED)
        std::printf("soak: sanitizer build: RSS and heap levels not asserted (quarantine, shadow memory)\n");
    else EXPECT_LE(worst.rss_bytes - base.rss_bytes, rss_tolerance) << "resident memory grew during the soak";
    EXPECT_EQ(last.fds, base.fds) << "file descriptors leaked";
    EXPECT_EQ(worst.fds, base.fds) << "file descriptors were left open between proofs";
    EXPECT_EQ(last.threads, base.threads) << "threads leaked";
    if (base.heap_bytes >= 0 && !CUZK_SOAK_SANITIZED) {
        EXPECT_LE(worst.heap_bytes - base.heap_bytes, heap_tolerance) << "heap in use grew during the soak";
        EXPECT_LE(last.heap_bytes - base.heap_bytes, heap_tolerance) << "heap in use did not return to its level";
    }
}

}  // namespace
