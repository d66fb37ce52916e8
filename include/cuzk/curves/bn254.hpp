// BN254 (alt_bn128): the curve of Ethereum's precompiles (EIP-196/197), circom and snarkjs.
// Constants from EIP-197.
#pragma once

#include "cuzk/field/fp12.hpp"
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

// ---- extension tower (pairing and G2) -------------------------------------------------------
// Fp2 = Fp[u]/(u^2 + 1), Fp6 = Fp2[v]/(v^3 - (9 + u)), Fp12 = Fp6[w]/(w^2 - v)
// (EIP-197).

/// Fp2 configuration: u^2 = -1.
struct fp2_config {
    using base = fp;
    static constexpr int64_t nonresidue = -1;
    static constexpr const char* name = "BN254 Fp2";
};
/// Fp2 = Fp[u]/(u^2 + 1): coordinates of G2.
using fp2 = ::cuzk::fp2<fp2_config>;

/// Fp6 configuration: v^3 = xi = 9 + u.
struct fp6_config {
    using base = fp2;
    static constexpr uint64_t nonresidue_c0 = 9;
    static constexpr uint64_t nonresidue_c1 = 1;
    static constexpr const char* name = "BN254 Fp6";
};
/// Fp6 = Fp2[v]/(v^3 - (9 + u)).
using fp6 = ::cuzk::fp6<fp6_config>;

/// Fp12 configuration: w^2 = v.
struct fp12_config {
    using base = fp6;
    static constexpr const char* name = "BN254 Fp12";
};
/// Fp12 = Fp6[w]/(w^2 - v): the target group GT of the pairing lives here.
using fp12 = ::cuzk::fp12<fp12_config>;

}  // namespace cuzk::bn254
