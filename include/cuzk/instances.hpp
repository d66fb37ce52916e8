// The template arguments that cuzk::instances (src/instances/) precompiles.
//
// Linking cuzk::instances defines CUZK_PRECOMPILED; each header that launches kernels then
// declares its kernel-launching functions `extern template` for these arguments (its
// CUZK_<family>_INSTANCES macro), so a consumer's translation unit compiles no kernel of these
// families: the instances library holds them, each compiled once. Other arguments (a curve of
// the user's own, a test's toy field) are instantiated in the consumer's TU as usual.
// Header-only use (no CUZK_PRECOMPILED) is unchanged.
#pragma once

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"

/// M(prefix, G) for every curve group cuzk::instances ships.
#define CUZK_FOR_EACH_INSTANCE_GROUP(M, prefix) \
    M(prefix, ::cuzk::bls12_381::g1)            \
    M(prefix, ::cuzk::bls12_381::g2)            \
    M(prefix, ::cuzk::bn254::g1)                \
    M(prefix, ::cuzk::bn254::g2)

/// M(prefix, F) for every scalar field cuzk::instances ships (NTT, Groth16 H step).
#define CUZK_FOR_EACH_INSTANCE_FIELD(M, prefix) \
    M(prefix, ::cuzk::bls12_381::fr)            \
    M(prefix, ::cuzk::bn254::fr)
