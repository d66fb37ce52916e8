// SPDX-License-Identifier: MIT OR Apache-2.0
// The front door's GPU backend in a build without CUDA: no device, and asking for one is an error.
#include "cuzk/service/gpu_backend.hpp"

#include "cuzk/groth16/curve.hpp"

namespace cuzk::service {

int gpu_device_count() { return 0; }

bool gpu_backend_compiled() { return false; }

template <class Curve>
gpu_backend<Curve> make_gpu_backend(std::shared_ptr<const groth16::proving_key<Curve>>, const prover_options&) {
    throw error(errc::no_gpu, "backend GPU: this build of cuzk has no GPU backend (CUDA was not enabled)");
}

template gpu_backend<bn254::curve> make_gpu_backend(std::shared_ptr<const groth16::proving_key<bn254::curve>>,
                                                    const prover_options&);
template gpu_backend<bls12_381::curve> make_gpu_backend(std::shared_ptr<const groth16::proving_key<bls12_381::curve>>,
                                                        const prover_options&);

}  // namespace cuzk::service
