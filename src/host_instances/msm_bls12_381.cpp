// SPDX-License-Identifier: MIT OR Apache-2.0
// cuzk::host_instances: the CPU MSMs of bls12_381 (G1 and G2), compiled once (see cuzk/instances.hpp).
#include "cuzk/msm/witness_host.hpp"
#include "cuzk/instances.hpp"
#include "cuzk/msm/pippenger_host.hpp"

CUZK_HOST_MSM_INSTANCES(, ::cuzk::bls12_381::g1)
CUZK_HOST_MSM_INSTANCES(, ::cuzk::bls12_381::g2)
CUZK_HOST_WITNESS_MSM_INSTANCES(, ::cuzk::bls12_381::g1)
CUZK_HOST_WITNESS_MSM_INSTANCES(, ::cuzk::bls12_381::g2)
