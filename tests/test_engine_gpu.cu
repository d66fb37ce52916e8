// SPDX-License-Identifier: MIT OR Apache-2.0
// The engine on the CUDA prover: batches of 24 partitions with the device lists [0] and [0, 0]
// (two slots on one GPU) give the CPU prover's proofs for the same randomness, a bad witness
// fails alone, the workers make their cuda_workers once and reuse them (a second batch makes
// none), and the trace's GPU intervals give a GPU busy share. Skipped without a GPU.
#include <gtest/gtest.h>

#include <random>

#include "cuzk/engine/engine_cuda.cuh"
#include "cuzk/groth16/test_setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "engine_test_circuit.hpp"
#include "gpu_test.hpp"
#include "groth16_curves.hpp"

namespace {

using namespace cuzk;
using namespace cuzk::groth16;

template <class C>
class EngineGpuTest : public ::testing::Test {};
TYPED_TEST_SUITE(EngineGpuTest, test::groth16_curves);

constexpr size_t kBudget = size_t(4) << 30;
constexpr size_t kLength = 1000;  // constraints: a 2^10 domain
constexpr size_t kPartitions = 24;

template <class C>
struct setup {
    using Fr = typename C::fr;
    std::shared_ptr<const r1cs<Fr>> system = std::make_shared<const r1cs<Fr>>(test::chain<Fr>(0, kLength).system);
    std::shared_ptr<const proving_key<C>> pk = std::make_shared<const proving_key<C>>(
        test_setup_insecure<C>(*system, 11));

    std::vector<partition<Fr>> partitions() const {
        std::vector<partition<Fr>> v;
        for (size_t k = 0; k < kPartitions; ++k)
            v.push_back({.z = test::chain<Fr>(k + 2, kLength).assignment, .insecure_seed = 500 + k});
        return v;
    }
};

template <class C>
void expect_batch_matches_cpu(const std::vector<int>& devices, unsigned workers, cuda_prover_options opt = {}) {
    setup<C> s;
    auto e = make_cuda_engine<C>(s.pk, s.system, devices, kBudget, {.workers_per_slot = workers}, opt);
    ASSERT_EQ(e->slots(), devices.size());
    const auto* gpu_prover = e->slot(0).prover.template get<cuda_prover<C>>();
    ASSERT_NE(gpu_prover, nullptr);
    EXPECT_TRUE(gpu_prover->circuit_resident()) << gpu_prover->circuit_fallback_reason();
    auto parts = s.partitions();
    parts[5].z.back() += C::fr::one();  // fails alone: a violated constraint, flagged on the GPU
    const auto out = e->prove_all(parts);
    const prover<C> cpu(s.pk, s.system);
    for (size_t k = 0; k < kPartitions; ++k) {
        if (k == 5) {
            EXPECT_FALSE(out[k].value);
            EXPECT_NE(out[k].message().find("violates constraint"), std::string::npos) << out[k].message();
            continue;
        }
        ASSERT_TRUE(out[k].value) << k << ": " << out[k].message();
        std::mt19937_64 rng(*parts[k].insecure_seed);
        EXPECT_EQ(*out[k].value, cpu.prove(std::span<const typename C::fr>(parts[k].z), rng)) << k;
        EXPECT_TRUE(verify(s.pk->vk, std::span<const typename C::fr>(parts[k].z.data() + 1, 1), *out[k].value));
    }
    const engine_progress p = e->progress();
    EXPECT_EQ(p.done, kPartitions - 1);
    EXPECT_EQ(p.failed, 1u);
    for (const auto& slot : p.slots) EXPECT_TRUE(slot.usable) << slot.unusable_reason;
    // One cuda_worker per worker thread at most (the budget holds them all), kept for the next batch.
    EXPECT_GE(p.worker_states, 1u);
    EXPECT_LE(p.worker_states, devices.size() * workers);

    const auto traces = e->take_trace();
    ASSERT_EQ(traces.size(), kPartitions);
    for (const auto& t : traces) {
        if (!t.ok) continue;
        size_t on_gpu = 0;
        for (const auto& st : t.stages) {
            if (!st.on_gpu()) continue;
            ++on_gpu;
            EXPECT_LE(st.gpu_start_ms, st.gpu_end_ms) << st.name;
            // The stream starts a stage only after the worker began enqueuing it, and the
            // partition ends after the stream passed it. GPU times are put on the host clock by
            // an anchor read after its synchronisation returned, so they are late by that wake-up,
            // never early; the prover clamps them to the moment the stream had passed them all
            // (47 ms late beside 36 sanitizer runs before the clamp; 1 ms of slack kept).
            EXPECT_GE(st.gpu_start_ms, st.start_ms - 0.001) << st.name;
            EXPECT_LE(st.gpu_end_ms, t.end_ms + 1.0) << st.name;
        }
        EXPECT_GE(on_gpu, 6u);  // upload, NTT, five MSMs (evaluation too with the resident circuit)
    }
    auto again = s.partitions();
    again.resize(4);
    for (const auto& o : e->prove_all(again)) EXPECT_TRUE(o.value) << o.message();
    EXPECT_EQ(e->progress().worker_states, p.worker_states) << "a second batch made new workers";
    const trace_summary sum = summarise(traces);
    ASSERT_EQ(sum.gpus.size(), 1u);
    EXPECT_EQ(sum.gpus[0].device, 0);
    EXPECT_GT(sum.gpus[0].busy_ms, 0);
    EXPECT_LE(sum.gpus[0].busy_ms, sum.wall_ms + 0.1);
    std::printf("%s", format_summary(sum).c_str());
}

TYPED_TEST(EngineGpuTest, OneDeviceTwoWorkers) {
    SKIP_WITHOUT_GPU();
    expect_batch_matches_cpu<TypeParam>({0}, 2);
}

TYPED_TEST(EngineGpuTest, OneDeviceListedTwice) {
    SKIP_WITHOUT_GPU();
    expect_batch_matches_cpu<TypeParam>({0, 0}, 2, {.locking = lock_granularity::device, .stage = staging::streamed});
}

TYPED_TEST(EngineGpuTest, AnUnknownDeviceIsAClearError) {
    SKIP_WITHOUT_GPU();
    int count = 0;
    ASSERT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
    setup<TypeParam> s;
    EXPECT_THROW((make_cuda_engine<TypeParam>(s.pk, s.system, {0, count}, kBudget)), cuda_error);
    int current = -1;
    ASSERT_EQ(cudaGetDevice(&current), cudaSuccess);  // the failed cudaSetDevice left no error behind
}

}  // namespace
