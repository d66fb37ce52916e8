// Groth16 proving key, verifying key and proof.
//
// A Curve bundles what Groth16 needs of a pairing-friendly curve (see groth16/curve.hpp):
// Curve::fr (scalars), Curve::g1 and Curve::g2 (group configs of ec/).
//
// The H points come in one of two conventions (h_basis). cuzk's own setup writes the snarkjs
// one, which saves a transform per proof and needs no division by Z:
//   lagrange_odd_coset: H_i = [L_{2i+1}(tau) / delta]_1, with L_k the Lagrange basis of the
//     domain of size 2n; the prover's H scalars are p_i = a(x_i) b(x_i) - c(x_i) at the odd
//     points x_i = w_{2n}^{2i+1} (where Z = -2, and L_{2i+1} = -Z L'_i / 2 makes the
//     sum equal h(tau) Z(tau) / delta).
//   monomial: H_i = [tau^i Z(tau) / delta]_1 (bellman, arkworks); the scalars are the
//     coefficients of h = (a b - c) / Z.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuzk/ec/affine.hpp"

namespace cuzk::groth16 {

enum class h_basis : uint8_t { lagrange_odd_coset = 0, monomial = 1 };

template <class Curve>
struct verifying_key {
    using g1_affine = affine<typename Curve::g1>;
    using g2_affine = affine<typename Curve::g2>;
    g1_affine alpha_g1;
    g2_affine beta_g2, gamma_g2, delta_g2;
    /// [(beta A_i(tau) + alpha B_i(tau) + C_i(tau)) / gamma]_1 for the constant one and each public input.
    std::vector<g1_affine> ic;

    size_t num_public() const { return ic.empty() ? 0 : ic.size() - 1; }
};

template <class Curve>
struct proving_key {
    using g1_affine = affine<typename Curve::g1>;
    using g2_affine = affine<typename Curve::g2>;
    verifying_key<Curve> vk;
    g1_affine beta_g1, delta_g1;
    std::vector<g1_affine> a;     ///< [A_i(tau)]_1, every variable
    std::vector<g1_affine> b_g1;  ///< [B_i(tau)]_1, every variable
    std::vector<g2_affine> b_g2;  ///< [B_i(tau)]_2, every variable
    std::vector<g1_affine> l;     ///< [(beta A_i + alpha B_i + C_i)(tau) / delta]_1, auxiliary variables
    std::vector<g1_affine> h;     ///< domain-size points in the h_basis convention
    h_basis h_convention = h_basis::lagrange_odd_coset;

    size_t num_variables() const { return a.size(); }
    size_t num_public() const { return vk.num_public(); }
    size_t domain_size() const { return h.size(); }
};

template <class Curve>
struct proof {
    affine<typename Curve::g1> a;
    affine<typename Curve::g2> b;
    affine<typename Curve::g1> c;

    friend bool operator==(const proof& x, const proof& y) { return x.a == y.a && x.b == y.b && x.c == y.c; }
};

}  // namespace cuzk::groth16
