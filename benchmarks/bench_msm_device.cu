// SPDX-License-Identifier: MIT OR Apache-2.0
// Device MSM benchmarks, G1 of BLS12-381 and BN254 (body in bench_msm_device_common.cuh):
// device-resident points, uniform random full-width scalars, every size verified against the
// closed form first. Sizes 2^CUZK_MSM_LOG_MIN .. 2^CUZK_MSM_LOG_MAX (default 10..26); with
// precomputed shifted bases (fixed_bases.cuh) up to 2^CUZK_MSM_FIXED_LOG_MAX (default 24); the
// witness MSM over bases streamed from host memory (msm_streamed/, CUZK_MSM_STREAMED=0 skips it).
#include "bench_msm_device_common.cuh"

int main(int argc, char** argv) {
    const unsigned hi = msm_bench::env_or("CUZK_MSM_LOG_MAX", 26);
    msm_bench::register_group<msm_test::bls_g1>("bls12_381_g1", hi);
    msm_bench::register_group<msm_test::bn_g1>("bn254_g1", hi);
    const unsigned fixed_hi = std::min(hi, msm_bench::env_or("CUZK_MSM_FIXED_LOG_MAX", 24));
    msm_bench::register_fixed<msm_test::bls_g1>("bls12_381_g1", fixed_hi);
    msm_bench::register_fixed<msm_test::bn_g1>("bn254_g1", fixed_hi);
    msm_bench::register_witness<msm_test::bls_g1>("bls12_381_g1", std::min(hi, 24u));
    msm_bench::register_witness<msm_test::bn_g1>("bn254_g1", std::min(hi, 24u));
    // The witness MSM over bases streamed from host memory (a small VRAM budget's MSM).
    if (msm_bench::env_or("CUZK_MSM_STREAMED", 1) != 0)
        msm_bench::register_streamed<msm_test::bls_g1>("bls12_381_g1", {{22, 20}, {24, 20}, {24, 22}});
    // GLV shapes (2n scalars of half the bits) for 2^22 and 2^24 full-width MSMs.
    if (msm_bench::env_or("CUZK_MSM_SHORT", 1) != 0)
        msm_bench::register_short<msm_test::bls_g1>("bls12_381_g1", {{23, 128}, {25, 128}});
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
