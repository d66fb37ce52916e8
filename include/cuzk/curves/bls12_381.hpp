// BLS12-381: the curve of Filecoin, Ethereum consensus and Zcash Sapling.
// Constants from EIP-2537 and the IETF pairing-friendly-curves draft.
#pragma once

#include "cuzk/field/fp12.hpp"
#include "cuzk/field/mont_field.hpp"

namespace cuzk::bls12_381 {

/// Base field Fp, 381 bits.
struct fp_config {
    static constexpr size_t limbs = 6;
    static constexpr bigint<6> modulus = bigint_from_hex<6>(
        "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab");
    static constexpr const char* name = "BLS12-381 Fp";
};
using fp = mont_field<fp_config>;

/// Scalar field Fr (the group order r), 255 bits, 2-adicity 32.
struct fr_config {
    static constexpr size_t limbs = 4;
    static constexpr bigint<4> modulus =
        bigint_from_hex<4>("0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001");
    /// Smallest quadratic non-residue; snarkjs derives its roots of unity from it too.
    static constexpr uint64_t nonresidue = 5;
    static constexpr const char* name = "BLS12-381 Fr";
};
using fr = mont_field<fr_config>;

// ---- extension tower (pairing and G2) -------------------------------------------------------
// Fp2 = Fp[u]/(u^2 + 1), Fp6 = Fp2[v]/(v^3 - (1 + u)), Fp12 = Fp6[w]/(w^2 - v)
// (EIP-2537 and the IETF pairing-friendly-curves draft).

/// Fp2 configuration: u^2 = -1.
struct fp2_config {
    using base = fp;
    static constexpr int64_t nonresidue = -1;
    static constexpr const char* name = "BLS12-381 Fp2";
};
/// Fp2 = Fp[u]/(u^2 + 1): coordinates of G2.
using fp2 = ::cuzk::fp2<fp2_config>;

/// Fp6 configuration: v^3 = xi = 1 + u.
struct fp6_config {
    using base = fp2;
    static constexpr uint64_t nonresidue_c0 = 1;
    static constexpr uint64_t nonresidue_c1 = 1;
    static constexpr const char* name = "BLS12-381 Fp6";
};
/// Fp6 = Fp2[v]/(v^3 - (1 + u)).
using fp6 = ::cuzk::fp6<fp6_config>;

/// Fp12 configuration: w^2 = v.
struct fp12_config {
    using base = fp6;
    static constexpr const char* name = "BLS12-381 Fp12";
};
/// Fp12 = Fp6[w]/(w^2 - v): the target group GT of the pairing lives here.
using fp12 = ::cuzk::fp12<fp12_config>;

}  // namespace cuzk::bls12_381
