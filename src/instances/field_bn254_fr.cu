// SPDX-License-Identifier: MIT OR Apache-2.0
// cuzk::instances: the device NTT and the Groth16 field kernels over bn254 Fr, compiled once
// (see cuzk/instances.hpp).
#include "cuzk/groth16/cuda/device_circuit.cuh"
#include "cuzk/groth16/cuda/h_scalars.cuh"
#include "cuzk/ntt/device_domain.cuh"
#include "cuzk/ntt/ntt_device.cuh"
#include "cuzk/instances.hpp"

CUZK_NTT_INSTANCES(, ::cuzk::bn254::fr)
CUZK_DEVICE_DOMAIN_INSTANCES(, ::cuzk::bn254::fr)
CUZK_H_SCALARS_INSTANCES(, ::cuzk::bn254::fr)
CUZK_DEVICE_CIRCUIT_INSTANCES(, ::cuzk::bn254::fr)
