// The H-MSM scalars of a proof from a, b, c on the domain, on the GPU: the device twin of
// h_scalars.hpp (same conventions, same results bit for bit).
#pragma once

#include <cuda_runtime.h>

#include <span>

#include "cuzk/core/error.hpp"
#include "cuzk/gpu/cuda_error.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/ntt/device_domain.cuh"
#include "cuzk/ntt/ntt_device.cuh"

namespace cuzk::groth16 {

namespace detail {

/// p_i = a_i b_i - c_i in place of a (the H scalars on snarkjs's odd coset).
template <class Fr>
__global__ void h_pointwise_kernel(Fr* abc, size_t n) {
    size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) abc[i] = abc[i] * abc[n + i] - abc[2 * n + i];
}

/// p_i = (a_i b_i - c_i) z_inv (the monomial convention's division by Z on the coset).
template <class Fr>
__global__ void h_divide_kernel(Fr* abc, size_t n, Fr z_inv) {
    size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) abc[i] = (abc[i] * abc[n + i] - abc[2 * n + i]) * z_inv;
}

}  // namespace detail

/// compute_h_scalars on the device: abc = a | b | c (3 d.size() values in device memory,
/// natural order) becomes the d.size() H scalars of `basis` at its front; enqueued on `stream`.
/// d must be the domain of that convention (ntt::domain::snarkjs_odd_coset for
/// lagrange_odd_coset). Throws invalid_argument for a wrong size, cuda_error if a launch fails.
template <class Fr>
void compute_h_scalars(const ntt::device_domain<Fr>& d, std::span<Fr> abc, h_basis basis, cudaStream_t stream) {
    const size_t n = d.size();
    if (abc.size() != 3 * n) throw invalid_argument("compute_h_scalars (device): expected 3 * domain size values");
    // Values -> coefficients (bit-reversed) -> values on the coset (natural): no reorder pass.
    ntt::inverse(d, abc, ntt::ordering::nr, ntt::coset::none, stream);
    ntt::forward(d, abc, ntt::ordering::rn, ntt::coset::shifted, stream);
    const unsigned threads = 256, blocks = unsigned((n + threads - 1) / threads);
    if (basis == h_basis::lagrange_odd_coset) {
        detail::h_pointwise_kernel<Fr><<<blocks, threads, 0, stream>>>(abc.data(), n);
        CUZK_CUDA_CHECK_LAUNCH("h_pointwise_kernel");
        return;
    }
    detail::h_divide_kernel<Fr><<<blocks, threads, 0, stream>>>(abc.data(), n, d.host().vanishing_on_coset().inverse());
    CUZK_CUDA_CHECK_LAUNCH("h_divide_kernel");
    ntt::inverse(d, abc.first(n), ntt::ordering::nn, ntt::coset::shifted, stream);
}

}  // namespace cuzk::groth16

/// Explicit instantiation (prefix empty) or extern declaration (prefix `extern`) of the device
/// H step for field F: see cuzk/instances.hpp.
#define CUZK_H_SCALARS_INSTANCES(prefix, F)                                                                      \
    prefix template void cuzk::groth16::compute_h_scalars<F>(const ::cuzk::ntt::device_domain<F>&, std::span<F>, \
                                                             ::cuzk::groth16::h_basis, cudaStream_t);

#if defined(CUZK_PRECOMPILED)
#include "cuzk/instances.hpp"
CUZK_FOR_EACH_INSTANCE_FIELD(CUZK_H_SCALARS_INSTANCES, extern)
#endif
