// SPDX-License-Identifier: MIT OR Apache-2.0
// Final exponentiation of the optimal ate pairing (host): f -> f^((p^12 - 1) / r), or a fixed
// power of it coprime to r, written once per model (BLS12, BN).
//
// Easy part: f^((p^6 - 1)(p^2 + 1)) (one inversion, two Frobenius maps). The result lies in
// the cyclotomic subgroup, where conjugation inverts and Granger-Scott squaring applies.
// Hard part, exponent Lambda = (p^4 - p^2 + 1) / r written in base p with coefficients that
// are polynomials in the curve parameter:
//   BLS12: 3 Lambda = (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3 (Hayashida, Hayasaka, Teruya,
//          ePrint 2020/875). cuzk therefore returns e^3 for the exact reduced pairing e; this
//          is the value zkcrypto/bls12_381 and RELIC return (see tests/test_pairing.cpp).
//   BN:    Lambda = l0 + l1 p + l2 p^2 + l3 p^3 with l3 = 1, l2 = 6u^2 + 1,
//          l1 = -36u^3 - 18u^2 - 12u + 1, l0 = -36u^3 - 30u^2 - 18u - 2 (Scott et al.,
//          "On the final exponentiation for calculating pairings on ordinary elliptic curves",
//          2009): the exact exponent.
// Both identities are checked against plain exponentiation by the GMP-computed exponent in
// tests/test_pairing.cpp.
#pragma once

#include <cstdint>

namespace cuzk {

namespace pairing_detail {

/// g^|param| by cyclotomic squarings, inverted (conjugated) when the parameter is negative.
template <class Config, class Fp12>
inline Fp12 cyclotomic_exp_by_param(const Fp12& g) {
    Fp12 r = g.cyclotomic_pow_vartime(Config::loop_param);
    if constexpr (Config::loop_param_negative) r = r.conjugate();
    return r;
}

}  // namespace pairing_detail

/// f^((p^6 - 1)(p^2 + 1)): maps into the cyclotomic subgroup. f must be non-zero.
template <class Fp12>
inline Fp12 final_exponentiation_easy(const Fp12& f) {
    Fp12 t = f.conjugate() * f.inverse();  // f^(p^6 - 1)
    return t.frobenius_map(2) * t;         // ^(p^2 + 1)
}

/// The hard part on a cyclotomic-subgroup element (see the header comment for the exponent).
template <class Config>
inline typename Config::gt_field final_exponentiation_hard(const typename Config::gt_field& f) {
    using fp12 = typename Config::gt_field;
    auto exp = [](const fp12& g) { return pairing_detail::cyclotomic_exp_by_param<Config>(g); };
    if constexpr (Config::bls12_family) {
        fp12 t0 = exp(f) * f.conjugate();                                   // f^(x - 1)
        t0 = exp(t0) * t0.conjugate();                                      // f^((x - 1)^2)
        fp12 t1 = exp(t0) * t0.frobenius_map(1);                            // t0^(x + p)
        fp12 t2 = exp(exp(t1)) * t1.frobenius_map(2) * t1.conjugate();      // t1^(x^2 + p^2 - 1)
        return t2 * f.cyclotomic_square() * f;                              // * f^3
    } else {
        fp12 a = exp(f);  // f^u
        fp12 b = exp(a);  // f^(u^2)
        fp12 c = exp(b);  // f^(u^3)
        auto pw = [](const fp12& g, uint64_t k) { return g.cyclotomic_pow_vartime(k); };
        fp12 c36 = pw(c, 36);
        fp12 y0 = (f.cyclotomic_square() * pw(a, 18) * pw(b, 30) * c36).conjugate();  // f^l0
        fp12 y1 = f * (pw(a, 12) * pw(b, 18) * c36).conjugate();                      // f^l1
        fp12 y2 = f * pw(b, 6);                                                       // f^l2
        return y0 * y1.frobenius_map(1) * y2.frobenius_map(2) * f.frobenius_map(3);
    }
}

/// Final exponentiation: maps a Miller loop value to GT. Zero (only from degenerate,
/// invalid inputs) maps to zero, which no GT check accepts.
template <class Config>
inline typename Config::gt_field final_exponentiation(const typename Config::gt_field& f) {
    if (f.is_zero()) return f;
    return final_exponentiation_hard<Config>(final_exponentiation_easy(f));
}

}  // namespace cuzk
