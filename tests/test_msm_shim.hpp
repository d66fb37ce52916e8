// TEMPORARY: G1 configs until cuzk/curves provides bls12_381::g1 / bn254::g1.
#pragma once
#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"
namespace msm_test {
struct shim_bls_g1 {
    using field = cuzk::bls12_381::fp;
    using scalar = cuzk::bls12_381::fr;
    static constexpr field b = field::from_u64(4);
    static constexpr field generator_x = field::from_hex(
        "0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb");
    static constexpr field generator_y = field::from_hex(
        "0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1");
    static constexpr const char* name = "BLS12-381 G1";
};
struct shim_bn_g1 {
    using field = cuzk::bn254::fp;
    using scalar = cuzk::bn254::fr;
    static constexpr field b = field::from_u64(3);
    static constexpr field generator_x = field::from_u64(1);
    static constexpr field generator_y = field::from_u64(2);
    static constexpr const char* name = "BN254 G1";
};
}  // namespace msm_test
