// BN254 (alt_bn128): the curve of Ethereum's precompiles (EIP-196/197), circom and snarkjs.
// Constants from EIP-197.
#pragma once

#include "cuzk/field/mont_field.hpp"

namespace cuzk::bn254 {

/// Base field Fq, 254 bits.
struct fq_config {
    static constexpr size_t limbs = 4;
    static constexpr bigint<4> modulus = bigint_from_dec<4>(
        "21888242871839275222246405745257275088696311157297823662689037894645226208583");
    static constexpr const char* name = "BN254 Fq";
};
using fq = mont_field<fq_config>;
/// Alias so generic code can say Curve::fp for either family.
using fp = fq;

/// Scalar field Fr (the group order r), 254 bits, 2-adicity 28.
struct fr_config {
    static constexpr size_t limbs = 4;
    static constexpr bigint<4> modulus = bigint_from_dec<4>(
        "21888242871839275222246405745257275088548364400416034343698204186575808495617");
    /// Smallest quadratic non-residue; snarkjs derives its roots of unity from it too.
    static constexpr uint64_t nonresidue = 5;
    static constexpr const char* name = "BN254 Fr";
};
using fr = mont_field<fr_config>;

}  // namespace cuzk::bn254
