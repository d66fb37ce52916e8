// zkey_groth16: from snarkjs files to cuzk's Groth16 types (groth16/keys.hpp) and back.
//
//   auto z = io::zkey<io::bn128>::read("c.zkey");
//   auto w = io::wtns<io::bn128>::read("w.wtns");
//   auto abc = io::evaluate_abc<io::bn128>(z.coeffs, z.domain_size, w.values);
//   auto pk = std::make_shared<const groth16::proving_key<bn254::curve>>(io::to_proving_key(std::move(z)));
//   groth16::prover<bn254::curve> p(pk);
//   auto pi = p.prove_from_abc(w.values, std::move(abc));
//   io::write_text_file("proof.json", io::proof_to_json(io::from_groth16<io::bn128>(pi)));
//
// snarkjs keys store the H points in the Lagrange basis of the doubled domain (odd coset), so
// the key is tagged h_basis::lagrange_odd_coset; a, b, c on the domain come from the zkey's own
// coefficient list (section 4: A and B only, public-input rows included), with c = a * b.
//
// The other way, to_zkey builds a zkey from cuzk's own keys (groth16/test_setup.hpp) and the
// r1cs they were made for, so that snarkjs can prove with them:
//   auto pk = groth16::test_setup_insecure<bn254::curve>(ckt.system, seed);
//   io::write_zkey("circuit.zkey", io::to_zkey<io::bn128>(pk, ckt.system));
//   io::write_wtns<io::bn128>("witness.wtns", ckt.assignment);
#pragma once

#include <span>
#include <utility>
#include <string>
#include <vector>

#include "cuzk/groth16/curve.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/r1cs.hpp"
#include "cuzk/io/snarkjs_json.hpp"
#include "cuzk/io/zkey.hpp"

namespace cuzk::io {

/// The groth16/ curve bundle of an io/ curve.
template <class Curve>
struct groth16_curve_for;
template <>
struct groth16_curve_for<bn128> {
    using type = bn254::curve;
};
template <>
struct groth16_curve_for<bls12381> {
    using type = bls12_381::curve;
};
template <class Curve>
using groth16_curve_t = typename groth16_curve_for<Curve>::type;

/// Moves the zkey's points into a proving key (no copies of the large vectors). The zkey
/// keeps its counts and coefficients; its point vectors are left empty.
template <class Curve>
groth16::proving_key<groth16_curve_t<Curve>> to_proving_key(zkey<Curve>&& z) {
    groth16::proving_key<groth16_curve_t<Curve>> pk;
    pk.vk.alpha_g1 = z.vk.alpha1;
    pk.vk.beta_g2 = z.vk.beta2;
    pk.vk.gamma_g2 = z.vk.gamma2;
    pk.vk.delta_g2 = z.vk.delta2;
    pk.vk.ic = std::move(z.vk.ic);
    pk.beta_g1 = z.vk.beta1;
    pk.delta_g1 = z.vk.delta1;
    pk.a = std::move(z.a);
    pk.b_g1 = std::move(z.b1);
    pk.b_g2 = std::move(z.b2);
    pk.l = std::move(z.c);
    pk.h = std::move(z.h);
    pk.h_convention = groth16::h_basis::lagrange_odd_coset;
    return pk;
}

/// The verifying key of a zkey.
template <class Curve>
groth16::verifying_key<groth16_curve_t<Curve>> to_verifying_key(const groth16_vk<Curve>& vk) {
    return {vk.alpha1, vk.beta2, vk.gamma2, vk.delta2, vk.ic};
}

/// The verifying key of a verification_key.json.
template <class Curve>
groth16::verifying_key<groth16_curve_t<Curve>> to_verifying_key(const verification_key<Curve>& vk) {
    return {vk.alpha1, vk.beta2, vk.gamma2, vk.delta2, vk.ic};
}

/// groth16::proof -> what proof_to_json writes.
template <class Curve>
groth16_proof<Curve> from_groth16(const groth16::proof<groth16_curve_t<Curve>>& p) {
    return {p.a, p.b, p.c};
}

/// proof_from_json's result -> groth16::proof.
template <class Curve>
groth16::proof<groth16_curve_t<Curve>> to_groth16(const groth16_proof<Curve>& p) {
    return {p.a, p.b, p.c};
}

/// a | b | c on the proving domain (3 * domain_size values, natural order) from the zkey's
/// coefficients and the full witness w (w[0] = 1): a[i] = sum of A entries of row i times w,
/// b likewise, c = a * b (snarkjs's convention: C is folded into the key, and c only feeds
/// the H scalars, where a * b - c vanishes on the domain exactly when the constraints hold).
/// Throws invalid_argument if w is too short for a coefficient's signal.
template <class Curve>
std::vector<typename Curve::fr> evaluate_abc(std::span<const zkey_coefficient<typename Curve::fr>> coeffs,
                                             uint32_t domain_size, std::span<const typename Curve::fr> w) {
    using fr = typename Curve::fr;
    const size_t n = domain_size;
    std::vector<fr> abc(3 * n, fr::zero());
    for (const auto& e : coeffs) {
        if (e.signal >= w.size())
            throw invalid_argument("evaluate_abc: coefficient signal " + std::to_string(e.signal) +
                                   " is beyond the witness (" + std::to_string(w.size()) + " values)");
        if (e.constraint >= n) throw invalid_argument("evaluate_abc: coefficient row beyond the domain");
        abc[(e.matrix == zkey_matrix::a ? 0 : n) + e.constraint] += e.value * w[e.signal];
    }
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < int64_t(n); ++i) abc[2 * n + size_t(i)] = abc[size_t(i)] * abc[n + size_t(i)];
    return abc;
}

namespace detail {

/// Everything of to_zkey except the point vectors: checks that pk fits cs, fills the counts,
/// the verification-key points and section 4's coefficients.
template <class Curve>
zkey<Curve> zkey_skeleton(const groth16::proving_key<groth16_curve_t<Curve>>& pk,
                          const groth16::r1cs<typename Curve::fr>& cs) {
    using fr = typename Curve::fr;
    if (pk.h_convention != groth16::h_basis::lagrange_odd_coset)
        throw invalid_argument(
            "to_zkey: the proving key's H points are in the monomial basis ([tau^i Z(tau)/delta]); snarkjs keys need "
            "h_basis::lagrange_odd_coset ([L_{2i+1}(tau)/delta] over the doubled domain), which cuzk's setup writes");
    cs.validate();
    const size_t nv = cs.num_variables, np = cs.num_public, d = cs.domain_size();
    auto mismatch = [](const std::string& what, size_t have, size_t want) {
        return invalid_argument("to_zkey: the proving key does not fit the r1cs: " + what + " " + std::to_string(have) +
                                ", expected " + std::to_string(want));
    };
    if (pk.vk.ic.size() != np + 1) throw mismatch("IC points", pk.vk.ic.size(), np + 1);
    if (pk.a.size() != nv) throw mismatch("A points", pk.a.size(), nv);
    if (pk.b_g1.size() != nv) throw mismatch("B1 points", pk.b_g1.size(), nv);
    if (pk.b_g2.size() != nv) throw mismatch("B2 points", pk.b_g2.size(), nv);
    if (pk.l.size() != nv - np - 1) throw mismatch("L points", pk.l.size(), nv - np - 1);
    if (pk.h.size() != d) throw mismatch("H points", pk.h.size(), d);
    if (nv > UINT32_MAX || d > UINT32_MAX) throw invalid_argument("to_zkey: circuit too large for a zkey");

    zkey<Curve> z;
    z.n_vars = uint32_t(nv);
    z.n_public = uint32_t(np);
    z.domain_size = uint32_t(d);
    z.vk.alpha1 = pk.vk.alpha_g1;
    z.vk.beta1 = pk.beta_g1;
    z.vk.beta2 = pk.vk.beta_g2;
    z.vk.gamma2 = pk.vk.gamma_g2;
    z.vk.delta1 = pk.delta_g1;
    z.vk.delta2 = pk.vk.delta_g2;
    z.vk.ic = pk.vk.ic;
    // Section 4: per constraint its A terms then its B terms (as snarkjs's zkey new writes
    // them), then one A row (nConstraints + k, signal k, 1) per public signal incl. ONE.
    const size_t m = cs.num_constraints();
    z.coeffs.reserve(cs.a.entries() + cs.b.entries() + np + 1);
    for (size_t j = 0; j < m; ++j)
        for (auto [mat, which] : {std::pair{&cs.a, zkey_matrix::a}, std::pair{&cs.b, zkey_matrix::b}}) {
            auto cols = mat->columns(j);
            auto vals = mat->values(j);
            for (size_t k = 0; k < cols.size(); ++k) z.coeffs.push_back({which, uint32_t(j), cols[k], vals[k]});
        }
    for (size_t k = 0; k <= np; ++k) z.coeffs.push_back({zkey_matrix::a, uint32_t(m + k), uint32_t(k), fr::one()});
    return z;
}

}  // namespace detail

/// The snarkjs zkey of a cuzk proving key and the r1cs it was made for (write it with
/// write_zkey). Copies the points. Throws invalid_argument if the key's H points are not in
/// the lagrange_odd_coset basis or its sizes do not fit cs. Curve is the io/ curve (bn128,
/// bls12381) and must be given: to_zkey<bn128>(pk, cs).
template <class Curve>
zkey<Curve> to_zkey(const groth16::proving_key<groth16_curve_t<Curve>>& pk, const groth16::r1cs<typename Curve::fr>& cs) {
    zkey<Curve> z = detail::zkey_skeleton<Curve>(pk, cs);
    z.a = pk.a;
    z.b1 = pk.b_g1;
    z.b2 = pk.b_g2;
    z.c = pk.l;
    z.h = pk.h;
    return z;
}

/// As above, moving the key's point vectors into the zkey (no copies of a large key).
template <class Curve>
zkey<Curve> to_zkey(groth16::proving_key<groth16_curve_t<Curve>>&& pk, const groth16::r1cs<typename Curve::fr>& cs) {
    zkey<Curve> z = detail::zkey_skeleton<Curve>(pk, cs);
    z.a = std::move(pk.a);
    z.b1 = std::move(pk.b_g1);
    z.b2 = std::move(pk.b_g2);
    z.c = std::move(pk.l);
    z.h = std::move(pk.h);
    return z;
}

}  // namespace cuzk::io
