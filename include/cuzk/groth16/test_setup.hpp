// SPDX-License-Identifier: MIT OR Apache-2.0
// A Groth16 trusted setup from seeded toxic waste. INSECURE: anyone who knows the seed can
// forge proofs. For tests, benchmarks and examples only; real keys come from a ceremony
// (snarkjs zkeys, Filecoin parameters).
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "cuzk/ec/batch_normalize.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/xyzz.hpp"
#include "cuzk/field/batch_inverse.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/r1cs.hpp"
#include "cuzk/ntt/domain.hpp"

namespace cuzk::groth16 {

/// The toxic waste of a setup (kept only by tests that want to check keys against it).
template <class Fr>
struct toxic_waste {
    Fr tau, alpha, beta, gamma, delta;
};

namespace detail {

/// [k]G for many k with one fixed base: a table of d * 2^(8j) * G for every byte position j
/// and byte value d, so that each product costs one mixed addition per scalar byte.
template <class G>
class fixed_base_table {
public:
    static constexpr unsigned window = 8;
    static constexpr unsigned windows = (G::scalar::modulus_bits + window - 1) / window;
    static constexpr unsigned digits = (1u << window) - 1;

    explicit fixed_base_table(const affine<G>& base) {
        std::vector<jacobian<G>> t(size_t(windows) * digits);
        jacobian<G> row_base = jacobian<G>::from_affine(base);
        for (unsigned j = 0; j < windows; ++j) {
            jacobian<G> acc = row_base;
            for (unsigned d = 0; d < digits; ++d) {
                t[size_t(j) * digits + d] = acc;
                acc += row_base;
            }
            row_base = acc;  // 256 * previous row base = 2^(8(j+1)) G
        }
        table_.resize(t.size());
        batch_normalize<jacobian<G>>(t, table_);
    }

    /// k * base for a field scalar (variable time in k: setup scalars are not secrets we keep).
    xyzz<G> mul_vartime(const typename G::scalar& k) const {
        auto s = k.to_canonical();
        xyzz<G> acc = xyzz<G>::identity();
        for (unsigned j = 0; j < windows; ++j) {
            unsigned d = s.bits_at(size_t(j) * window, window);
            if (d != 0) acc += table_[size_t(j) * digits + d - 1];
        }
        return acc;
    }

    /// out[i] = scalars[i] * base, in affine form, in parallel.
    void mul_all(std::span<const typename G::scalar> scalars, std::vector<affine<G>>& out) const {
        std::vector<xyzz<G>> tmp(scalars.size());
#pragma omp parallel for schedule(static)
        for (long long i = 0; i < (long long)scalars.size(); ++i) tmp[size_t(i)] = mul_vartime(scalars[size_t(i)]);
        out.resize(scalars.size());
        batch_normalize<xyzz<G>>(tmp, out);
    }

    /// The table, row j (byte position) by column d - 1 (byte value d).
    const std::vector<affine<G>>& points() const { return table_; }

private:
    std::vector<affine<G>> table_;
};

template <class Fr, class Rng>
Fr random_nonzero(Rng& rng) {
    for (;;) {
        Fr x = Fr::random(rng);
        if (!x.is_zero()) return x;
    }
}

}  // namespace detail

/// The scalars behind every key point: the QAP at tau combined with the toxic waste.
/// Everything a setup computes except the group multiplications.
template <class Fr>
struct setup_scalars {
    toxic_waste<Fr> tw;
    std::vector<Fr> a;     ///< u_i = A_i(tau), every variable
    std::vector<Fr> b;     ///< v_i = B_i(tau), every variable
    std::vector<Fr> ic;    ///< (beta u_i + alpha v_i + w_i) / gamma, constant one and publics
    std::vector<Fr> l;     ///< (beta u_i + alpha v_i + w_i) / delta, auxiliary variables
    std::vector<Fr> h;     ///< H_i / [1]_1 in the lagrange_odd_coset convention
};

/// The setup scalars for `cs` (host, O(nnz + n)) on the domain with the given roots of unity
/// (constraint row j at w^j; bellperson's roots for keys that bellperson-style provers use).
/// Throws invalid_argument if tau lies in the domain or its odd coset (probability ~2^-220 for
/// random tau) or if gamma or delta is zero.
template <class Fr>
setup_scalars<Fr> compute_setup_scalars(const r1cs<Fr>& cs, const toxic_waste<Fr>& tw,
                                        ntt::domain_roots roots = ntt::domain_roots::snarkjs) {
    cs.validate();
    if (tw.gamma.is_zero() || tw.delta.is_zero()) throw invalid_argument("setup: gamma and delta must be non-zero");
    const size_t n = cs.domain_size(), m = cs.num_constraints(), nv = cs.num_variables;
    const auto dom = ntt::domain<Fr>::for_size(n, roots);

    // Lagrange basis of the domain at tau: L_j(tau) = (w^j / n) (tau^n - 1) / (tau - w^j).
    std::vector<Fr> wj(n), lag(n);
    Fr w = Fr::one();
    for (size_t j = 0; j < n; ++j, w *= dom.root()) {
        wj[j] = w;
        lag[j] = tw.tau - w;
        if (lag[j].is_zero()) throw invalid_argument("setup: tau is a domain point");
    }
    batch_inverse(std::span<Fr>(lag));
    const Fr zt_over_n = dom.vanishing(tw.tau) * dom.size_inverse();
#pragma omp parallel for schedule(static)
    for (long long j = 0; j < (long long)n; ++j) lag[size_t(j)] *= wj[size_t(j)] * zt_over_n;

    // QAP polynomials at tau: u_i = sum_j A[j][i] L_j(tau) (and v from B, w from C), plus
    // the public-input rows of A.
    setup_scalars<Fr> out{tw, std::vector<Fr>(nv, Fr::zero()), std::vector<Fr>(nv, Fr::zero()), {}, {}, {}};
    std::vector<Fr> wv(nv, Fr::zero());
    auto scatter = [&](const sparse_matrix<Fr>& mat, std::vector<Fr>& acc) {
        for (size_t j = 0; j < m; ++j) {
            auto cols = mat.columns(j);
            auto vals = mat.values(j);
            for (size_t k = 0; k < cols.size(); ++k) acc[cols[k]] += vals[k] * lag[j];
        }
    };
    scatter(cs.a, out.a);
    scatter(cs.b, out.b);
    scatter(cs.c, wv);
    for (size_t k = 0; k <= cs.num_public; ++k) out.a[k] += lag[m + k];

    const Fr gamma_inv = tw.gamma.inverse(), delta_inv = tw.delta.inverse();
    out.ic.resize(cs.num_public + 1);
    out.l.resize(nv - cs.num_public - 1);
#pragma omp parallel for schedule(static)
    for (long long ii = 0; ii < (long long)nv; ++ii) {
        const size_t i = size_t(ii);
        Fr k = tw.beta * out.a[i] + tw.alpha * out.b[i] + wv[i];
        if (i <= cs.num_public) out.ic[i] = k * gamma_inv;
        else out.l[i - cs.num_public - 1] = k * delta_inv;
    }

    // H_i = L'_{2i+1}(tau) / delta, L' the Lagrange basis of the domain of size 2n:
    // L'_k(tau) = (x_k / 2n) (tau^2n - 1) / (tau - x_k), x_k = w_2n^k.
    const Fr w2 = ntt::domain<Fr>::root_of_unity(dom.log_size() + 1, roots);
    std::vector<Fr> xs(n);
    out.h.resize(n);
    Fr x = w2;
    const Fr w2sq = w2.square();
    for (size_t i = 0; i < n; ++i, x *= w2sq) {
        xs[i] = x;
        out.h[i] = tw.tau - x;
        if (out.h[i].is_zero()) throw invalid_argument("setup: tau is on the odd coset");
    }
    batch_inverse(std::span<Fr>(out.h));
    const Fr tau_n = tw.tau.pow_vartime(uint64_t(n));
    const Fr scale = (tau_n.square() - Fr::one()) * Fr::from_u64(2 * n).inverse() * delta_inv;
#pragma omp parallel for schedule(static)
    for (long long i = 0; i < (long long)n; ++i) out.h[size_t(i)] *= xs[size_t(i)] * scale;
    return out;
}

/// Keys for `cs` from toxic waste `tw` (H points in the lagrange_odd_coset convention) on the
/// domain with the given roots, with the group multiplications on the host (fixed-base tables,
/// all cores). The key is dense (identities for empty A/B columns; to_density_compressed drops them).
template <class Curve>
proving_key<Curve> setup_from_toxic_waste(const r1cs<typename Curve::fr>& cs, const toxic_waste<typename Curve::fr>& tw,
                                          ntt::domain_roots roots = ntt::domain_roots::snarkjs) {
    using G1 = typename Curve::g1;
    using G2 = typename Curve::g2;
    const auto s = compute_setup_scalars(cs, tw, roots);
    proving_key<Curve> pk;
    pk.roots = roots;
    const detail::fixed_base_table<G1> g1(affine<G1>::generator());
    const detail::fixed_base_table<G2> g2(affine<G2>::generator());
    auto single1 = [&](const auto& k) { return to_affine(g1.mul_vartime(k)); };
    auto single2 = [&](const auto& k) { return to_affine(g2.mul_vartime(k)); };
    pk.vk.alpha_g1 = single1(tw.alpha);
    pk.vk.beta_g2 = single2(tw.beta);
    pk.vk.gamma_g2 = single2(tw.gamma);
    pk.vk.delta_g2 = single2(tw.delta);
    pk.beta_g1 = single1(tw.beta);
    pk.delta_g1 = single1(tw.delta);
    g1.mul_all(s.ic, pk.vk.ic);
    g1.mul_all(s.a, pk.a.owned());
    g1.mul_all(s.b, pk.b_g1.owned());
    g2.mul_all(s.b, pk.b_g2.owned());
    g1.mul_all(s.l, pk.l.owned());
    g1.mul_all(s.h, pk.h.owned());
    pk.h_convention = h_basis::lagrange_odd_coset;
    return pk;
}

/// Toxic waste drawn from a generator seeded with `seed`. INSECURE.
template <class Fr>
toxic_waste<Fr> toxic_waste_from_seed(uint64_t seed) {
    std::mt19937_64 rng(seed);
    return {detail::random_nonzero<Fr>(rng), detail::random_nonzero<Fr>(rng), detail::random_nonzero<Fr>(rng),
            detail::random_nonzero<Fr>(rng), detail::random_nonzero<Fr>(rng)};
}

/// Keys for `cs` from toxic waste drawn from a generator seeded with `seed`, on the domain with
/// the given roots. INSECURE.
template <class Curve>
proving_key<Curve> test_setup_insecure(const r1cs<typename Curve::fr>& cs, uint64_t seed,
                                       ntt::domain_roots roots = ntt::domain_roots::snarkjs) {
    return setup_from_toxic_waste<Curve>(cs, toxic_waste_from_seed<typename Curve::fr>(seed), roots);
}

}  // namespace cuzk::groth16

/// The host test setup for Curve: see cuzk/instances.hpp.
#define CUZK_HOST_TEST_SETUP_INSTANCES(prefix, Curve)                                                          \
    prefix template ::cuzk::groth16::setup_scalars<typename Curve::fr>                                         \
    cuzk::groth16::compute_setup_scalars<typename Curve::fr>(const ::cuzk::groth16::r1cs<typename Curve::fr>&, \
                                                             const ::cuzk::groth16::toxic_waste<typename Curve::fr>&, \
                                                             ::cuzk::ntt::domain_roots);                      \
    prefix template ::cuzk::groth16::proving_key<Curve> cuzk::groth16::setup_from_toxic_waste<Curve>(         \
        const ::cuzk::groth16::r1cs<typename Curve::fr>&, const ::cuzk::groth16::toxic_waste<typename Curve::fr>&, \
        ::cuzk::ntt::domain_roots);

#if defined(CUZK_HOST_PRECOMPILED)
#include "cuzk/groth16/curve.hpp"
#include "cuzk/instances.hpp"
CUZK_FOR_EACH_INSTANCE_CURVE(CUZK_HOST_TEST_SETUP_INSTANCES, extern)
#endif
