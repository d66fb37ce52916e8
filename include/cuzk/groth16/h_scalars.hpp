// The H-MSM scalars of a proof from a, b, c on the domain, on the host.
#pragma once

#include <span>
#include <vector>

#include "cuzk/groth16/keys.hpp"
#include "cuzk/ntt/domain.hpp"
#include "cuzk/ntt/ntt_host.hpp"

namespace cuzk::groth16 {

/// Turns abc = a | b | c (each n values on the domain, natural order) into the n H scalars of
/// the given convention, written to the front of abc (abc is scratch space afterwards).
///   lagrange_odd_coset: values of a b - c at the odd points of the 2n domain (3 inverse +
///     3 forward transforms, no division).
///   monomial: coefficients of h = (a b - c) / Z (the textbook 7 transforms); the last of
///     the n values is zero.
template <class Fr>
void compute_h_scalars(std::span<Fr> abc, size_t log_n, h_basis basis) {
    const size_t n = size_t(1) << log_n;
    if (abc.size() != 3 * n) throw invalid_argument("compute_h_scalars: expected 3 * 2^log_n values");
    const auto dom = basis == h_basis::lagrange_odd_coset ? ntt::domain<Fr>::snarkjs_odd_coset(log_n)
                                                          : ntt::domain<Fr>(log_n);
    // Values -> coefficients (bit-reversed) -> values on the coset (natural): no reorder pass.
    ntt::inverse(dom, abc, ntt::ordering::nr);
    ntt::forward(dom, abc, ntt::ordering::rn, ntt::coset::shifted);
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

}  // namespace cuzk::groth16
