// SPDX-License-Identifier: MIT OR Apache-2.0
// The H-MSM scalars of a proof from a, b, c on the domain, on the host.
#pragma once

#include <span>
#include <vector>

#include "cuzk/groth16/keys.hpp"
#include "cuzk/ntt/domain.hpp"
#include "cuzk/ntt/ntt_host.hpp"

namespace cuzk::groth16 {

/// The domain the H scalars of a key are computed on: its roots (ntt::domain_roots), with the
/// odd coset for lagrange_odd_coset (the H points are values there) and the roots' default coset
/// for monomial (any coset disjoint from H gives the same coefficients).
template <class Fr>
ntt::domain<Fr> h_domain(size_t log_n, h_basis basis, ntt::domain_roots roots = ntt::domain_roots::snarkjs) {
    return basis == h_basis::lagrange_odd_coset ? ntt::domain<Fr>::odd_coset(log_n, roots)
                                                : ntt::domain<Fr>(log_n, roots);
}

/// Turns abc = a | b | c (each n values on the domain `dom` of h_domain, natural order) into the
/// n H scalars of the given convention, written to the front of abc (abc is scratch space
/// afterwards).
///   lagrange_odd_coset: values of a b - c at the odd points of the 2n domain (3 inverse +
///     3 forward transforms, no division).
///   monomial: coefficients of h = (a b - c) / Z (the textbook 7 transforms); the last of
///     the n values is zero.
template <class Fr>
void compute_h_scalars(const ntt::domain<Fr>& dom, std::span<Fr> abc, h_basis basis) {
    const size_t n = dom.size();
    if (abc.size() != 3 * n) throw invalid_argument("compute_h_scalars: expected 3 * domain size values");
    // Values -> coefficients (bit-reversed) -> values on the coset (natural): no reorder pass.
    ntt::to_coset(dom, abc);
    Fr* a = abc.data();
    const Fr* b = abc.data() + n;
    const Fr* c = abc.data() + 2 * n;
    if (basis == h_basis::lagrange_odd_coset) {
#pragma omp parallel for schedule(static)
        for (long long i = 0; i < (long long)n; ++i) a[i] = a[i] * b[i] - c[i];
        return;
    }
    const Fr z_inv = dom.vanishing_on_coset().inverse();
#pragma omp parallel for schedule(static)
    for (long long i = 0; i < (long long)n; ++i) a[i] = (a[i] * b[i] - c[i]) * z_inv;
    ntt::inverse(dom, abc.first(n), ntt::ordering::nn, ntt::coset::shifted);
}

/// As above on the domain of size 2^log_n that h_domain gives for `basis` and `roots`.
template <class Fr>
void compute_h_scalars(std::span<Fr> abc, size_t log_n, h_basis basis,
                       ntt::domain_roots roots = ntt::domain_roots::snarkjs) {
    const size_t n = size_t(1) << log_n;
    if (abc.size() != 3 * n) throw invalid_argument("compute_h_scalars: expected 3 * 2^log_n values");
    compute_h_scalars(h_domain<Fr>(log_n, basis, roots), abc, basis);
}

}  // namespace cuzk::groth16

/// The host H step for field F: see cuzk/instances.hpp.
#define CUZK_HOST_H_SCALARS_INSTANCES(prefix, F)                                                           \
    prefix template void cuzk::groth16::compute_h_scalars<F>(const ::cuzk::ntt::domain<F>&, std::span<F>,   \
                                                             ::cuzk::groth16::h_basis);                     \
    prefix template void cuzk::groth16::compute_h_scalars<F>(std::span<F>, size_t, ::cuzk::groth16::h_basis, \
                                                             ::cuzk::ntt::domain_roots);

#if defined(CUZK_HOST_PRECOMPILED)
#include "cuzk/instances.hpp"
CUZK_FOR_EACH_INSTANCE_FIELD(CUZK_HOST_H_SCALARS_INSTANCES, extern)
#endif
