// SPDX-License-Identifier: MIT OR Apache-2.0
// Device fault injection (gpu::fault_injection in gpu/cuda_error.hpp: every checked CUDA call is
// a fault point, off until a test turns it on; the precompiled instances have it too, so this
// runs the code users link). The fault points of one 2^10 proof are counted by kind, then for every k
// the k-th is made to fail (every s-th with CUZK_FAULT_STRIDE=s, for racecheck: fault_stride()), and
//   - the prover throws cuda_error naming the call that failed (an injected failure skips the
//     call: a failed allocation leaves nothing allocated);
//   - the budget's accounting and the pools' live bytes (the device's and the context's) return exactly to their level,
//     cudaMemGetInfo to within device_tolerance; measured after cudaDeviceSynchronize and
//     cudaMemPoolTrimTo(pool, 0) from the test (device_memory::settled), since the prover never
//     synchronises or trims the device and the failed proof's queued work may still be running;
//   - the next proof on the same prover (on the same worker) succeeds and verifies.
// Per curve and staging policy, three sweeps: a warm prover's proof without a worker (one is made
// for the proof; both entry points: a, b, c evaluated on the GPU and uploaded from the host), a
// warm cuda_worker's proof (the level includes the worker's held share and buffers, and the worker
// must stay usable after every fault; it is made inside the sweep and destroyed at its end, after
// which the budget and pools are back to the prover's own level), and a fresh prover's
// construction with its first proof (where the one-time allocations happen). Skipped without a GPU.
#include "deprecated_spelling.hpp"  // first: these tests name configurations by policy

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <type_traits>

#include "cuzk/gpu/device_buffer.hpp"
#include "cuzk/gpu/stream.hpp"
#include "cuzk/groth16/cuda/prover.cuh"
#include "cuzk/groth16/synthetic_circuit.hpp"
#include "cuzk/groth16/test_setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "device_memory.hpp"
#include "gpu_test.hpp"
#include "process_resources.hpp"

namespace {

using namespace cuzk;
using namespace cuzk::groth16;
namespace fi = cuzk::gpu::fault_injection;

constexpr int device = 0;
// cudaMemGetInfo counts the driver's own lazily grown reservations too (local memory, modules,
// stream resources); the pool's live bytes are the exact measure, this the coarse backstop.
constexpr uint64_t device_tolerance = uint64_t(8) << 20;

/// A curve and a prover policy: the key resident (prestaged), or uploaded per proof on a second
/// stream from page-locked key vectors (streamed).
template <class C, class Policy>
struct config {
    using curve = C;
    using policy = Policy;
    static std::string name() {
        return std::string(std::is_same_v<C, bls12_381::curve> ? "BLS12-381" : "BN254") +
               (Policy::stage == staging::prestaged ? " prestaged" : " streamed");
    }
};
using streamed = cuda_policy<lock_granularity::split, staging::streamed>;
// One curve: the fault paths are the prover's and the same for both curves (BN254 had the same
// points and verdicts, 137 / 159 / 204 / 214, in the H200 run of docs/RELIABILITY.md), and this
// target compiles the whole CUDA prover header-only (it cannot link cuzk::instances, see
// gpu/cuda_error.hpp): the second curve cost ~95 of its 194 CPU-s in CI.
using configs = ::testing::Types<config<bls12_381::curve, cuda_policy<>>, config<bls12_381::curve, streamed>>;

template <class Config>
class GpuFaults : public ::testing::Test {};
TYPED_TEST_SUITE(GpuFaults, configs);

/// CUZK_FAULT_STRIDE=s: a sweep fails every s-th point and the last instead of each (default 1).
/// For compute-sanitizer's racecheck (scripts/sanitizer-cases.sh sets 8), which checks the kernels'
/// shared-memory accesses, the same in every proof, at ~1.5 s a point: a full run of this test
/// under it would take ~30 minutes. memcheck and synccheck run every point.
uint64_t fault_stride() {
    static const uint64_t s = [] {
        const char* v = std::getenv("CUZK_FAULT_STRIDE");
        const unsigned long long n = v != nullptr ? std::strtoull(v, nullptr, 10) : 1;
        return uint64_t(n > 0 ? n : 1);
    }();
    return s;
}

/// What a sweep saw: fault points per kind in the counting run, and failures per kind injected.
struct tally {
    uint64_t counted[fi::kinds] = {};
    uint64_t failed[fi::kinds] = {};
    uint64_t points() const { return counted[0] + counted[1] + counted[2] + counted[3]; }
    /// The point failed after k: k + stride, the last one, then past the end.
    uint64_t next(uint64_t k) const { return k >= points() ? k + 1 : std::min(k + fault_stride(), points()); }
    uint64_t steps() const {
        uint64_t n = 0;
        for (uint64_t k = 1; k <= points(); k = next(k)) ++n;
        return n;
    }
    void count() {
        for (int k = 0; k < fi::kinds; ++k) counted[k] = fi::reached(fi::kind(k));
    }
    void print(const std::string& what) const {
        std::printf("faults: %-40s %4llu points (alloc %llu, copy %llu, launch %llu, other %llu)", what.c_str(),
                    (unsigned long long)points(), (unsigned long long)counted[0], (unsigned long long)counted[1],
                    (unsigned long long)counted[2], (unsigned long long)counted[3]);
        if (fault_stride() > 1)
            std::printf(", %llu failed (CUZK_FAULT_STRIDE=%llu)", (unsigned long long)steps(),
                        (unsigned long long)fault_stride());
        std::printf("\n");
    }
};

template <class C>
struct fixture {
    using Fr = typename C::fr;
    circuit<Fr> ckt = synthetic_circuit<Fr>({.log_domain = 10, .num_public = 3, .bit_share = 0.5, .seed = 18});
    std::shared_ptr<const proving_key<C>> pk = std::make_shared<const proving_key<C>>(
        test_setup_insecure<C>(ckt.system, 18));
    std::shared_ptr<const r1cs<Fr>> cs = std::make_shared<const r1cs<Fr>>(ckt.system);
    std::mt19937_64 rng{18};

    /// One proof through either entry point (the circuit is resident: prove(z) evaluates a, b, c
    /// on the GPU, prove(cs, z) uploads them).
    template <class P>
    proof<C> prove(const P& p, bool abc_on_gpu) {
        const std::span<const Fr> z(ckt.assignment);
        return abc_on_gpu ? p.prove(z, rng) : p.prove(ckt.system, z, rng);
    }
    /// The same on a worker of p.
    template <class P>
    proof<C> prove(const P& p, cuda_worker<C>& w, bool abc_on_gpu) {
        const std::span<const Fr> z(ckt.assignment);
        return abc_on_gpu ? p.prove(w, z, rng) : p.prove(w, ckt.system, z, rng);
    }
};

/// Prints a sweep step (the failed proof, the checks, the next proof) that took over a second: a
/// sweep is ~140 steps, and a few slow ones make it take minutes (a GPU shared with another
/// process does that: every step synchronises the whole device).
class slow_step_report {
public:
    explicit slow_step_report(uint64_t k) : k_(k), start_(std::chrono::steady_clock::now()) {}
    ~slow_step_report() {
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        if (s > 1.0) std::printf("faults: step %llu took %.1f s\n", (unsigned long long)k_, s);
    }

private:
    uint64_t k_;
    std::chrono::steady_clock::time_point start_;
};

/// Runs f with the k-th fault point armed; expects a cuda_error naming the failed call and adds
/// the point's kind to t. Returns false (a test failure) when no point failed.
template <class F>
bool fails_at(uint64_t k, uint64_t points, tally& t, F&& f) {
    fi::arm(k);
    std::string what;
    bool typed = false;
    try {
        f();
    } catch (const cuda_error& e) {
        what = e.what();
        typed = true;
    } catch (const std::exception& e) {
        what = e.what();
    }
    const std::optional<fi::point> p = fi::failed();
    fi::reset();
    if (!p) {
        ADD_FAILURE() << "fault point " << k << " of " << points << " was not reached (the proof's points changed)";
        return false;
    }
    ++t.failed[int(p->what)];
    EXPECT_TRUE(typed) << "fault " << k << " (" << p->call << ", " << p->file << ":" << p->line
                       << ") was reported untyped: " << what;
    EXPECT_EQ(what.rfind(p->call, 0), 0u)
        << "fault " << k << ": the error does not name the call " << p->call << ": " << what;
    return true;
}

/// The level every sweep returns to: budget in use, device memory after settling, descriptors
/// and threads.
struct level {
    size_t budget;
    test::device_memory vram;
    long fds, threads;
    static level now(gpu_context& g) {
        const auto host = test::process_resources::now();
        return {g.budget().used(), test::device_memory::settled(g.device(), g.pool().get()), host.fds, host.threads};
    }
};

void expect_level(const level& base, const level& now, uint64_t k) {
    EXPECT_EQ(now.budget, base.budget) << "after fault " << k << ": the budget did not return";
    EXPECT_EQ(now.vram.pool_used, base.vram.pool_used) << "after fault " << k << ": device allocations leaked";
    EXPECT_LE(now.vram.device_used, base.vram.device_used + device_tolerance)
        << "after fault " << k << ": cudaMemGetInfo's use grew";
}

void print_levels(const std::string& what, const level& base, const level& worst) {
    std::printf(
        "faults: %-40s budget %zu -> max %zu, pool %llu -> max %llu bytes, cudaMemGetInfo %.2f -> max %.2f MiB\n",
        what.c_str(), base.budget, worst.budget, (unsigned long long)base.vram.pool_used,
        (unsigned long long)worst.vram.pool_used, double(base.vram.device_used) / double(1 << 20),
        double(worst.vram.device_used) / double(1 << 20));
}

/// The end of a sweep: every counted point (with a stride, every one of its steps) was failed once, no
/// descriptor or thread is left.
void expect_sweep_complete(const std::string& what, const tally& t, const level& base, const level& worst,
                           gpu_context& gpu) {
    if (fault_stride() == 1) {
        for (int k = 0; k < fi::kinds; ++k)
            EXPECT_EQ(t.failed[k], t.counted[k]) << "failures of kind " << fi::name(fi::kind(k));
    } else {
        EXPECT_EQ(t.failed[0] + t.failed[1] + t.failed[2] + t.failed[3], t.steps()) << "failures in the strided sweep";
    }
    const level end = level::now(gpu);
    EXPECT_EQ(end.fds, base.fds) << "descriptors leaked";
    EXPECT_EQ(end.threads, base.threads) << "threads leaked";
    print_levels(what, base, worst);
}

void raise(level& worst, const level& now) {
    worst.budget = std::max(worst.budget, now.budget);
    worst.vram.pool_used = std::max(worst.vram.pool_used, now.vram.pool_used);
    worst.vram.device_used = std::max(worst.vram.device_used, now.vram.device_used);
}

/// Every fault point of one warm proof: prove() once to count its points, then each failed in
/// turn; after every fault the level is back to the one before the sweep and proves_valid() (the
/// next proof verifies) holds.
template <class Prove, class ProvesValid>
void sweep_warm_proof(const std::string& what, gpu_context& gpu, Prove&& prove, ProvesValid&& proves_valid) {
    const level base = level::now(gpu);
    level worst = base;
    tally t;
    fi::reset();
    prove();
    t.count();
    fi::reset();
    t.print(what);
    ASSERT_GT(t.points(), 0u);
    for (uint64_t k = 1; k <= t.points(); k = t.next(k)) {
        const slow_step_report report(k);
        if (!fails_at(k, t.points(), t, prove)) break;
        const level now = level::now(gpu);
        expect_level(base, now, k);
        raise(worst, now);
        ASSERT_TRUE(proves_valid()) << "the proof after fault " << k << " does not verify";
    }
    expect_sweep_complete(what, t, base, worst, gpu);
}

// The hook itself: an injected allocation makes no allocation, counts as alloc, and is reported
// as the cuda_error of that call; the next allocation is real.
TEST(GpuFaultInjection, an_injected_allocation_allocates_nothing) {
    SKIP_WITHOUT_GPU();
    const gpu::stream s;
    const auto before = test::device_memory::settled(device);
    fi::arm(1);
    try {
        gpu::device_buffer<uint64_t> b(size_t(1) << 20, s);
        ADD_FAILURE() << "the armed allocation succeeded";
    } catch (const cuda_error& e) {
        EXPECT_EQ(e.code(), cudaErrorMemoryAllocation);
        EXPECT_EQ(std::string(e.what()).rfind("cudaMallocAsync(", 0), 0u) << e.what();
    }
    ASSERT_TRUE(fi::failed());
    EXPECT_EQ(fi::failed()->what, fi::kind::alloc);
    EXPECT_EQ(fi::reached(fi::kind::alloc), 1u);
    EXPECT_EQ(test::device_memory::settled(device).pool_used, before.pool_used);
    fi::reset();
    {
        gpu::device_buffer<uint64_t> b(size_t(1) << 20, s);
        EXPECT_NE(b.data(), nullptr);
        EXPECT_EQ(fi::reached(fi::kind::alloc), 1u);
        EXPECT_EQ(fi::reached(), 1u);
    }
    s.synchronize();
    EXPECT_EQ(fi::reached(fi::kind::other), 1u);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "an injected failure left an error behind";
}

// A warm prover (its one-time allocations done): every fault point of one proof, through each
// entry point.
TYPED_TEST(GpuFaults, every_fault_point_of_a_warm_proof) {
    SKIP_WITHOUT_GPU();
    using C = typename TypeParam::curve;
    using P = prover<C, typename TypeParam::policy>;
    fixture<C> f;
    gpu_context gpu(device, size_t(1) << 30);
    const P p(f.pk, gpu, f.cs);
    ASSERT_TRUE(p.circuit_resident()) << p.circuit_fallback_reason();
    for (const bool abc_on_gpu : {true, false}) {
        const std::string what = TypeParam::name() + (abc_on_gpu ? ", warm, prove(z)" : ", warm, prove(cs, z)");
        auto proves_valid = [&] { return verify(f.pk->vk, f.ckt.public_inputs(), f.prove(p, abc_on_gpu)); };
        for (int i = 0; i < 2; ++i) ASSERT_TRUE(proves_valid());
        sweep_warm_proof(
            what, gpu, [&] { f.prove(p, abc_on_gpu); }, proves_valid);
        if (::testing::Test::HasFatalFailure()) return;
    }
}

// A warm worker (its buffers, upload ring and share of the budget held): every fault point of a
// proof on it, through each entry point. The worker survives every fault and proves next.
TYPED_TEST(GpuFaults, every_fault_point_of_a_proof_on_a_worker) {
    SKIP_WITHOUT_GPU();
    using C = typename TypeParam::curve;
    using P = prover<C, typename TypeParam::policy>;
    fixture<C> f;
    gpu_context gpu(device, size_t(1) << 30);
    const P p(f.pk, gpu, f.cs);
    ASSERT_TRUE(p.circuit_resident()) << p.circuit_fallback_reason();
    for (const bool abc_on_gpu : {true, false}) {
        const std::string what = TypeParam::name() + (abc_on_gpu ? ", worker, prove(z)" : ", worker, prove(cs, z)");
        const level outside = level::now(gpu);
        {
            cuda_worker<C> w = p.make_worker();
            auto proves_valid = [&] { return verify(f.pk->vk, f.ckt.public_inputs(), f.prove(p, w, abc_on_gpu)); };
            for (int i = 0; i < 2; ++i) ASSERT_TRUE(proves_valid());
            EXPECT_EQ(level::now(gpu).budget, outside.budget + p.per_proof_bytes())
                << "the worker does not hold its share";
            sweep_warm_proof(
                what, gpu, [&] { f.prove(p, w, abc_on_gpu); }, proves_valid);
            if (::testing::Test::HasFatalFailure()) return;
        }
        const level after = level::now(gpu);
        EXPECT_EQ(after.budget, outside.budget) << "the worker's share outlived it";
        EXPECT_EQ(after.vram.pool_used, outside.vram.pool_used) << "the worker's buffers outlived it";
    }
}

// A fresh prover: every fault point of its construction and first proof. A construction that
// failed is retried; a proof that failed is followed by one on the same prover.
TYPED_TEST(GpuFaults, every_fault_point_of_construction_and_first_proof) {
    SKIP_WITHOUT_GPU();
    using C = typename TypeParam::curve;
    using P = prover<C, typename TypeParam::policy>;
    const std::string what = TypeParam::name() + ", new prover + first proof";
    fixture<C> f;
    gpu_context gpu(device, size_t(1) << 30);
    // The streamed policy page-locks the key's vectors: a failed construction must unlock them.
    auto key_unlocked = [&] {
        cudaPointerAttributes a{};
        return cudaPointerGetAttributes(&a, f.pk->a.data()) == cudaSuccess && a.type == cudaMemoryTypeUnregistered;
    };
    auto construct_and_prove = [&](std::optional<P>& p) {
        p.emplace(f.pk, gpu, f.cs);
        return f.prove(*p, true);
    };
    {
        std::optional<P> warm;
        ASSERT_TRUE(verify(f.pk->vk, f.ckt.public_inputs(), construct_and_prove(warm)));
    }
    const level base = level::now(gpu);
    ASSERT_EQ(base.budget, 0u);
    ASSERT_TRUE(key_unlocked());
    level worst = base;
    tally t;
    fi::reset();
    {
        std::optional<P> p;
        construct_and_prove(p);
    }
    t.count();
    fi::reset();
    t.print(what);
    ASSERT_GT(t.points(), 0u);
    for (uint64_t k = 1; k <= t.points(); k = t.next(k)) {
        const slow_step_report report(k);
        std::optional<P> p;
        if (!fails_at(k, t.points(), t, [&] { construct_and_prove(p); })) break;
        if (p) {
            EXPECT_EQ(gpu.budget().used(), gpu.budget().resident())
                << "after fault " << k << ": a proof's reservation outlived it";
        } else {
            EXPECT_EQ(gpu.budget().used(), 0u)
                << "after fault " << k << ": a failed construction kept its reservations";
            EXPECT_TRUE(key_unlocked()) << "after fault " << k << ": a failed construction left the key page-locked";
            p.emplace(f.pk, gpu, f.cs);
        }
        ASSERT_TRUE(verify(f.pk->vk, f.ckt.public_inputs(), f.prove(*p, true)))
            << "the proof after fault " << k << " does not verify";
        p.reset();
        EXPECT_TRUE(key_unlocked()) << "after fault " << k << ": the key stayed page-locked";
        const level now = level::now(gpu);
        expect_level(base, now, k);
        raise(worst, now);
    }
    expect_sweep_complete(what, t, base, worst, gpu);
}

}  // namespace
