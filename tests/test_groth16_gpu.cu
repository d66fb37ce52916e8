// SPDX-License-Identifier: MIT OR Apache-2.0
// The CUDA prover (cuda_prover and its deprecated policy spelling, in which most cases name their
// configuration): every configuration gives the same proof as the CPU prover for the same
// randomness (with a, b, c evaluated on the host or on the GPU from a resident circuit), proofs
// verify, a violated constraint is named, workers proving concurrently on one GPU under each
// lock policy reproduce a serial run exactly, a cuda_worker reused across proofs gives the proofs
// made without one and holds its VRAM share exactly while it lives, and a policy's telemetry sink
// hears every stage of every proof, and one proof makes the host waits the design counts.
// Skipped without a GPU.
#include "deprecated_spelling.hpp"  // first: these tests name configurations by policy

#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "cuzk/groth16/cuda/prover.cuh"
#include "cuzk/io/supraseal_assignment.hpp"
#include "cuzk/groth16/synthetic_circuit.hpp"
#include "cuzk/groth16/test_setup.hpp"
#include "cuzk/groth16/cuda/test_setup.cuh"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/gpu/host_waits.hpp"
#include "gpu_test.hpp"
#include "groth16_curves.hpp"

// A policy the caller writes, in the caller's namespace (policy.hpp's cuda_prover_policy: any
// type with these four constants) selects the CUDA backend like the shipped cuda_policy.
namespace callers {
struct gpu_policy {
    static constexpr cuzk::groth16::backend where = cuzk::groth16::backend::cuda;
    static constexpr cuzk::groth16::lock_granularity locking = cuzk::groth16::lock_granularity::device;
    static constexpr cuzk::groth16::staging stage = cuzk::groth16::staging::streamed;
    static constexpr bool g2_on_gpu = true;
};
static_assert(cuzk::groth16::cuda_prover_policy<gpu_policy>);

/// A telemetry sink the caller writes: it keeps every stage it is told of.
struct stage_log {
    static inline std::mutex m;
    static inline std::vector<cuzk::groth16::stage_times::stage> stages;
    static void stage(const cuzk::groth16::stage_times::stage& s) {
        std::lock_guard lock(m);
        stages.push_back(s);
    }
    static std::vector<cuzk::groth16::stage_times::stage> take() {
        std::lock_guard lock(m);
        return std::exchange(stages, {});
    }
};
struct policy_with_telemetry : gpu_policy {
    static constexpr cuzk::groth16::lock_granularity locking = cuzk::groth16::lock_granularity::split;
    static constexpr cuzk::groth16::staging stage = cuzk::groth16::staging::prestaged;
    using telemetry = stage_log;
};
static_assert(cuzk::groth16::cuda_prover_policy<policy_with_telemetry>);
static_assert(cuzk::groth16::has_telemetry<policy_with_telemetry>);
}  // namespace callers

namespace {

using namespace cuzk;
using namespace cuzk::groth16;

template <class C>
class ProverGpuTest : public ::testing::Test {};
TYPED_TEST_SUITE(ProverGpuTest, test::groth16_curves);

constexpr size_t kBudget = size_t(8) << 30;

template <class C>
struct fixture {
    circuit<typename C::fr> ckt;
    std::shared_ptr<const proving_key<C>> pk;
    fixture(unsigned log_n, double bits, uint64_t seed)
        : ckt(synthetic_circuit<typename C::fr>(
              {.log_domain = log_n, .num_public = 3, .bit_share = bits, .seed = seed})),
          pk(std::make_shared<const proving_key<C>>(test_setup_insecure_cuda<C>(ckt.system, seed))) {}
};

template <class C>
std::shared_ptr<const r1cs<typename C::fr>> shared_system(const fixture<C>& f) {
    return std::make_shared<const r1cs<typename C::fr>>(f.ckt.system);
}

template <class C, class GpuProver>
void expect_same_as_cpu_with(const fixture<C>& f, gpu_context& gpu, uint64_t seed, cuda_prover_options opt) {
    GpuProver gpu_prover(f.pk, gpu, nullptr, opt);
    GpuProver resident(f.pk, gpu, shared_system(f), opt);
    EXPECT_TRUE(resident.circuit_resident()) << resident.circuit_fallback_reason();
    prover<C> cpu_prover(f.pk);
    std::mt19937_64 r1(seed), r2(seed), r3(seed);
    auto on_gpu = gpu_prover.prove(f.ckt.system, f.ckt.assignment, r1);
    auto on_cpu = cpu_prover.prove(f.ckt.system, f.ckt.assignment, r2);
    auto evaluated_on_gpu = resident.prove(f.ckt.assignment, r3);
    EXPECT_EQ(on_gpu, on_cpu);
    EXPECT_EQ(evaluated_on_gpu, on_cpu);
    EXPECT_TRUE(verify(f.pk->vk, f.ckt.public_inputs(), on_gpu));
}

/// Policy's configuration in both spellings: the deprecated prover<C, Policy> and cuda_prover<C>
/// with the same choices as options (what new code writes); both give the CPU prover's proofs.
template <class C, class Policy>
void expect_same_as_cpu(const fixture<C>& f, gpu_context& gpu, uint64_t seed) {
    expect_same_as_cpu_with<C, prover<C, Policy>>(f, gpu, seed, {});
    if constexpr (std::is_same_v<policy_telemetry<Policy>, no_telemetry>)
        expect_same_as_cpu_with<C, cuda_prover<C>>(
            f, gpu, seed, {.locking = Policy::locking, .stage = Policy::stage, .g2_on_gpu = Policy::g2_on_gpu});
}

TYPED_TEST(ProverGpuTest, PrecomputedBasesGiveTheSameProofs) {
    SKIP_WITHOUT_GPU();
    using C = TypeParam;
    for (double bits : {0.0, 0.9}) {
        fixture<C> f(10, bits, 23);
        gpu_context gpu(0, kBudget);
        prover<C> cpu_prover(f.pk);
        prover<C, cuda_policy<>> tabled(f.pk, gpu, shared_system(f), {.precompute_bases = true});
        EXPECT_NE(tabled.tables_note().find("G2 table resident"), std::string::npos) << tabled.tables_note();
        std::mt19937_64 r1(31), r2(31);
        EXPECT_EQ(tabled.prove(f.ckt.assignment, r1), cpu_prover.prove(f.ckt.system, f.ckt.assignment, r2));
        // A budget with room for the key and a proof but not the tables: no tables, still right.
        prover<C, cuda_policy<>> sizing(f.pk, gpu, nullptr, {.precompute_bases = true});
        gpu_context small(0, groth16::detail::device_key<C>::bytes_for(*f.pk) + sizing.resident_proof_bytes() + 64);
        prover<C, cuda_policy<>> untabled(f.pk, small, nullptr, {.precompute_bases = true});
        EXPECT_TRUE(untabled.key_resident());
        EXPECT_NE(untabled.tables_note().find("do not fit"), std::string::npos) << untabled.tables_note();
        std::mt19937_64 r3(32), r4(32);
        EXPECT_EQ(untabled.prove(f.ckt.system, f.ckt.assignment, r3),
                  cpu_prover.prove(f.ckt.system, f.ckt.assignment, r4));
    }
}

// The lock granularity chosen at run time (cuda_prover_options::locking) over one policy type:
// each gives the CPU prover's proofs, from two threads on two workers, and the prover reports it.
TYPED_TEST(ProverGpuTest, RunTimeLockingGivesTheSameProofs) {
    SKIP_WITHOUT_GPU();
    using C = TypeParam;
    fixture<C> f(10, 0.5, 29);
    prover<C> cpu_prover(f.pk);
    for (lock_granularity lock : {lock_granularity::none, lock_granularity::device, lock_granularity::split}) {
        gpu_context gpu(0, kBudget);
        prover<C, cuda_policy<lock_granularity::split>> p(f.pk, gpu, nullptr, {.locking = lock});
        EXPECT_EQ(p.locking(), lock);
        auto w0 = p.make_worker();
        auto w1 = p.make_worker();
        std::optional<proof<C>> pi0, pi1;
        std::thread t([&] {
            std::mt19937_64 r(41);
            pi0 = p.prove(w0, f.ckt.system, f.ckt.assignment, r);
        });
        std::mt19937_64 r(42);
        pi1 = p.prove(w1, f.ckt.system, f.ckt.assignment, r);
        t.join();
        std::mt19937_64 c0(41), c1(42);
        EXPECT_EQ(*pi0, cpu_prover.prove(f.ckt.system, f.ckt.assignment, c0));
        EXPECT_EQ(*pi1, cpu_prover.prove(f.ckt.system, f.ckt.assignment, c1));
    }
    gpu_context gpu(0, kBudget);
    EXPECT_EQ((prover<C, cuda_policy<lock_granularity::device>>(f.pk, gpu).locking()), lock_granularity::device)
        << "unset: the policy's";
}

// G2's placement chosen at run time (cuda_prover_options::g2_on_gpu) over one policy type: on the
// CPU beside the GPU stages or on the GPU, the CPU prover's proofs either way.
TYPED_TEST(ProverGpuTest, RunTimeG2PlacementGivesTheSameProofs) {
    SKIP_WITHOUT_GPU();
    using C = TypeParam;
    fixture<C> f(10, 0.9, 37);
    prover<C> cpu_prover(f.pk);
    for (bool on_gpu : {false, true}) {
        gpu_context gpu(0, kBudget);
        prover<C, cuda_policy<>> p(f.pk, gpu, shared_system(f), {.g2_on_gpu = on_gpu});
        EXPECT_EQ(p.g2_on_gpu(), on_gpu);
        std::mt19937_64 r1(43), r2(43);
        EXPECT_EQ(p.prove(f.ckt.assignment, r1), cpu_prover.prove(f.ckt.system, f.ckt.assignment, r2));
    }
    gpu_context gpu(0, kBudget);
    EXPECT_FALSE((prover<C, cuda_policy<lock_granularity::split, staging::prestaged, false>>(f.pk, gpu).g2_on_gpu()))
        << "unset: the policy's";
}

// A proof's buffers come from the context's own pool (gpu_context::pool): afterwards the pool
// has no live allocation but keeps the memory, so the next proof maps nothing new, and the
// device's default pool (resident key and circuit) holds no more than before the proofs.
TYPED_TEST(ProverGpuTest, ProofBuffersComeFromTheContextPool) {
    SKIP_WITHOUT_GPU();
    using C = TypeParam;
    fixture<C> f(10, 0.5, 61);
    gpu_context gpu(0, kBudget);
    prover<C, cuda_policy<>> p(f.pk, gpu, shared_system(f));
    ASSERT_TRUE(p.circuit_resident()) << p.circuit_fallback_reason();
    EXPECT_EQ(gpu.pool().reserved_bytes(), 0u) << "the constructor took per-proof memory";
    cudaMemPool_t device_pool = nullptr;
    CUZK_CUDA_CHECK(cudaDeviceGetMemPool(&device_pool, 0));
    auto device_pool_used = [&] {
        CUZK_CUDA_CHECK(cudaDeviceSynchronize());  // every stream-ordered free has run
        uint64_t used = 0;
        CUZK_CUDA_CHECK(cudaMemPoolGetAttribute(device_pool, cudaMemPoolAttrUsedMemCurrent, &used));
        return used;
    };
    const uint64_t resident = device_pool_used();
    std::mt19937_64 r(62);
    EXPECT_TRUE(verify(f.pk->vk, f.ckt.public_inputs(), p.prove(f.ckt.assignment, r)));
    EXPECT_EQ(device_pool_used(), resident);
    EXPECT_EQ(gpu.pool().used_bytes(), 0u);
    const uint64_t kept = gpu.pool().reserved_bytes();
    EXPECT_GE(kept, 3 * f.pk->domain_size() * sizeof(typename C::fr));  // a, b, c at least
    EXPECT_TRUE(verify(f.pk->vk, f.ckt.public_inputs(), p.prove(f.ckt.assignment, r)));
    EXPECT_EQ(device_pool_used(), resident);
    EXPECT_EQ(gpu.pool().used_bytes(), 0u);
    EXPECT_EQ(gpu.pool().reserved_bytes(), kept) << "the second proof mapped new memory";
}

// A density-compressed key (Filecoin's shape: A and B only for non-empty columns) gives the dense
// key's proof on the GPU too, for host- and GPU-evaluated a, b, c, with tables, and with B2 on the
// CPU; the synthetic circuit leaves B columns empty, so the compressed B MSMs are shorter.
TYPED_TEST(ProverGpuTest, DensityCompressedKeyGivesTheDenseProof) {
    SKIP_WITHOUT_GPU();
    using C = TypeParam;
    for (double bits : {0.0, 0.9}) {
        fixture<C> f(10, bits, 41);
        const auto [a_d, b_d] = r1cs_densities(f.ckt.system);
        ASSERT_LT(b_d.count(), f.ckt.system.num_variables);
        auto compressed = std::make_shared<const proving_key<C>>(to_density_compressed(*f.pk, a_d, b_d));
        gpu_context gpu(0, kBudget);
        prover<C> cpu_dense(f.pk);
        prover<C, cuda_policy<>> from_host(compressed, gpu);
        prover<C, cuda_policy<>> resident(compressed, gpu, shared_system(f));
        prover<C, cuda_policy<>> tabled(compressed, gpu, shared_system(f), {.precompute_bases = true});
        prover<C, cuda_policy<lock_granularity::split, staging::streamed, false>> b2_on_cpu(compressed, gpu);
        std::mt19937_64 r0(51), r1(51), r2(51), r3(51), r4(51);
        const auto want = cpu_dense.prove(f.ckt.system, f.ckt.assignment, r0);
        EXPECT_EQ(from_host.prove(f.ckt.system, f.ckt.assignment, r1), want);
        EXPECT_EQ(resident.prove(f.ckt.assignment, r2), want);
        EXPECT_EQ(tabled.prove(f.ckt.assignment, r3), want);
        EXPECT_EQ(b2_on_cpu.prove(f.ckt.system, f.ckt.assignment, r4), want);
        EXPECT_TRUE(verify(compressed->vk, f.ckt.public_inputs(), want));
    }
    // A map that is not the circuit's is refused before anything runs.
    fixture<C> f(8, 0.5, 42);
    auto [a_d, b_d] = r1cs_densities(f.ckt.system);
    density_map b_more = density_map::full(b_d.size());
    ASSERT_NE(b_more, b_d);
    gpu_context gpu(0, kBudget);
    auto wrong = std::make_shared<const proving_key<C>>(to_density_compressed(*f.pk, a_d, b_more));
    EXPECT_THROW((prover<C, cuda_policy<>>(wrong, gpu, shared_system(f))), invalid_argument);
}

// staging::chunked: no key on the GPU, every MSM streams its bases from page-locked host memory a
// chunk at a time. Proofs equal the CPU prover's for chunks of one point up to more than the
// key, on a dense and a density-compressed key, with G2 on the GPU or the CPU; and a budget that
// holds one chunked proof but not the key proves (the small card's case). One case for each witness
// (bit_share 0 and 0.9) and one for one point a chunk, so that each has compute-sanitizer's
// per-case time limit to itself.
using chunked = cuda_policy<lock_granularity::split, staging::chunked>;

template <class C>
void chunked_key_gives_the_cpu_proofs(double bits) {
    using chunked_g2_on_cpu = cuda_policy<lock_granularity::device, staging::chunked, false>;
    fixture<C> f(10, bits, 71);
    const auto [a_d, b_d] = r1cs_densities(f.ckt.system);
    auto compressed = std::make_shared<const proving_key<C>>(to_density_compressed(*f.pk, a_d, b_d));
    gpu_context gpu(0, kBudget);
    prover<C> cpu_prover(f.pk);
    std::mt19937_64 r0(81);
    const auto want = cpu_prover.prove(f.ckt.system, f.ckt.assignment, r0);
    // Many chunks with a short last one (100: 11 chunks), two (1000), one (2^22); one point a chunk
    // runs in ChunkedKeyStreamsItsBasesInChunksOnePointAChunk on a smaller key (1024 chunks a
    // vector here would make the case slow under compute-sanitizer).
    for (size_t chunk : {size_t(100), size_t(1000), size_t(1) << 22}) {
        prover<C, chunked> dense(f.pk, gpu, shared_system(f), {.key_chunk_points = chunk});
        prover<C, chunked> sparse(compressed, gpu, nullptr, {.key_chunk_points = chunk});
        prover<C, chunked_g2_on_cpu> g2_on_cpu(f.pk, gpu, nullptr, {.key_chunk_points = chunk});
        EXPECT_FALSE(dense.key_resident());
        std::mt19937_64 r1(81), r2(81), r3(81);
        EXPECT_EQ(dense.prove(f.ckt.assignment, r1), want) << "chunk " << chunk;
        EXPECT_EQ(sparse.prove(f.ckt.system, f.ckt.assignment, r2), want) << "chunk " << chunk;
        EXPECT_EQ(g2_on_cpu.prove(f.ckt.system, f.ckt.assignment, r3), want) << "chunk " << chunk;
    }
    EXPECT_EQ(gpu.budget().used(), 0u);
    // Room for one chunked proof only: the key (and a prestaged prover's fallback) would not fit.
    prover<C, chunked> sizing(f.pk, gpu, nullptr, {.key_chunk_points = 100});
    gpu_context small(0, sizing.per_proof_bytes());
    ASSERT_LT(small.budget().capacity(), groth16::detail::device_key<C>::bytes_for(*f.pk) + sizing.per_proof_bytes());
    prover<C, chunked> tight(f.pk, small, nullptr, {.key_chunk_points = 100});
    auto w = tight.make_worker();
    for (uint64_t k = 0; k < 2; ++k) {
        std::mt19937_64 r4(81);
        EXPECT_EQ(tight.prove(w, f.ckt.system, f.ckt.assignment, r4), want);
    }
}

TYPED_TEST(ProverGpuTest, ChunkedKeyStreamsItsBasesInChunksRandomWitness) {
    SKIP_WITHOUT_GPU();
    chunked_key_gives_the_cpu_proofs<TypeParam>(0.0);
}

TYPED_TEST(ProverGpuTest, ChunkedKeyStreamsItsBasesInChunksMostlyBitsWitness) {
    SKIP_WITHOUT_GPU();
    chunked_key_gives_the_cpu_proofs<TypeParam>(0.9);
}

// One point a chunk, on a 2^6 key; a chunk of no points is refused.
TYPED_TEST(ProverGpuTest, ChunkedKeyStreamsItsBasesInChunksOnePointAChunk) {
    SKIP_WITHOUT_GPU();
    using C = TypeParam;
    gpu_context gpu(0, kBudget);
    fixture<C> f(6, 0.5, 72);
    prover<C> cpu_prover(f.pk);
    std::mt19937_64 r0(82), r1(82);
    prover<C, chunked> one_point_a_chunk(f.pk, gpu, shared_system(f), {.key_chunk_points = 1});
    EXPECT_EQ(one_point_a_chunk.prove(f.ckt.assignment, r1), cpu_prover.prove(f.ckt.system, f.ckt.assignment, r0));
    EXPECT_THROW((prover<C, chunked>(f.pk, gpu, nullptr, {.key_chunk_points = 0})), invalid_argument);
}

// Compact proofs (cuda_prover_options::proof_layout, two slots of device scalars instead of
// a | b | c, z and the gathered vectors): the same proofs as the CPU prover, dense and compressed
// keys, prove(z) and prove(cs, z), several proofs on one worker (one case for each witness,
// bit_share 0 and 0.9); automatic picks them exactly when the full layout does not fit.
using layout = cuda_prover_options::layout;
const cuda_prover_options compact_options{.key_chunk_points = 100, .proof_layout = layout::compact};

template <class C>
void compact_proofs_give_the_cpu_proofs(double bits) {
    fixture<C> f(test::sanitized(10u, 8u), bits, 73);
    const auto [a_d, b_d] = r1cs_densities(f.ckt.system);
    auto compressed = std::make_shared<const proving_key<C>>(to_density_compressed(*f.pk, a_d, b_d));
    gpu_context gpu(0, kBudget);
    std::mt19937_64 r0(83);
    const auto want = prover<C>(f.pk).prove(f.ckt.system, f.ckt.assignment, r0);
    prover<C, chunked> dense(f.pk, gpu, shared_system(f), compact_options);
    prover<C, chunked> sparse(compressed, gpu, nullptr, compact_options);
    EXPECT_TRUE(dense.compact_proofs());
    EXPECT_FALSE(dense.circuit_resident());  // a, b, c come from the host
    const prover<C, chunked> full(f.pk, gpu, nullptr, {.key_chunk_points = 100, .proof_layout = layout::full});
    EXPECT_FALSE(full.compact_proofs());
    EXPECT_LT(dense.per_proof_bytes(), full.per_proof_bytes());
    auto w = dense.make_worker();
    for (int k = 0; k < 2; ++k) {
        std::mt19937_64 r1(83), r2(83);
        EXPECT_EQ(dense.prove(w, f.ckt.assignment, r1), want) << "proof " << k;
        EXPECT_EQ(sparse.prove(f.ckt.system, f.ckt.assignment, r2), want) << "proof " << k;
    }
}

TYPED_TEST(ProverGpuTest, CompactProofsGiveTheSameProofsRandomWitness) {
    SKIP_WITHOUT_GPU();
    compact_proofs_give_the_cpu_proofs<TypeParam>(0.0);
}

TYPED_TEST(ProverGpuTest, CompactProofsGiveTheSameProofsMostlyBitsWitness) {
    SKIP_WITHOUT_GPU();
    compact_proofs_give_the_cpu_proofs<TypeParam>(0.9);
}

TYPED_TEST(ProverGpuTest, CompactProofsGiveTheSameProofsWhenAutomaticPicksThem) {
    SKIP_WITHOUT_GPU();
    using C = TypeParam;
    fixture<C> f(8, 0.5, 74);
    gpu_context roomy(0, kBudget);
    EXPECT_FALSE((prover<C, chunked>(f.pk, roomy, nullptr, {.key_chunk_points = 100}).compact_proofs()));
    const size_t compact_bytes = prover<C, chunked>(f.pk, roomy, nullptr, compact_options).per_proof_bytes();
    gpu_context tight(0, compact_bytes);
    prover<C, chunked> automatic(f.pk, tight, nullptr, {.key_chunk_points = 100});
    EXPECT_TRUE(automatic.compact_proofs());
    std::mt19937_64 r0(84), r1(84);
    EXPECT_EQ(automatic.prove(f.ckt.system, f.ckt.assignment, r1),
              prover<C>(f.pk).prove(f.ckt.system, f.ckt.assignment, r0));
    EXPECT_EQ(tight.budget().used(), 0u);
}

// bellperson's shape end to end on the GPU: a compressed key on bellperson's domain, the
// supraseal-shaped input (a, b, c on the domain, assignments, density words), bellperson's proof
// bytes; the bytes equal the host prover's for the same randomness and verify.
TEST(ProverGpuSupraseal, BellpersonShapedInputOnTheGpu) {
    SKIP_WITHOUT_GPU();
    using C = bls12_381::curve;
    using Fr = C::fr;
    auto ckt = synthetic_circuit<Fr>({.log_domain = 8, .num_public = 3, .bit_share = 0.9, .seed = 43});
    const auto& cs = ckt.system;
    const auto [ad, bd] = r1cs_densities(cs);
    auto key = std::make_shared<const proving_key<C>>(
        to_density_compressed(test_setup_insecure<C>(cs, 43, ntt::domain_roots::bellperson), ad, bd));
    const size_t n = cs.domain_size(), ni = cs.num_public + 1, nv = cs.num_variables;
    std::vector<Fr> a(n), b(n), c(n);
    ASSERT_FALSE(cs.evaluate(ckt.assignment, a, b, c));
    auto words = [](const density_map& d, size_t lo, size_t hi) {
        density_map part(hi - lo);
        for (size_t i = lo; i < hi; ++i)
            if (d.test(i)) part.set(i - lo);
        return std::vector<uint64_t>(part.words().begin(), part.words().end());
    };
    const auto a_aux = words(ad, ni, nv), b_inp = words(bd, 0, ni), b_aux = words(bd, ni, nv);
    supraseal_assignment<Fr> in;
    in.a_aux_density = a_aux, in.a_aux_bit_len = nv - ni;
    in.b_inp_density = b_inp, in.b_inp_bit_len = ni;
    in.b_aux_density = b_aux, in.b_aux_bit_len = nv - ni;
    in.a = a, in.b = b, in.c = c;
    in.inputs = std::span<const Fr>(ckt.assignment).first(ni);
    in.aux = std::span<const Fr>(ckt.assignment).subspan(ni);
    gpu_context gpu(0, kBudget);
    prover<C, cuda_policy<>> on_gpu(key, gpu);
    std::mt19937_64 r1(61), r2(61);
    const io::bellperson_proof_bytes got = prove_supraseal_shaped(on_gpu, in, r1);
    EXPECT_EQ(got, prove_supraseal_shaped(prover<C>(key), in, r2));
    EXPECT_TRUE(verify(key->vk, ckt.public_inputs(), io::from_bellperson_bytes(got)));
}

TYPED_TEST(ProverGpuTest, ResidentCircuitNamesTheViolatedConstraint) {
    SKIP_WITHOUT_GPU();
    using C = TypeParam;
    fixture<C> f(10, 0.5, 21);
    gpu_context gpu(0, kBudget);
    prover<C, cuda_policy<>> p(f.pk, gpu, shared_system(f));
    ASSERT_TRUE(p.circuit_resident());
    // Corrupt one witness value in the middle: the GPU must name the same first violated
    // constraint as the host check.
    for (size_t var : {f.ckt.system.num_variables / 2, f.ckt.system.num_variables - 1}) {
        auto z = f.ckt.assignment;
        z[var] += C::fr::one();
        auto expected = f.ckt.system.first_unsatisfied(z);
        ASSERT_TRUE(expected.has_value());
        try {
            (void)p.prove(z);
            ADD_FAILURE() << "a violated constraint gave a proof";
        } catch (const invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("constraint " + std::to_string(*expected)), std::string::npos)
                << e.what();
        }
    }
    // The prover is still usable, and the budget is whole again after the failures.
    EXPECT_TRUE(verify(f.pk->vk, f.ckt.public_inputs(), p.prove(f.ckt.assignment)));
    EXPECT_THROW((void)p.prove(std::span<const typename C::fr>(f.ckt.assignment).first(3)), invalid_argument);
}

TYPED_TEST(ProverGpuTest, CircuitFallsBackToHostEvaluationWhenItDoesNotFit) {
    SKIP_WITHOUT_GPU();
    using C = TypeParam;
    fixture<C> f(9, 0.5, 22);
    using P = cuda_policy<lock_granularity::split, staging::prestaged>;
    gpu_context probe(0, kBudget);
    const prover<C, P> sizing(f.pk, probe);
    // Room for the key and one proof, not for the circuit too.
    gpu_context gpu(0, groth16::detail::device_key<C>::bytes_for(*f.pk) + sizing.resident_proof_bytes() + 64);
    prover<C, P> p(f.pk, gpu, shared_system(f));
    EXPECT_TRUE(p.key_resident());
    EXPECT_FALSE(p.circuit_resident());
    EXPECT_FALSE(p.circuit_fallback_reason().empty());
    EXPECT_TRUE(verify(f.pk->vk, f.ckt.public_inputs(), p.prove(f.ckt.assignment)));
}

TYPED_TEST(ProverGpuTest, GpuSetupEqualsHostSetup) {
    SKIP_WITHOUT_GPU();
    using Fr = typename TypeParam::fr;
    auto ckt = synthetic_circuit<Fr>({.log_domain = 7, .num_public = 2, .bit_share = 0.5, .seed = 5});
    auto host = test_setup_insecure<TypeParam>(ckt.system, 5);
    auto dev = test_setup_insecure_cuda<TypeParam>(ckt.system, 5);
    EXPECT_EQ(host.a, dev.a);
    EXPECT_EQ(host.b_g1, dev.b_g1);
    EXPECT_EQ(host.b_g2, dev.b_g2);
    EXPECT_EQ(host.l, dev.l);
    EXPECT_EQ(host.h, dev.h);
    EXPECT_EQ(host.vk.ic, dev.vk.ic);
}

// With density maps the GPU setup gives to_density_compressed's key without making the dense one,
// and refuses maps that do not cover the circuit or that drop a non-empty column.
TYPED_TEST(ProverGpuTest, GpuSetupMakesTheCompressedKeyDirectly) {
    SKIP_WITHOUT_GPU();
    using Fr = typename TypeParam::fr;
    auto ckt = synthetic_circuit<Fr>(porep_shape(7, 5));
    const auto [a_d, b_d] = r1cs_densities(ckt.system);
    ASSERT_LT(b_d.count(), b_d.size());  // the shape leaves B columns empty: there is something to drop
    const auto want = to_density_compressed(test_setup_insecure_cuda<TypeParam>(ckt.system, 5), a_d, b_d);
    const auto got = test_setup_insecure_cuda<TypeParam>(ckt.system, 5, std::pair{a_d, b_d});
    EXPECT_EQ(got.a, want.a);
    EXPECT_EQ(got.b_g1, want.b_g1);
    EXPECT_EQ(got.b_g2, want.b_g2);
    EXPECT_EQ(got.l, want.l);
    EXPECT_EQ(got.h, want.h);
    EXPECT_EQ(got.vk.ic, want.vk.ic);
    EXPECT_TRUE(got.a_density == a_d);
    EXPECT_TRUE(got.b_density == b_d);

    density_map short_map(a_d.size() - 1);
    EXPECT_THROW(test_setup_insecure_cuda<TypeParam>(ckt.system, 5, std::pair{short_map, b_d}), invalid_argument);
    size_t used = 0;  // a variable B reads: a map without it drops a non-empty column
    while (!b_d.test(used)) ++used;
    density_map missing(b_d.size());
    for (size_t i = 0; i < b_d.size(); ++i)
        if (b_d.test(i) && i != used) missing.set(i);
    EXPECT_THROW(test_setup_insecure_cuda<TypeParam>(ckt.system, 5, std::pair{a_d, missing}), invalid_argument);
}

// Every shipped CUDA policy and a caller's policy give the CPU prover's proofs, with a, b, c from the
// host and evaluated on the GPU, in the policy spelling and as cuda_prover options; one case for
// each witness (bit_share 0 and 0.9).
template <class C>
void every_policy_matches_the_cpu_prover(double bits) {
    fixture<C> f(test::sanitized(10u, 8u), bits, 11);
    gpu_context gpu(0, kBudget);
    expect_same_as_cpu<C, cuda_policy<lock_granularity::none, staging::on_demand>>(f, gpu, 1);
    expect_same_as_cpu<C, cuda_policy<lock_granularity::none, staging::prestaged>>(f, gpu, 2);
    expect_same_as_cpu<C, cuda_policy<lock_granularity::none, staging::streamed>>(f, gpu, 3);
    expect_same_as_cpu<C, cuda_policy<lock_granularity::device, staging::prestaged>>(f, gpu, 4);
    expect_same_as_cpu<C, cuda_policy<lock_granularity::split, staging::prestaged>>(f, gpu, 5);
    expect_same_as_cpu<C, cuda_policy<lock_granularity::split, staging::streamed>>(f, gpu, 6);
    expect_same_as_cpu<C, cuda_policy<lock_granularity::split, staging::on_demand, false>>(f, gpu, 7);
    expect_same_as_cpu<C, callers::gpu_policy>(f, gpu, 8);
    expect_same_as_cpu<C, cuda_policy<lock_granularity::split, staging::chunked>>(f, gpu, 9);
    EXPECT_EQ(gpu.budget().used(), 0u);  // every prover gave its key reservation back
}

TYPED_TEST(ProverGpuTest, EveryPolicyMatchesTheCpuProverRandomWitness) {
    SKIP_WITHOUT_GPU();
    every_policy_matches_the_cpu_prover<TypeParam>(0.0);
}

TYPED_TEST(ProverGpuTest, EveryPolicyMatchesTheCpuProverMostlyBitsWitness) {
    SKIP_WITHOUT_GPU();
    every_policy_matches_the_cpu_prover<TypeParam>(0.9);
}

TYPED_TEST(ProverGpuTest, PrestagedFallsBackWhenTheKeyDoesNotFit) {
    SKIP_WITHOUT_GPU();
    using C = TypeParam;
    fixture<C> f(9, 0.5, 12);
    using P = cuda_policy<lock_granularity::split, staging::prestaged>;
    gpu_context probe(0, kBudget);
    const prover<C, P> sizing(f.pk, probe);
    const size_t key_bytes = groth16::detail::device_key<C>::bytes_for(*f.pk);
    const size_t proof_bytes = sizing.resident_proof_bytes();
    // Room for one resident key, one proof beside it, and half a key more.
    gpu_context gpu(0, key_bytes + proof_bytes + key_bytes / 2);
    prover<C, P> first(f.pk, gpu);
    EXPECT_TRUE(first.key_resident());
    EXPECT_TRUE(verify(f.pk->vk, f.ckt.public_inputs(), first.prove(f.ckt.system, f.ckt.assignment)));
    // A second resident copy does not fit: the second prover falls back and says why.
    prover<C, P> second(f.pk, gpu);
    EXPECT_FALSE(second.key_resident());
    EXPECT_FALSE(second.fallback_reason().empty());
    // Its per-proof upload cannot fit beside the first prover's resident key: a clear error,
    // never a wait that could not end.
    EXPECT_THROW(second.prove(f.ckt.system, f.ckt.assignment), invalid_argument);
    // A budget that cannot hold one proof is a clear error too.
    gpu_context tiny(0, 1024);
    prover<C, cuda_policy<lock_granularity::split, staging::on_demand>> q(f.pk, tiny);
    EXPECT_THROW(q.prove(f.ckt.system, f.ckt.assignment), invalid_argument);
}

// One worker, several proofs: each equals the proof made without a worker for the same randomness
// (and the CPU prover's), verifies, and the worker keeps its share of the budget throughout. For
// a resident key (a, b, c on the GPU and from the host), a streamed and an on-demand key (per-proof
// uploads through the worker's events), a density-compressed key (the worker's gathered scalars)
// and B2 on the CPU.
template <class C, class Policy>
void same_proofs_on_one_worker(const fixture<C>& f, std::shared_ptr<const proving_key<C>> pk, uint64_t seed) {
    gpu_context gpu(0, kBudget);
    prover<C, Policy> p(pk, gpu, shared_system(f));
    prover<C> cpu_prover(f.pk);
    const size_t held_before = gpu.budget().used();
    cuda_worker<C> w = p.make_worker();
    EXPECT_EQ(w.reserved_bytes(), p.per_proof_bytes());
    const uint64_t rounds = test::sanitized(3, 2);  // two rounds already reuse the worker
    for (uint64_t k = 0; k < rounds; ++k) {
        std::mt19937_64 r1(seed + k), r2(seed + k), r3(seed + k), r4(seed + k), r5(seed + k);
        const auto on_worker = p.prove(w, f.ckt.assignment, r1);
        EXPECT_EQ(on_worker, p.prove(f.ckt.assignment, r2)) << "proof " << k;
        EXPECT_EQ(on_worker, cpu_prover.prove(f.ckt.system, f.ckt.assignment, r3)) << "proof " << k;
        EXPECT_EQ(p.prove(w, f.ckt.system, f.ckt.assignment, r4), p.prove(f.ckt.system, f.ckt.assignment, r5))
            << "proof " << k;
        EXPECT_TRUE(verify(f.pk->vk, f.ckt.public_inputs(), on_worker)) << "proof " << k;
        EXPECT_EQ(gpu.budget().used(), held_before + p.per_proof_bytes()) << "proof " << k;
    }
    EXPECT_EQ(w.proofs(), 2 * rounds);
}

// One case for each witness (bit_share 0 and 0.9) and key: a policy is 12 GPU proofs, and the ten
// together ran past compute-sanitizer racecheck's per-case time limit. Dense key: resident,
// streamed, on demand with B2 on the CPU; density-compressed: resident, streamed with B2 on the CPU.
template <class C>
void a_worker_reused_on_a_dense_key(double bits) {
    fixture<C> f(test::sanitized(10u, 8u), bits, 71);
    same_proofs_on_one_worker<C, cuda_policy<>>(f, f.pk, 72);
    same_proofs_on_one_worker<C, cuda_policy<lock_granularity::device, staging::streamed>>(f, f.pk, 73);
    same_proofs_on_one_worker<C, cuda_policy<lock_granularity::none, staging::on_demand, false>>(f, f.pk, 74);
}

template <class C>
void a_worker_reused_on_a_compressed_key(double bits) {
    fixture<C> f(test::sanitized(10u, 8u), bits, 71);
    const auto [a_d, b_d] = r1cs_densities(f.ckt.system);
    auto compressed = std::make_shared<const proving_key<C>>(to_density_compressed(*f.pk, a_d, b_d));
    same_proofs_on_one_worker<C, cuda_policy<>>(f, compressed, 75);
    same_proofs_on_one_worker<C, cuda_policy<lock_granularity::split, staging::streamed, false>>(f, compressed, 76);
}

TYPED_TEST(ProverGpuTest, AWorkerReusedAcrossProofsGivesTheProofsWithoutOneDenseKeyRandomWitness) {
    SKIP_WITHOUT_GPU();
    a_worker_reused_on_a_dense_key<TypeParam>(0.0);
}

TYPED_TEST(ProverGpuTest, AWorkerReusedAcrossProofsGivesTheProofsWithoutOneDenseKeyMostlyBitsWitness) {
    SKIP_WITHOUT_GPU();
    a_worker_reused_on_a_dense_key<TypeParam>(0.9);
}

TYPED_TEST(ProverGpuTest, AWorkerReusedAcrossProofsGivesTheProofsWithoutOneCompressedKeyRandomWitness) {
    SKIP_WITHOUT_GPU();
    a_worker_reused_on_a_compressed_key<TypeParam>(0.0);
}

TYPED_TEST(ProverGpuTest, AWorkerReusedAcrossProofsGivesTheProofsWithoutOneCompressedKeyMostlyBitsWitness) {
    SKIP_WITHOUT_GPU();
    a_worker_reused_on_a_compressed_key<TypeParam>(0.9);
}

// A worker's share of the budget is held from make_worker to its destruction (as a resident
// reservation: a proof never waits for it), proofs on it take no more, and one that does not fit
// is refused at once (make_worker throws, try_make_worker gives null), as is a proof without a
// worker that could not fit beside it. A worker proves only its own prover's proofs.
TYPED_TEST(ProverGpuTest, AWorkersVramShareLivesWithIt) {
    SKIP_WITHOUT_GPU();
    using C = TypeParam;
    fixture<C> f(9, 0.5, 77);
    gpu_context probe(0, kBudget);
    const prover<C, cuda_policy<>> sizing(f.pk, probe);
    const size_t key_bytes = groth16::detail::device_key<C>::bytes_for(*f.pk);
    const size_t proof_bytes = sizing.per_proof_bytes();
    ASSERT_TRUE(sizing.key_resident());
    // Room for the resident key and one and a half proofs.
    gpu_context gpu(0, key_bytes + proof_bytes + proof_bytes / 2);
    const prover<C, cuda_policy<>> p(f.pk, gpu);
    ASSERT_TRUE(p.key_resident()) << p.fallback_reason();
    const size_t key_held = gpu.budget().used();
    EXPECT_EQ(key_held, key_bytes);
    {
        cuda_worker<C> w = p.make_worker();
        EXPECT_EQ(gpu.budget().used(), key_held + proof_bytes);
        EXPECT_EQ(gpu.budget().resident(), key_held + proof_bytes);
        std::mt19937_64 r(78);
        EXPECT_TRUE(verify(f.pk->vk, f.ckt.public_inputs(), p.prove(w, f.ckt.system, f.ckt.assignment, r)));
        EXPECT_EQ(gpu.budget().used(), key_held + proof_bytes);
        EXPECT_THROW(p.make_worker(), invalid_argument);
        EXPECT_FALSE(p.try_make_worker());
        EXPECT_THROW(p.prove(f.ckt.system, f.ckt.assignment), invalid_argument);  // never a wait that could not end
        EXPECT_EQ(gpu.budget().used(), key_held + proof_bytes);
        const prover<C, cuda_policy<>> other(f.pk, probe);
        EXPECT_THROW(other.prove(w, f.ckt.system, f.ckt.assignment), invalid_argument);
        EXPECT_TRUE(verify(f.pk->vk, f.ckt.public_inputs(), p.prove(w, f.ckt.system, f.ckt.assignment, r)));
        EXPECT_EQ(w.proofs(), 2u);
    }
    EXPECT_EQ(gpu.budget().used(), key_held);
    EXPECT_EQ(gpu.budget().resident(), key_held);
    // Given back: a worker fits again, and so does a proof without one.
    std::unique_ptr<cuda_worker<C>> again = p.try_make_worker();
    ASSERT_TRUE(again);
    again.reset();
    EXPECT_TRUE(verify(f.pk->vk, f.ckt.public_inputs(), p.prove(f.ckt.system, f.ckt.assignment)));
    EXPECT_EQ(gpu.budget().used(), key_held);
}

// A policy's telemetry sink hears every stage of every proof, in order, with the names, host
// intervals and GPU intervals the proof's stage_times records; also when the caller asks for no
// stage times, on a worker or without one. Nothing is told of a proof that failed.
TYPED_TEST(ProverGpuTest, ATelemetrySinkHearsEveryStage) {
    SKIP_WITHOUT_GPU();
    using C = TypeParam;
    fixture<C> f(9, 0.5, 79);
    gpu_context gpu(0, kBudget);
    const prover<C, callers::policy_with_telemetry> p(f.pk, gpu, shared_system(f));
    ASSERT_TRUE(p.circuit_resident()) << p.circuit_fallback_reason();
    cuda_worker<C> w = p.make_worker();
    callers::stage_log::take();
    stage_times times;
    EXPECT_TRUE(verify(f.pk->vk, f.ckt.public_inputs(), p.prove(w, f.ckt.assignment, os_random{}, &times)));
    const auto heard = callers::stage_log::take();
    ASSERT_EQ(heard.size(), times.stages.size());
    for (size_t i = 0; i < heard.size(); ++i) {
        EXPECT_EQ(heard[i].name, times.stages[i].name);
        EXPECT_EQ(heard[i].start_ms, times.stages[i].start_ms);
        EXPECT_EQ(heard[i].end_ms, times.stages[i].end_ms);
        EXPECT_EQ(heard[i].gpu_start_ms, times.stages[i].gpu_start_ms);
        EXPECT_EQ(heard[i].gpu_end_ms, times.stages[i].gpu_end_ms);
    }
    auto names = [](const std::vector<stage_times::stage>& v) {
        std::vector<std::string> n;
        for (const auto& s : v) n.push_back(s.name);
        return n;
    };
    const std::vector<std::string> want = {
        "upload z", "evaluate a, b, c (GPU)", "H scalars (NTT)", "MSM A", "MSM B G1", "MSM B G2", "MSM L", "MSM H",
        "assemble"};
    EXPECT_EQ(names(heard), want);
    for (const auto& s : heard) EXPECT_EQ(s.on_gpu(), s.name != "assemble") << s.name;
    // No stage_times from the caller: the sink still hears them all.
    p.prove(w, f.ckt.assignment);
    EXPECT_EQ(names(callers::stage_log::take()), want);
    // Without a worker: the worker made for the proof adds its own stage.
    p.prove(f.ckt.system, f.ckt.assignment);
    const auto workerless = names(callers::stage_log::take());
    ASSERT_FALSE(workerless.empty());
    EXPECT_EQ(workerless.front(), "evaluate a, b, c");  // on the host
    EXPECT_NE(std::find(workerless.begin(), workerless.end(), "reserve VRAM"), workerless.end());
    EXPECT_EQ(workerless.back(), "assemble");
    // A failed proof tells the sink nothing.
    auto bad = f.ckt.assignment;
    bad.back() += C::fr::one();
    EXPECT_THROW(p.prove(w, bad), invalid_argument);
    EXPECT_TRUE(callers::stage_log::take().empty());
    EXPECT_TRUE(verify(f.pk->vk, f.ckt.public_inputs(), p.prove(w, f.ckt.assignment)));  // the worker still proves
    EXPECT_EQ(names(callers::stage_log::take()), want);
}

template <class C, class Policy>
void concurrent_equals_serial(const fixture<C>& f, unsigned workers, unsigned proofs_each) {
    gpu_context gpu(0, kBudget);
    prover<C, Policy> p(f.pk, gpu);
    prover<C, Policy> resident(f.pk, gpu, shared_system(f));  // a, b, c evaluated on the GPU
    std::vector<proof<C>> serial(workers * proofs_each), parallel(workers * proofs_each);
    for (unsigned k = 0; k < serial.size(); ++k) {
        std::mt19937_64 rng(1000 + k);
        serial[k] = p.prove(f.ckt.system, f.ckt.assignment, rng);
    }
    std::vector<std::thread> threads;
    for (unsigned w = 0; w < workers; ++w)
        threads.emplace_back([&, w] {
            for (unsigned j = 0; j < proofs_each; ++j) {
                unsigned k = w * proofs_each + j;
                std::mt19937_64 rng(1000 + k);
                parallel[k] = w % 2 ? resident.prove(f.ckt.assignment, rng)
                                    : p.prove(f.ckt.system, f.ckt.assignment, rng);
            }
        });
    for (auto& t : threads) t.join();
    for (unsigned k = 0; k < serial.size(); ++k) {
        EXPECT_EQ(parallel[k], serial[k]) << "proof " << k;
        EXPECT_TRUE(verify(f.pk->vk, f.ckt.public_inputs(), parallel[k])) << "proof " << k;
    }
}

// One case a policy, each on the same 2^11 circuit: a policy is 24 (or 12) proofs, and the five
// together ran past compute-sanitizer racecheck's per-case time limit. Under a sanitizer two
// workers prove once each (four proofs) on a 2^9 circuit: racecheck checks each kernel's shared
// memory, which does not depend on how many proofs run beside it.
template <class C, class Policy>
void concurrent_equals_serial_on_the_circuit(unsigned workers, unsigned proofs_each) {
    fixture<C> f(test::sanitized(11u, 9u), 0.9, 13);
    concurrent_equals_serial<C, Policy>(f, test::sanitized(workers, 2u), test::sanitized(proofs_each, 1u));
}

// Even without locks each worker has its own stream and buffers; the key is read-only.
TYPED_TEST(ProverGpuTest, ConcurrentWorkersMatchASerialRunUnlockedPrestaged) {
    SKIP_WITHOUT_GPU();
    concurrent_equals_serial_on_the_circuit<TypeParam, cuda_policy<lock_granularity::none, staging::prestaged>>(4, 3);
}

TYPED_TEST(ProverGpuTest, ConcurrentWorkersMatchASerialRunDeviceLockPrestaged) {
    SKIP_WITHOUT_GPU();
    concurrent_equals_serial_on_the_circuit<TypeParam, cuda_policy<lock_granularity::device, staging::prestaged>>(4, 3);
}

TYPED_TEST(ProverGpuTest, ConcurrentWorkersMatchASerialRunSplitLockPrestaged) {
    SKIP_WITHOUT_GPU();
    concurrent_equals_serial_on_the_circuit<TypeParam, cuda_policy<lock_granularity::split, staging::prestaged>>(4, 3);
}

TYPED_TEST(ProverGpuTest, ConcurrentWorkersMatchASerialRunSplitLockStreamed) {
    SKIP_WITHOUT_GPU();
    concurrent_equals_serial_on_the_circuit<TypeParam, cuda_policy<lock_granularity::split, staging::streamed>>(3, 2);
}

TYPED_TEST(ProverGpuTest, ConcurrentWorkersMatchASerialRunSplitLockOnDemandG2OnCpu) {
    SKIP_WITHOUT_GPU();
    concurrent_equals_serial_on_the_circuit<TypeParam, cuda_policy<lock_granularity::split, staging::on_demand, false>>(
        3, 2);
}


// The blocking calls one proof makes on the GPU, counted by the gpu:: wrappers (every wait in
// include/cuzk goes through them: the ctest raw_gpu_waits checks it). The path is the front
// door's GPU backend: a prestaged dense key, G2 on the GPU, a, b, c from the host, a worker made
// beforehand, stage times recorded. The expected count is the design's walk of that path through
// the code (docs/GROTH16.md, "Host waits per proof"), applied to this witness, not a number this
// test measured: the shared plan of z (its counts, then a stream wait: 2) and L's own plan (2);
// per witness MSM (A, B1, B2 over z, L over its aux part) a copy of the ones' sum when the
// scalars hold a one, and the MSM end (overflow flag, window sums, stream wait: 3) when they hold
// another value, else one stream wait; H's MSM end (3); the worker's two streams at the end (2);
// the stage clock's anchor (1). 26 when every class is present.
TYPED_TEST(ProverGpuTest, HostWaitsPerProof) {
    SKIP_WITHOUT_GPU();
    using C = TypeParam;
    fixture<C> f(12, 0.5, 81);
    gpu_context gpu(0, kBudget);
    cuda_prover<C> p(f.pk, gpu);
    auto w = p.make_worker();
    std::mt19937_64 rng(5);
    (void)p.prove(w, f.ckt.system, f.ckt.assignment, rng);  // first use: pools and plans warm
    stage_times t;
    const gpu::host_wait_count before = gpu::host_waits();
    const proof<C> pi = p.prove(w, f.ckt.system, f.ckt.assignment, rng, &t);
    const gpu::host_wait_count d = gpu::host_waits() - before;
    EXPECT_TRUE(verify(f.pk->vk, f.ckt.public_inputs(), pi));
    EXPECT_EQ(t.host_waits, d.waits) << "stage_times counts the proof's waits";
    EXPECT_EQ(t.stalls, d.stalls);
    std::printf("host waits per proof: %llu, of which stalls %llu\n", (unsigned long long)d.waits,
                (unsigned long long)d.stalls);
    // Three, whatever the witness: the shared plan's counts (A, B1, B2 over z), L's plan's counts,
    // and the end of the proof; every MSM's sum waits in the worker's result area.
    EXPECT_EQ(d.waits, 3u);
    EXPECT_LE(d.stalls, d.waits);

    // The same on the resident circuit's path: its check's answer is read after the one wait.
    cuda_prover<C> resident(f.pk, gpu, shared_system(f));
    ASSERT_TRUE(resident.circuit_resident()) << resident.circuit_fallback_reason();
    auto rw = resident.make_worker();
    (void)resident.prove(rw, f.ckt.assignment, rng);
    const gpu::host_wait_count before_z = gpu::host_waits();
    const proof<C> pz = resident.prove(rw, f.ckt.assignment, rng);
    const gpu::host_wait_count dz = gpu::host_waits() - before_z;
    EXPECT_TRUE(verify(f.pk->vk, f.ckt.public_inputs(), pz));
    EXPECT_EQ(dz.waits, 3u);
}


}  // namespace
