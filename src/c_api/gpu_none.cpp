// The GPU backend of libcuzk_prover in a build without CUDA: there is none.
#include "engine.hpp"

namespace cuzk::c_api {

int gpu_device_count() { return 0; }

bool gpu_backend_compiled() { return false; }

template <class Curve>
std::unique_ptr<gpu_prover<Curve>> make_gpu_prover(std::shared_ptr<const groth16::proving_key<Curve>>,
                                                   const gpu_settings&) {
    throw failure(CUZK_PROVER_ERROR_NO_GPU, "backend GPU: this build of libcuzk_prover has no CUDA support");
}

template std::unique_ptr<gpu_prover<bn254::curve>> make_gpu_prover(
    std::shared_ptr<const groth16::proving_key<bn254::curve>>, const gpu_settings&);
template std::unique_ptr<gpu_prover<bls12_381::curve>> make_gpu_prover(
    std::shared_ptr<const groth16::proving_key<bls12_381::curve>>, const gpu_settings&);

}  // namespace cuzk::c_api
