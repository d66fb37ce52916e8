// SPDX-License-Identifier: MIT OR Apache-2.0
// A consumer's translation unit over cuzk::instances: it includes the CUDA prover and proves with
// one policy on each curve, while the kernels come precompiled from the library (with
// CUZK_USE_INSTANCES=OFF the same source is built header-only). Its compile time is the
// "consumer TU" row of docs/log/2026-12.md, "## Build". Skipped without a GPU.
#include <gtest/gtest.h>

#include <random>

#include "cuzk/groth16/cuda/prover.cuh"
#include "cuzk/groth16/synthetic_circuit.hpp"
#include "cuzk/groth16/test_setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "gpu_test.hpp"
#include "groth16_curves.hpp"

namespace {

using namespace cuzk;
using namespace cuzk::groth16;

template <class C>
class InstancesConsumer : public ::testing::Test {};
TYPED_TEST_SUITE(InstancesConsumer, test::groth16_curves);

TYPED_TEST(InstancesConsumer, ProvesAndVerifiesLikeTheCpuProver) {
    SKIP_WITHOUT_GPU();
    using C = TypeParam;
    using fr = typename C::fr;
    auto ckt = synthetic_circuit<fr>({.log_domain = 10, .num_public = 2, .bit_share = 0.5, .seed = 7});
    auto pk = std::make_shared<const proving_key<C>>(test_setup_insecure<C>(ckt.system, 7));
    gpu_context gpu(0, size_t(2) << 30);
    cuda_prover<C> on_gpu(pk, gpu, std::make_shared<const r1cs<fr>>(ckt.system));
    prover<C> on_cpu(pk);
    std::mt19937_64 r1(11), r2(11);
    const proof<C> p = on_gpu.prove(ckt.assignment, r1);
    EXPECT_EQ(p, on_cpu.prove(ckt.system, ckt.assignment, r2));
    EXPECT_TRUE(verify(pk->vk, ckt.public_inputs(), p));
}

}  // namespace
