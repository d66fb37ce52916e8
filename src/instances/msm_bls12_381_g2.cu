// SPDX-License-Identifier: MIT OR Apache-2.0
// cuzk::instances: the device MSM family of bls12_381 G2, compiled once (see cuzk/instances.hpp).
#include "cuzk/groth16/cuda/test_setup.cuh"
#include "cuzk/msm/fixed_bases.cuh"
#include "cuzk/msm/pippenger_device.cuh"
#include "cuzk/msm/witness_device.cuh"
#include "cuzk/instances.hpp"

CUZK_MSM_INSTANCES(, ::cuzk::bls12_381::g2)
CUZK_FIXED_BASES_INSTANCES(, ::cuzk::bls12_381::g2)
CUZK_TEST_SETUP_INSTANCES(, ::cuzk::bls12_381::g2)
CUZK_WITNESS_MSM_INSTANCES(, ::cuzk::bls12_381::g2)
