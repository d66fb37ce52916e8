// SPDX-License-Identifier: MIT OR Apache-2.0
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

// ---- curve groups (ec/: affine, jacobian, xyzz) ---------------------------------------------
// E1: y^2 = x^3 + 4 over Fp; E2: y^2 = x^3 + 4(u + 1) over Fp2 (M-type sextic twist).
// Generators from EIP-2537 / the IETF pairing-friendly-curves draft; h_eff from RFC 9380 8.8;
// beta and psi constants derived (scratch script) and checked by tests/test_ec_subgroup.cpp.

namespace detail {
/// An Fp constant from a canonical integer, put into Montgomery form with bigint arithmetic
/// only: these initialisers are also evaluated while nvcc compiles device code, where
/// mont_field's operators take the (non-constexpr) PTX path.
constexpr fp fp_literal(const bigint<6>& x) {
    if (x >= fp::modulus) throw "fp_literal: value is not below p";
    return fp::from_montgomery_unchecked(mul_mod_slow(x, fp::params::r1, fp::modulus));
}
constexpr fp fp_hex(const char* s) { return fp_literal(bigint_from_hex<6>(s)); }
constexpr fp fp_dec(const char* s) { return fp_literal(bigint_from_dec<6>(s)); }
constexpr fp fp_small(uint64_t v) { return fp_literal(bigint<6>::from_u64(v)); }
}  // namespace detail

/// |x| for the BLS parameter x = -0xd201000000010000 (p, r and the cofactors are polynomials in x).
inline constexpr uint64_t x_abs = 0xd201000000010000;
/// The BLS parameter x is negative.
inline constexpr bool x_is_negative = true;

/// G1: the order-r subgroup of E1(Fp).
struct g1 {
    using field = fp;
    using scalar = fr;
    static constexpr field b = detail::fp_small(4);
    static constexpr field generator_x = detail::fp_hex(
        "0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb");
    static constexpr field generator_y = detail::fp_hex(
        "0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1");
    /// h1 = (x - 1)^2 / 3.
    static constexpr bigint<2> cofactor = bigint_from_hex<2>("0x396c8c005555e1568c00aaab0000aaab");
    /// h_eff = 1 - x (RFC 9380, 8.8.1).
    static constexpr bigint<1> cofactor_clear = bigint<1>{{0xd201000000010001}};
    /// Primitive cube root of unity with phi(P) = [-x^2]P on G1.
    static constexpr field beta = detail::fp_hex(
        "0x5f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffe");
    /// Subgroup test phi(P) == [-x^2]P (Scott, ePrint 2021/1130): eigenvalue -x^2.
    static constexpr bigint<2> eigenvalue_abs = bigint_from_hex<2>("0xac45a4010001a4020000000100000000");
    static constexpr bool eigenvalue_negative = true;
    static constexpr const char* name = "BLS12-381 G1";
};

/// G2: the order-r subgroup of E2(Fp2).
struct g2 {
    using field = fp2;
    using scalar = fr;
    static constexpr field b = field{detail::fp_small(4), detail::fp_small(4)};
    static constexpr field generator_x = field{
        detail::fp_hex("0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"),
        detail::fp_hex("0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e")};
    static constexpr field generator_y = field{
        detail::fp_hex("0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801"),
        detail::fp_hex("0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be")};
    /// h2 = (x^8 - 4x^7 + 5x^6 - 4x^4 + 6x^3 - 4x^2 - 4x + 13) / 9.
    static constexpr bigint<8> cofactor = bigint_from_hex<8>(
        "0x5d543a95414e7f1091d50792876a202cd91de4547085abaa68a205b2e5a7ddfa628f1cb4d9e82ef21537e293a6691ae16"
        "16ec6e786f0c70cf1c38e31c7238e5");
    /// h_eff = 3(x^2 - 1) h2 (RFC 9380, 8.8.2; equals the Budroni-Pintore map).
    static constexpr bigint<10> cofactor_clear = bigint_from_hex<10>(
        "0xbc69f08f2ee75b3584c6a0ea91b352888e2a8e9145ad7689986ff031508ffe1329c2f178731db956d82bf015d1212b02ec0e"
        "c69d7477c1ae954cbc06689f6a359894c0adebbf6b4e8020005aaa95551");
    /// psi(x, y) = (psi_x conj(x), psi_y conj(y)), psi_x = 1/(u+1)^((p-1)/3), psi_y = 1/(u+1)^((p-1)/2).
    static constexpr field psi_x = field{
        fp::zero(),
        detail::fp_hex("0x1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd00000000aaad")};
    static constexpr field psi_y = field{
        detail::fp_hex("0x135203e60180a68ee2e9c448d77a2cd91c3dedd930b1cf60ef396489f61eb45e304466cf3e67fa0af1ee7b04121bdea2"),
        detail::fp_hex("0x06af0e0437ff400b6831e36d6bd17ffe48395dabc2d3435e77f76e17009241c5ee67992f72ec05f4c81084fbede3cc09")};
    /// Subgroup test psi(P) == [x]P (Scott, ePrint 2021/1130): eigenvalue x = -|x|.
    static constexpr bigint<1> eigenvalue_abs = bigint<1>{{x_abs}};
    static constexpr bool eigenvalue_negative = x_is_negative;
    static constexpr const char* name = "BLS12-381 G2";
};

// ---- pairing (pairing/: optimal ate) ---------------------------------------------------------

/// Optimal ate pairing parameters: BLS12 model, loop over |x|, M-type twist.
struct pairing_config {
    using g1 = bls12_381::g1;
    using g2 = bls12_381::g2;
    using gt_field = fp12;
    static constexpr bool bls12_family = true;       ///< false: BN family
    static constexpr bool twist_m_type = true;       ///< E2: y^2 = x^3 + b xi (false: b / xi, D-type)
    static constexpr uint64_t loop_param = x_abs;    ///< |x| (BLS12) or |u| (BN)
    static constexpr bool loop_param_negative = x_is_negative;
    static constexpr const char* name = "BLS12-381";
};

}  // namespace cuzk::bls12_381
