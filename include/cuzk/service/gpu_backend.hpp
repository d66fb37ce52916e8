// SPDX-License-Identifier: MIT OR Apache-2.0
// The front door's GPU backend, declared here and defined in src/service/gpu_backend_cuda.cu
// (CUDA builds) or src/service/gpu_backend_none.cpp (host-only builds: no device, and making one
// throws error(errc::no_gpu)). So service/ and its shells compile with a plain C++ compiler.
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cuzk/engine/any_prover.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/service/options.hpp"

namespace cuzk::service {

/// What the GPU gives a zkey_prover: engine slots over CUDA provers of the key, one per device
/// of prover_options::devices, and the tests the engine and the front door need.
template <class Curve>
struct gpu_backend {
    std::vector<groth16::engine_slot<Curve>> slots;
    std::function<bool(std::exception_ptr)> device_lost;  ///< a sticky CUDA error
    /// The front door's code for a backend error (a CUDA error: gpu or out_of_memory); nullopt
    /// for an error that is not the backend's own.
    std::function<std::optional<errc>(std::exception_ptr)> classify;
    bool key_resident = false;
    size_t vram_budget_bytes = 0, device_key_bytes = 0, device_proof_bytes = 0;
    std::string note;  ///< why the key is not resident ("" if it is)
};

/// CUDA devices visible now; 0 in a build without the GPU backend or when the runtime has none.
int gpu_device_count();

/// True when the GPU backend is compiled in.
bool gpu_backend_compiled();

/// Checks the devices and budget and makes the backend; throws error (no_gpu, invalid_argument,
/// out_of_memory when one proof does not fit beside the key, gpu). Defined for bn254::curve and
/// bls12_381::curve.
template <class Curve>
gpu_backend<Curve> make_gpu_backend(std::shared_ptr<const groth16::proving_key<Curve>> pk, const prover_options& o);

}  // namespace cuzk::service
