// SPDX-License-Identifier: MIT OR Apache-2.0
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

/// acc_i = ((acc_i b_i) - c_i) z_inv, each factor only where given (b, c null: skipped; divide
/// false: no z_inv): the H step's pointwise part, fused (a | b | c) or in two passes (two slots).
template <class Fr>
__global__ void h_pointwise_kernel(Fr* acc, const Fr* b, const Fr* c, size_t n, Fr z_inv, bool divide) {
    size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Fr v = acc[i];
    if (b) v = v * b[i];
    if (c) v = v - c[i];
    if (divide) v = v * z_inv;
    acc[i] = v;
}

/// Values (natural order) -> values on the coset (natural) for every polynomial of `v`
/// (k d.size() values): through bit-reversed coefficients, no reorder pass.
template <class Fr>
void to_coset(const ntt::device_domain<Fr>& d, std::span<Fr> v, cudaStream_t stream) {
    ntt::inverse(d, v, ntt::ordering::nr, ntt::coset::none, stream);
    ntt::forward(d, v, ntt::ordering::rn, ntt::coset::shifted, stream);
}

/// h_pointwise_kernel over d.size() values, with 1/Z on d's coset when `divide`.
template <class Fr>
void pointwise(const ntt::device_domain<Fr>& d, Fr* acc, const Fr* b, const Fr* c, bool divide, cudaStream_t stream) {
    const size_t n = d.size();
    const unsigned threads = 256, blocks = unsigned((n + threads - 1) / threads);
    const Fr z_inv = divide ? d.host().vanishing_on_coset().inverse() : Fr::one();
    h_pointwise_kernel<Fr><<<blocks, threads, 0, stream>>>(acc, b, c, n, z_inv, divide);
    CUZK_CUDA_CHECK_LAUNCH("h_pointwise_kernel");
}

/// The monomial convention's last step: H's coefficients from its values on the coset.
template <class Fr>
void from_coset_if_monomial(const ntt::device_domain<Fr>& d, Fr* h, h_basis basis, cudaStream_t stream) {
    if (basis == h_basis::monomial)
        ntt::inverse(d, std::span<Fr>(h, d.size()), ntt::ordering::nn, ntt::coset::shifted, stream);
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
    detail::to_coset(d, abc, stream);
    Fr* a = abc.data();
    detail::pointwise(d, a, a + n, a + 2 * n, basis == h_basis::monomial, stream);
    detail::from_coset_if_monomial(d, a, basis, stream);
}

/// The same H scalars with two vectors of device memory instead of three (a proof whose VRAM
/// budget cannot hold a, b and c at once), in two calls on `stream`:
///   h_scalars_from_a_b(d, x, y)          x = a, y = b (d.size() values each) -> x = a b on the coset;
///                                        y is free once the stream has passed the call
///   h_scalars_finish(d, x, y, basis)     y = c -> x = the H scalars of `basis`
/// Results equal compute_h_scalars's bit for bit.
template <class Fr>
void h_scalars_from_a_b(const ntt::device_domain<Fr>& d, Fr* x, Fr* y, cudaStream_t stream) {
    detail::to_coset(d, std::span<Fr>(x, d.size()), stream);
    detail::to_coset(d, std::span<Fr>(y, d.size()), stream);
    detail::pointwise<Fr>(d, x, y, nullptr, false, stream);
}

template <class Fr>
void h_scalars_finish(const ntt::device_domain<Fr>& d, Fr* x, Fr* y, h_basis basis, cudaStream_t stream) {
    detail::to_coset(d, std::span<Fr>(y, d.size()), stream);
    detail::pointwise<Fr>(d, x, nullptr, y, basis == h_basis::monomial, stream);
    detail::from_coset_if_monomial(d, x, basis, stream);
}

}  // namespace cuzk::groth16

/// Explicit instantiation (prefix empty) or extern declaration (prefix `extern`) of the device
/// H step for field F: see cuzk/instances.hpp.
#define CUZK_H_SCALARS_INSTANCES(prefix, F)                                                                      \
    prefix template void cuzk::groth16::compute_h_scalars<F>(const ::cuzk::ntt::device_domain<F>&, std::span<F>, \
                                                             ::cuzk::groth16::h_basis, cudaStream_t);            \
    prefix template void cuzk::groth16::h_scalars_from_a_b<F>(const ::cuzk::ntt::device_domain<F>&, F*, F*,      \
                                                              cudaStream_t);                                     \
    prefix template void cuzk::groth16::h_scalars_finish<F>(const ::cuzk::ntt::device_domain<F>&, F*, F*,        \
                                                            ::cuzk::groth16::h_basis, cudaStream_t);

#if defined(CUZK_PRECOMPILED)
#include "cuzk/instances.hpp"
CUZK_FOR_EACH_INSTANCE_FIELD(CUZK_H_SCALARS_INSTANCES, extern)
#endif
