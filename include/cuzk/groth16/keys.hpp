// SPDX-License-Identifier: MIT OR Apache-2.0
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
//
// A key is made on one domain (ntt::domain_roots): its A, B, L and IC points put constraint row
// j at w^j, so the prover must evaluate on the same roots (cuzk's setup and snarkjs: snarkjs;
// Filecoin's bellperson files: bellperson). Monomial H points do not depend on the roots.
//
// A and B may be density-compressed (Filecoin's keys): a_density / b_density then say which
// variables have a point (groth16/density.hpp), and a, b_g1, b_g2 hold only those, in order.
// Empty maps mean dense: one point per variable, identities for empty columns.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "cuzk/core/error.hpp"
#include "cuzk/ec/affine.hpp"
#include "cuzk/groth16/density.hpp"
#include "cuzk/groth16/key_points.hpp"
#include "cuzk/ntt/domain.hpp"

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
    // Owned, or views of a mapped key file (groth16/key_points.hpp).
    key_points<g1_affine> a;     ///< [A_i(tau)]_1, every variable (dense) or those a_density marks
    key_points<g1_affine> b_g1;  ///< [B_i(tau)]_1, every variable (dense) or those b_density marks
    key_points<g2_affine> b_g2;  ///< [B_i(tau)]_2, likewise
    key_points<g1_affine> l;     ///< [(beta A_i + alpha B_i + C_i)(tau) / delta]_1, auxiliary variables
    key_points<g1_affine> h;     ///< domain-size points in the h_basis convention
    h_basis h_convention = h_basis::lagrange_odd_coset;
    /// The roots of unity of the domain the key was made on.
    ntt::domain_roots roots = ntt::domain_roots::snarkjs;
    /// Which variables have an A (B) point; both empty for a dense key.
    density_map a_density, b_density;

    size_t num_variables() const { return a_density.empty() ? a.size() : a_density.size(); }
    size_t num_public() const { return vk.num_public(); }
    size_t domain_size() const { return h.size(); }
    /// One A and B point per variable (no density maps).
    bool is_dense() const { return a_density.empty() && b_density.empty(); }
};

/// Throws invalid_argument unless the key's A/B vectors and density maps agree: dense, all
/// three vectors one point per variable; compressed, both maps over every variable (IC + L) and
/// each vector as long as its map's count.
template <class Curve>
void check_key_vectors(const proving_key<Curve>& pk, const char* where) {
    auto bad = [&](const std::string& what) { return invalid_argument(std::string(where) + ": " + what); };
    if (pk.is_dense()) {
        if (pk.b_g1.size() != pk.a.size() || pk.b_g2.size() != pk.a.size())
            throw bad("proving key vectors have inconsistent lengths (A " + std::to_string(pk.a.size()) + ", B_G1 " +
                      std::to_string(pk.b_g1.size()) + ", B_G2 " + std::to_string(pk.b_g2.size()) + ")");
        return;
    }
    const size_t nv = pk.vk.ic.size() + pk.l.size();
    if (pk.a_density.size() != nv || pk.b_density.size() != nv)
        throw bad("density maps cover " + std::to_string(pk.a_density.size()) + " (A) and " +
                  std::to_string(pk.b_density.size()) + " (B) variables, the key has " + std::to_string(nv) +
                  " (IC + L)");
    if (pk.a.size() != pk.a_density.count())
        throw bad("the A density has " + std::to_string(pk.a_density.count()) + " set bits, the key " +
                  std::to_string(pk.a.size()) + " A points");
    if (pk.b_g1.size() != pk.b_density.count() || pk.b_g2.size() != pk.b_density.count())
        throw bad("the B density has " + std::to_string(pk.b_density.count()) + " set bits, the key " +
                  std::to_string(pk.b_g1.size()) + " B_G1 and " + std::to_string(pk.b_g2.size()) + " B_G2 points");
}

/// The density-compressed form of a dense key: A, B_G1 and B_G2 keep only the variables the maps
/// mark (as bellperson's generator writes them). Throws invalid_argument if a map does not cover
/// every variable or drops a point that is not the identity (the map is not this key's).
template <class Curve>
proving_key<Curve> to_density_compressed(proving_key<Curve> pk, density_map a_density, density_map b_density) {
    if (!pk.is_dense()) throw invalid_argument("to_density_compressed: the key is already density-compressed");
    check_key_vectors(pk, "to_density_compressed");
    const size_t nv = pk.a.size();
    if (a_density.size() != nv || b_density.size() != nv)
        throw invalid_argument("to_density_compressed: density maps cover " + std::to_string(a_density.size()) +
                               " (A) and " + std::to_string(b_density.size()) + " (B) variables, the key has " +
                               std::to_string(nv));
    auto keep = [&](auto& points, const density_map& d, const char* what) {
        auto& v = points.owned();
        size_t k = 0;
        for (size_t i = 0; i < nv; ++i) {
            if (d.test(i)) v[k++] = v[i];
            else if (!v[i].is_identity())
                throw invalid_argument(std::string("to_density_compressed: the map drops variable ") +
                                       std::to_string(i) + " whose " + what + " point is not the identity");
        }
        v.resize(k);
        v.shrink_to_fit();
    };
    keep(pk.a, a_density, "A");
    keep(pk.b_g1, b_density, "B_G1");
    keep(pk.b_g2, b_density, "B_G2");
    pk.a_density = std::move(a_density);
    pk.b_density = std::move(b_density);
    return pk;
}

/// The dense form of a key (identities for absent variables); a dense key is returned as it is.
/// For backends that need one point per variable (the CUDA prover).
template <class Curve>
proving_key<Curve> to_dense(proving_key<Curve> pk) {
    if (pk.is_dense()) return pk;
    check_key_vectors(pk, "to_dense");
    auto expand = [](auto& v, const density_map& d) {
        std::vector<typename std::remove_reference_t<decltype(v)>::value_type> out(d.size());  // zero = the identity
        for (size_t i = 0, k = 0; i < d.size(); ++i)
            if (d.test(i)) out[i] = v[k++];
        v = std::move(out);
    };
    expand(pk.a, pk.a_density);
    expand(pk.b_g1, pk.b_density);
    expand(pk.b_g2, pk.b_density);
    pk.a_density = density_map();
    pk.b_density = density_map();
    return pk;
}

template <class Curve>
struct proof {
    affine<typename Curve::g1> a;
    affine<typename Curve::g2> b;
    affine<typename Curve::g1> c;

    friend bool operator==(const proof& x, const proof& y) { return x.a == y.a && x.b == y.b && x.c == y.c; }
};

}  // namespace cuzk::groth16
