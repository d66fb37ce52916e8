// SPDX-License-Identifier: MIT OR Apache-2.0
// What Groth16 needs of a pairing-friendly curve, bundled: the scalar field, the two groups
// and the pairing check. bls12_381::curve and bn254::curve are the two instances.
#pragma once

#include <span>

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"
#include "cuzk/pairing/pairing.hpp"

namespace cuzk::groth16 {

/// A Groth16 curve from a pairing config (curves/<curve>.hpp).
template <class PairingConfig>
struct pairing_curve {
    using pairing = PairingConfig;
    using g1 = typename PairingConfig::g1;
    using g2 = typename PairingConfig::g2;
    using fr = typename g1::scalar;
    static constexpr const char* name = PairingConfig::name;

    /// prod_i e(g1s[i], g2s[i]) == 1 (one shared Miller loop, one final exponentiation).
    static bool pairing_product_is_one(std::span<const affine<g1>> g1s, std::span<const affine<g2>> g2s) {
        std::vector<pairing_input<PairingConfig>> in;
        in.reserve(g1s.size());
        for (size_t i = 0; i < g1s.size(); ++i) in.push_back({g1s[i], g2s[i]});
        return pairing_check<PairingConfig>(std::span<const pairing_input<PairingConfig>>(in));
    }
};

}  // namespace cuzk::groth16

namespace cuzk::bls12_381 {
/// BLS12-381 as Groth16 sees it (Filecoin, Zcash, snarkjs "bls12381").
struct curve : groth16::pairing_curve<pairing_config> {};
}  // namespace cuzk::bls12_381

namespace cuzk::bn254 {
/// BN254 as Groth16 sees it (circom/snarkjs "bn128", Ethereum's precompiles).
struct curve : groth16::pairing_curve<pairing_config> {};
}  // namespace cuzk::bn254
