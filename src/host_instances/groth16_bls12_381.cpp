// SPDX-License-Identifier: MIT OR Apache-2.0
// cuzk::host_instances: the host NTT, H step, test setup, proof assembly and verifier of bls12_381,
// compiled once (see cuzk/instances.hpp).
#include "cuzk/groth16/curve.hpp"
#include "cuzk/groth16/h_scalars.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/test_setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/instances.hpp"
#include "cuzk/ntt/ntt_host.hpp"

CUZK_HOST_NTT_INSTANCES(, ::cuzk::bls12_381::fr)
CUZK_HOST_H_SCALARS_INSTANCES(, ::cuzk::bls12_381::fr)
CUZK_HOST_TEST_SETUP_INSTANCES(, ::cuzk::bls12_381::curve)
CUZK_HOST_PROVER_INSTANCES(, ::cuzk::bls12_381::curve)
CUZK_HOST_VERIFIER_INSTANCES(, ::cuzk::bls12_381::curve)
