// SPDX-License-Identifier: MIT OR Apache-2.0
// The template arguments that cuzk's two instance libraries precompile.
//
// cuzk::instances (src/instances/, CUDA): linking it defines CUZK_PRECOMPILED; each header that
// launches kernels then declares its kernel-launching functions `extern template` for these
// arguments (its CUZK_<family>_INSTANCES macro), so a consumer's translation unit compiles no
// kernel of these families: the library holds them, each compiled once.
// cuzk::host_instances (src/host_instances/, plain C++): linking it defines CUZK_HOST_PRECOMPILED;
// the host headers then declare their heavy entry points `extern template` the same way (the CPU
// MSMs, the host NTT and H step, the test setup, proof assembly and the verifier; the
// CUZK_HOST_<family>_INSTANCES macros), so a TU that proves or verifies on the CPU optimises none
// of that code itself.
// Other arguments (a curve of the user's own, a test's toy field) are instantiated in the
// consumer's TU as usual. Header-only use (neither macro) is unchanged.
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

/// M(prefix, Curve) for every Groth16 curve the instance libraries ship (the point of use
/// includes cuzk/groth16/curve.hpp, which defines these).
#define CUZK_FOR_EACH_INSTANCE_CURVE(M, prefix) \
    M(prefix, ::cuzk::bls12_381::curve)         \
    M(prefix, ::cuzk::bn254::curve)
