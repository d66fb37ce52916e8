// SPDX-License-Identifier: MIT OR Apache-2.0
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

// ---- curve groups (ec/: affine, jacobian, xyzz) ---------------------------------------------
// E1: y^2 = x^3 + 3 over Fp; E2: y^2 = x^3 + 3/(u + 9) over Fp2 (D-type sextic twist).
// Generators from EIP-196/197; beta and psi constants derived (scratch script) and checked by
// tests/test_ec_subgroup.cpp.

namespace detail {
/// An Fp constant from a canonical integer, put into Montgomery form with bigint arithmetic
/// only: these initialisers are also evaluated while nvcc compiles device code, where
/// mont_field's operators take the (non-constexpr) PTX path.
constexpr fp fp_literal(const bigint<4>& x) {
    if (x >= fp::modulus) throw "fp_literal: value is not below p";
    return fp::from_montgomery_unchecked(mul_mod_slow(x, fp::params::r1, fp::modulus));
}
constexpr fp fp_hex(const char* s) { return fp_literal(bigint_from_hex<4>(s)); }
constexpr fp fp_dec(const char* s) { return fp_literal(bigint_from_dec<4>(s)); }
constexpr fp fp_small(uint64_t v) { return fp_literal(bigint<4>::from_u64(v)); }
}  // namespace detail

/// The BN parameter u = 4965661367192848881 (p = 36u^4 + 36u^3 + 24u^2 + 6u + 1).
inline constexpr uint64_t u_param = 4965661367192848881;

/// G1 = E1(Fp), which has prime order r (cofactor 1).
struct g1 {
    using field = fp;
    using scalar = fr;
    static constexpr field b = detail::fp_small(3);
    static constexpr field generator_x = detail::fp_small(1);
    static constexpr field generator_y = detail::fp_small(2);
    static constexpr bigint<1> cofactor = bigint<1>{{1}};
    static constexpr bigint<1> cofactor_clear = bigint<1>{{1}};
    /// phi(x, y) = (beta x, y) acts on G1 as [glv_lambda], a cube root of unity mod r. beta (in Fp)
    /// and lambda (in Fr) are the pair of cube roots of unity that go together (derived by a scratch
    /// script, the same pair as gnark-crypto's ecc/bn254 thirdRootOneG1 and lambdaGLV); checked by
    /// tests/test_msm_host.cpp (phi(P) == [lambda]P, beta^3 = 1, lambda^3 = 1 mod r).
    static constexpr field beta =
        detail::fp_hex("0x59e26bcea0d48bacd4f263f1acdb5c4f5763473177fffffe");
    static constexpr bigint<4> glv_lambda = bigint_from_hex<4>("0xb3c4d79d41a917585bfc41088d8daaa78b17ea66b99c90dd");
    /// The reduced basis v1 = (a1, -b1), v2 = (a2, b2) of the GLV lattice {(x, y) : x + y lambda = 0
    /// mod r}, as magnitudes: a1 = b2 = 2u + 1, b1 = 6u^2 + 2u, a2 = 6u^2 + 4u + 1 (extended Euclid on
    /// (r, lambda) stopped at sqrt(r), Gallant-Lambert-Vanstone, CRYPTO 2001, section 4; the known
    /// BN-curve form in u); a1 b2 + b1 a2 = r. Used by msm/scalar_split.hpp.
    static constexpr bigint<2> glv_a1 = bigint<2>{{2 * u_param + 1, 0}};
    static constexpr bigint<2> glv_b1 = bigint<2>{{uint64_t(6 * u128(u_param) * u_param + 2 * u128(u_param)),
                                                   uint64_t((6 * u128(u_param) * u_param + 2 * u128(u_param)) >> 64)}};
    static constexpr bigint<2> glv_a2 = bigint<2>{{uint64_t(6 * u128(u_param) * u_param + 4 * u128(u_param) + 1),
                                                   uint64_t((6 * u128(u_param) * u_param + 4 * u128(u_param) + 1) >> 64)}};
    static constexpr bigint<2> glv_b2 = glv_a1;
    static constexpr const char* name = "BN254 G1";
};

/// G2: the order-r subgroup of E2(Fp2).
struct g2 {
    using field = fp2;
    using scalar = fr;
    /// b' = 3 / (u + 9).
    static constexpr field b = field{
        detail::fp_hex("0x2b149d40ceb8aaae81be18991be06ac3b5b4c5e559dbefa33267e6dc24a138e5"),
        detail::fp_hex("0x009713b03af0fed4cd2cafadeed8fdf4a74fa084e52d1852e4a2bd0685c315d2")};
    /// EIP-197's generator (c0 real part, c1 imaginary part).
    static constexpr field generator_x = field{
        detail::fp_dec("10857046999023057135944570762232829481370756359578518086990519993285655852781"),
        detail::fp_dec("11559732032986387107991004021392285783925812861821192530917403151452391805634")};
    static constexpr field generator_y = field{
        detail::fp_dec("8495653923123431417604973247489272438418190587263600148770280649306958101930"),
        detail::fp_dec("4082367875863433681332203403145435568316851327593401208105741076214120093531")};
    /// h2 = 2p - r.
    static constexpr bigint<4> cofactor =
        bigint_from_hex<4>("0x30644e72e131a029b85045b68181585e06ceecda572a2489345f2299c0f9fa8d");
    static constexpr bigint<4> cofactor_clear = cofactor;
    /// psi(x, y) = (psi_x conj(x), psi_y conj(y)), psi_x = (u+9)^((p-1)/3), psi_y = (u+9)^((p-1)/2).
    static constexpr field psi_x = field{
        detail::fp_hex("0x2fb347984f7911f74c0bec3cf559b143b78cc310c2c3330c99e39557176f553d"),
        detail::fp_hex("0x16c9e55061ebae204ba4cc8bd75a079432ae2a1d0b7c9dce1665d51c640fcba2")};
    static constexpr field psi_y = field{
        detail::fp_hex("0x063cf305489af5dcdc5ec698b6e2f9b9dbaae0eda9c95998dc54014671a0135a"),
        detail::fp_hex("0x07c03cbcac41049a0704b5a7ec796f2b21807dc98fa25bd282d37f632623b0e3")};
    /// psi's eigenvalue on G2, 6u^2 = p mod r (the endomorphism split of the host MSM; also the subgroup
    /// test psi(P) == [6u^2]P of Scott, ePrint 2021/1130, which the seed's test below replaces).
    static constexpr bigint<2> eigenvalue_abs = bigint_from_hex<2>("0x6f4d8248eeb859fbf83e9682e87cfd46");
    static constexpr bool eigenvalue_negative = false;
    /// Subgroup test [u + 1]P + psi([u]P) + psi^2([u]P) == psi^3([2u]P) (ePrint 2022/348; ec/subgroup.hpp).
    static constexpr uint64_t subgroup_seed = u_param;
    static constexpr const char* name = "BN254 G2";
};

// ---- pairing (pairing/: optimal ate) ---------------------------------------------------------

/// Optimal ate pairing parameters: BN model, loop over 6u + 2 in NAF, D-type twist.
struct pairing_config {
    using g1 = bn254::g1;
    using g2 = bn254::g2;
    using gt_field = fp12;
    static constexpr bool bls12_family = false;      ///< false: BN family
    static constexpr bool twist_m_type = false;      ///< E2: y^2 = x^3 + b / xi (D-type)
    static constexpr uint64_t loop_param = u_param;  ///< |x| (BLS12) or |u| (BN)
    static constexpr bool loop_param_negative = false;
    static constexpr const char* name = "BN254";
};

}  // namespace cuzk::bn254
