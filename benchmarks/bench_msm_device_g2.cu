// SPDX-License-Identifier: MIT OR Apache-2.0
// Device MSM benchmarks, G2 of BLS12-381 (beside sppark's G2 anchor) and BN254 (plain MSM only);
// body in bench_msm_device_common.cuh. The MSM kernels come precompiled (cuzk::instances), so
// the BN254 rows cost this file little compile time.
// Sizes 2^CUZK_MSM_LOG_MIN .. 2^CUZK_MSM_G2_LOG_MAX (default 10..24).
#include "bench_msm_device_common.cuh"

int main(int argc, char** argv) {
    const unsigned hi = msm_bench::env_or("CUZK_MSM_G2_LOG_MAX", 24);
    msm_bench::register_group<msm_test::bls_g2>("bls12_381_g2", hi);
    msm_bench::register_group<msm_test::bn_g2>("bn254_g2", hi);
    msm_bench::register_witness<msm_test::bls_g2>("bls12_381_g2", hi);
    // GLS shapes for a 2^20 and a 2^22 full-width MSM: 4n scalars of 64 bits, 2n of 128.
    if (msm_bench::env_or("CUZK_MSM_SHORT", 1) != 0)
        msm_bench::register_short<msm_test::bls_g2>("bls12_381_g2", {{22, 64}, {21, 128}, {24, 64}, {23, 128}});
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
