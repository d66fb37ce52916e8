// SPDX-License-Identifier: MIT OR Apache-2.0
// Optimal ate pairing (host) for BLS12-381 and BN254: e(P, Q), multi-pairings (a product of
// pairings with one final exponentiation), pairing checks and GT membership.
//
//   using cfg = cuzk::bls12_381::pairing_config;
//   auto e = cuzk::pairing<cfg>(p, q);                       // in GT (an Fp12 element)
//   bool ok = cuzk::pairing_check<cfg>(inputs);              // prod e(P_i, Q_i) == 1
//   auto vk_beta = cuzk::g2_prepared<cfg>::prepare(beta);     // fixed G2 points: lines once
//
// Inputs are affine points assumed to be in G1 and G2 (check subgroup membership with
// ec/subgroup.hpp first when they come from outside). Everything here is variable time:
// pairings in cuzk verify public data.
#pragma once

#include <initializer_list>
#include <span>

#include "cuzk/pairing/final_exponentiation.hpp"
#include "cuzk/pairing/miller_loop.hpp"

namespace cuzk {

/// e(P, Q) for P in G1 and Q in G2; 1 when either is the identity.
template <class Config>
typename Config::gt_field pairing(const affine<typename Config::g1>& p, const affine<typename Config::g2>& q) {
    pairing_input<Config> in{p, q};
    return final_exponentiation<Config>(miller_loop_vartime<Config>(std::span<const pairing_input<Config>>(&in, 1)));
}

/// prod_i e(P_i, Q_i) with one shared Miller loop and one final exponentiation.
template <class Config>
typename Config::gt_field multi_pairing(std::span<const pairing_input<Config>> inputs) {
    return final_exponentiation<Config>(miller_loop_vartime<Config>(inputs));
}

/// True when prod_i e(P_i, Q_i) == 1 (the Groth16 verifier's and the precompiles' question).
/// An empty product is 1.
template <class Config>
bool pairing_check(std::span<const pairing_input<Config>> inputs) {
    return multi_pairing<Config>(inputs).is_one();
}

/// True when prod_i e(P_i, Q_i) == 1 for G2 points prepared once (g2_prepared::prepare).
template <class Config>
bool pairing_check_prepared(std::span<const affine<typename Config::g1>> ps,
                            std::span<const g2_prepared<Config>* const> qs) {
    return final_exponentiation<Config>(miller_loop_prepared_vartime<Config>(ps, qs)).is_one();
}

/// True when f lies in GT, the order-r subgroup of Fp12^*: f != 0 and f^r == 1.
template <class Config>
bool is_in_gt(const typename Config::gt_field& f) {
    if (f.is_zero()) return false;
    return f.pow_vartime(Config::g1::scalar::modulus).is_one();
}

}  // namespace cuzk
