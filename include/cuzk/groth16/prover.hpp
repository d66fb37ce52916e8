// SPDX-License-Identifier: MIT OR Apache-2.0
// groth16::prover<Curve>: proves R1CS assignments against a resident proving key on the CPU.
//
//   auto pk = std::make_shared<const proving_key<C>>(test_setup_insecure<C>(cs, seed));
//   prover<C> p(pk);                          // CPU backend; the GPU's is cuda_prover (cuda/prover.cuh)
//   proof<C> pi = p.prove(cs, assignment);    // throws on unsatisfied constraints
//
// Steps: a, b, c on the domain (checking every constraint), the H scalars (h_scalars.hpp) on the
// key's roots of unity (proving_key::roots: snarkjs or bellperson), the MSMs A, B (G1 and G2), L
// and H, then the assembly with fresh randomisers r, s:
//   A = alpha + sum z_i A_i + r delta          B = beta + sum z_i B_i + s delta
//   C = sum_aux z_i L_i + sum p_i H_i + s A + r B_g1 - r s delta
// A density-compressed key (proving_key::a_density / b_density, Filecoin's shape) holds A and B
// points only for the variables its maps mark; the A and B MSMs then run over those variables
// only (their scalars gathered through the maps), as bellperson's and supraseal's provers do.
#pragma once

#include <bit>
#include <concepts>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/core/declassify.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/groth16/density.hpp"
#include "cuzk/groth16/h_scalars.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/msm/witness_host.hpp"
#include "cuzk/groth16/policy.hpp"
#include "cuzk/groth16/r1cs.hpp"
#include "cuzk/groth16/randomness.hpp"
#include "cuzk/groth16/stage_timer.hpp"
#include "cuzk/core/bulk_vector.hpp"

namespace cuzk::groth16 {

/// Throws invalid_argument unless a density-compressed key's maps are the circuit's densities
/// (r1cs_densities: what bellperson's density trackers record). A mismatch would silently give
/// proofs that do not verify.
template <class Curve>
void check_key_density(const proving_key<Curve>& pk, const r1cs<typename Curve::fr>& cs) {
    if (pk.is_dense()) return;
    const auto [a, b] = r1cs_densities(cs);
    auto compare = [](const density_map& key, const density_map& circuit, const char* what) {
        if (key == circuit) return;
        for (size_t i = 0; i < circuit.size(); ++i)
            if (key.test(i) != circuit.test(i))
                throw invalid_argument(std::string("prover: the key's ") + what + " density differs from the circuit's at variable " +
                                       std::to_string(i) + " (key " + (key.test(i) ? "has" : "lacks") +
                                       " its point, the column is " + (circuit.test(i) ? "not " : "") + "empty)");
    };
    compare(pk.a_density, a, "A");
    compare(pk.b_density, b, "B");
}

/// Throws invalid_argument unless the key was made for a circuit of this shape.
template <class Curve>
void check_key_matches(const proving_key<Curve>& pk, const r1cs<typename Curve::fr>& cs) {
    auto mismatch = [](const char* what, size_t key, size_t circuit) {
        throw invalid_argument(std::string("prover: proving key and circuit disagree on ") + what + " (key " +
                               std::to_string(key) + ", circuit " + std::to_string(circuit) + ")");
    };
    if (pk.num_variables() != cs.num_variables) mismatch("the number of variables", pk.num_variables(), cs.num_variables);
    if (pk.num_public() != cs.num_public) mismatch("the number of public inputs", pk.num_public(), cs.num_public);
    if (pk.domain_size() != cs.domain_size()) mismatch("the domain size", pk.domain_size(), cs.domain_size());
    check_key_vectors(pk, "prover");
    if (pk.l.size() != cs.num_aux()) throw invalid_argument("prover: proving key vectors have inconsistent lengths");
    check_key_density(pk, cs);
}

/// Throws invalid_argument unless z and abc have the lengths the key expects.
template <class Curve>
void check_abc_shape(const proving_key<Curve>& pk, std::span<const typename Curve::fr> z,
                     std::span<const typename Curve::fr> abc) {
    if (z.size() != pk.num_variables())
        throw invalid_argument("prover: assignment has " + std::to_string(z.size()) + " values, the key has " +
                               std::to_string(pk.num_variables()) + " variables");
    if (abc.size() != 3 * pk.domain_size())
        throw invalid_argument("prover: a, b, c must hold 3 * " + std::to_string(pk.domain_size()) + " values");
}

/// a | b | c on the domain for z (3 * domain_size values), checking every constraint on the way:
/// throws invalid_argument naming the first violated one. The first step of every backend.
template <class Fr>
std::vector<Fr> evaluate_abc_checked(const r1cs<Fr>& cs, std::span<const Fr> z, stage_timer& timer) {
    const size_t n = cs.domain_size();
    // 12.9 GB at 2^27: its pages are faulted in by every core, not by one while it zeroes them.
    std::vector<Fr> abc;
    io::resize_for_bulk_read(abc, 3 * n, 0, io::first_touch::team);
    timer.time("evaluate a, b, c", [&] {
        std::span<Fr> all(abc);
        auto bad = cs.evaluate(z, all.first(n), all.subspan(n, n), all.subspan(2 * n, n));
        if (bad) throw invalid_argument("prover: the assignment violates constraint " + std::to_string(*bad));
    });
    return abc;
}

/// The five MSM results of a proof, what every backend hands to the assembly: A (over the A
/// points), B in G1 and G2, L (over the auxiliary variables) and H (over the H scalars).
template <class Curve>
struct msm_sums {
    jacobian<typename Curve::g1> a, b1;
    jacobian<typename Curve::g2> b2;
    jacobian<typename Curve::g1> l, h;
};

/// The last step of every backend: the proof from the MSM results and the randomisers r, s
/// (secret: constant-time from here on; the caller wipes them). r = s = 0 gives a proof that
/// verifies but is not zero-knowledge.
template <class Curve>
proof<Curve> assemble_proof_with(const proving_key<Curve>& pk, const jacobian<typename Curve::g1>& sum_a,
                                 const jacobian<typename Curve::g1>& sum_b1, const jacobian<typename Curve::g2>& sum_b2,
                                 const jacobian<typename Curve::g1>& sum_l, const jacobian<typename Curve::g1>& sum_h,
                                 const typename Curve::fr& r, const typename Curve::fr& s) {
    using Fr = typename Curve::fr;
    using G1 = typename Curve::g1;
    using G2 = typename Curve::g2;
    Fr rs = r * s;
    // Secret scalars: constant-time multiplications, and constant-time additions wherever an
    // operand depends on r or s (the plain addition branches on its operands' special cases).
    const auto add_ct = [](const auto& p, const auto& q) { return ::cuzk::detail::add_ct(p, q); };
    jacobian<G1> a = add_ct(sum_a + pk.vk.alpha_g1, mul(pk.delta_g1, r));
    jacobian<G1> b1 = add_ct(sum_b1 + pk.beta_g1, mul(pk.delta_g1, s));
    jacobian<G2> b2 = add_ct(sum_b2 + pk.vk.beta_g2, mul(pk.vk.delta_g2, s));
    jacobian<G1> c = add_ct(add_ct(add_ct(sum_l + sum_h, mul(a, s)), mul(b1, r)), -mul(pk.delta_g1, rs));
    secure_wipe(rs);
    // A, B, C are the proof: public from here on.
    return proof<Curve>{to_affine(declassify(a)), to_affine(declassify(b2)), to_affine(declassify(c))};
}

/// assemble_proof_with over a backend's sums.
template <class Curve>
proof<Curve> assemble_proof_with(const proving_key<Curve>& pk, const msm_sums<Curve>& sums, const typename Curve::fr& r,
                                 const typename Curve::fr& s) {
    return assemble_proof_with<Curve>(pk, sums.a, sums.b1, sums.b2, sums.l, sums.h, r, s);
}

/// Candidates a randomiser may take before the source is called broken: a working source is
/// accepted at least half of the time (Fr::random_candidate) and yields zero with probability
/// about 2^-250, so all 64 fail with probability below 2^-64; a source stuck at all-zero or
/// all-one bytes fails them all at once instead of looping forever.
inline constexpr unsigned randomiser_max_tries = 64;

/// The randomisers a proof draws from `rng`: r, then s, each a uniform non-zero scalar, redrawn
/// at most randomiser_max_tries times (then randomness_error). Written in place (out-parameters,
/// so that no copy of a secret is left behind for the caller to miss).
template <class Fr, class Rng>
void draw_randomisers(Fr& r, Fr& s, Rng& rng) {
    // A generator that carries randomisers drawn beforehand (the engine's partition_rng, when the
    // caller drew r and s on its own thread) hands them over instead.
    if constexpr (requires { { rng.take_given(r, s) } -> std::same_as<bool>; })
        if (rng.take_given(r, s)) return;
    const auto draw = [&rng](Fr& out, const char* name) {
        for (unsigned k = 0; k < randomiser_max_tries; ++k) {
            // That a candidate was redrawn reveals only that it was zero or out of range.
            if (std::optional<Fr> x = Fr::random_candidate(rng); x && !declassify(ct_is_zero(*x))) {
                out = *x;
                secure_wipe(*x);
                return;
            }
        }
        throw randomness_error(std::string("the randomness source gave no usable ") + name + " in " +
                               std::to_string(randomiser_max_tries) +
                               " draws (each zero or not below the group order): the source is broken");
    };
    draw(r, "r");
    draw(s, "s");
}

/// assemble_proof_with fresh r, s from `rng` (draw_randomisers), wiped afterwards.
template <class Curve, class Rng>
proof<Curve> assemble_proof(const proving_key<Curve>& pk, const jacobian<typename Curve::g1>& sum_a,
                            const jacobian<typename Curve::g1>& sum_b1, const jacobian<typename Curve::g2>& sum_b2,
                            const jacobian<typename Curve::g1>& sum_l, const jacobian<typename Curve::g1>& sum_h,
                            Rng& rng) {
    using Fr = typename Curve::fr;
    Fr r, s;
    draw_randomisers(r, s, rng);
    proof<Curve> pi = assemble_proof_with<Curve>(pk, sum_a, sum_b1, sum_b2, sum_l, sum_h, r, s);
    secure_wipe(r);
    secure_wipe(s);
    return pi;
}

/// assemble_proof over a backend's sums.
template <class Curve, class Rng>
proof<Curve> assemble_proof(const proving_key<Curve>& pk, const msm_sums<Curve>& sums, Rng& rng) {
    return assemble_proof<Curve>(pk, sums.a, sums.b1, sums.b2, sums.l, sums.h, rng);
}

/// Policy: cpu_policy, the CPU prover below; a CUDA policy is the deprecated spelling of
/// cuda_prover (cuda/policy_prover.cuh).
template <class Curve, class Policy = cpu_policy>
class prover;

/// The CPU backend: host NTT and host MSM on all cores.
template <class Curve>
class prover<Curve, cpu_policy> {
public:
    using fr = typename Curve::fr;

    /// With a circuit, prove(z) proves it (the same call as the CUDA backend's resident circuit).
    explicit prover(std::shared_ptr<const proving_key<Curve>> pk, std::shared_ptr<const r1cs<fr>> circuit = nullptr)
        : pk_(std::move(pk)), circuit_(std::move(circuit)) {
        if (!pk_) throw invalid_argument("prover: null proving key");
        check_key_vectors(*pk_, "prover");
        if (circuit_) check_key_matches(*pk_, *circuit_);
    }

    const proving_key<Curve>& key() const { return *pk_; }

    /// Proves that z satisfies cs. Throws invalid_argument on a key/circuit mismatch, a
    /// malformed assignment, or a violated constraint (naming it). r and s come from `rng`.
    template <class Rng = os_random>
    proof<Curve> prove(const r1cs<fr>& cs, std::span<const fr> z, Rng&& rng = Rng{}, stage_times* times = nullptr) const {
        const auto& pk = *pk_;
        check_key_matches(pk, cs);
        stage_timer timer(times);
        std::vector<fr> abc = evaluate_abc_checked(cs, z, timer);
        return prove_from_abc_timed(z, abc, timer, rng);
    }

    /// Proves that z satisfies the circuit given at construction.
    template <class Rng = os_random>
    proof<Curve> prove(std::span<const fr> z, Rng&& rng = Rng{}, stage_times* times = nullptr) const {
        if (!circuit_) throw invalid_argument("prover: prove(z) needs the circuit given at construction");
        return prove(*circuit_, z, rng, times);
    }

    /// Proves from a, b, c already evaluated on the key's domain (abc = a | b | c, natural order;
    /// consumed as scratch). For callers with their own constraint format, such as snarkjs
    /// zkeys, where c = a * b on the constraint rows. Nothing checks that the constraints hold.
    template <class Rng = os_random>
    proof<Curve> prove_from_abc(std::span<const fr> z, std::vector<fr> abc, Rng&& rng = Rng{},
                                stage_times* times = nullptr) const {
        check_abc_shape(*pk_, z, abc);
        stage_timer timer(times);
        return prove_from_abc_timed(z, abc, timer, rng);
    }

    /// prove_from_abc with the randomisers given (as bellperson's supraseal path passes r and s;
    /// secret, and the caller's to wipe).
    proof<Curve> prove_from_abc_with(std::span<const fr> z, std::vector<fr> abc, const fr& r, const fr& s,
                                     stage_times* times = nullptr) const {
        check_abc_shape(*pk_, z, abc);
        stage_timer timer(times);
        const msm_sums<Curve> sums = msm_timed(z, abc, timer);
        return timer.time("assemble", [&] { return assemble_proof_with<Curve>(*pk_, sums, r, s); });
    }

private:
    using G1 = typename Curve::g1;
    using G2 = typename Curve::g2;
    /// The H scalars and the five MSMs. A and B run over the variables the key's density maps
    /// mark (all of them for a dense key).
    msm_sums<Curve> msm_timed(std::span<const fr> z, std::vector<fr>& abc, stage_timer& timer) const {
        const auto& pk = *pk_;
        const size_t n = pk.domain_size();
        timer.time("H scalars (NTT)", [&] {
            compute_h_scalars<fr>(abc, size_t(std::countr_zero(n)), pk.h_convention, pk.roots);
        });
        const std::span<const fr> h_scalars(abc.data(), pk.h.size());
        const std::span<const fr> aux = z.subspan(pk.num_public() + 1);
        std::vector<fr> a_store, b_store;
        const std::span<const fr> a_scalars = select_present(z, pk.a_density, a_store, "A");
        const std::span<const fr> b_scalars = select_present(z, pk.b_density, b_store, "B");
        msm_sums<Curve> r;
        r.a = timer.time("MSM A", [&] { return msm_witness_host<G1>(pk.a, a_scalars); });
        r.b1 = timer.time("MSM B G1", [&] { return msm_witness_host<G1>(pk.b_g1, b_scalars); });
        r.b2 = timer.time("MSM B G2", [&] { return msm_witness_host<G2>(pk.b_g2, b_scalars); });
        r.l = timer.time("MSM L", [&] { return msm_witness_host<G1>(pk.l, aux); });
        r.h = timer.time("MSM H", [&] { return msm::msm_host<G1>(std::span<const affine<G1>>(pk.h), h_scalars); });
        return r;
    }

    template <class Rng>
    proof<Curve> prove_from_abc_timed(std::span<const fr> z, std::vector<fr>& abc, stage_timer& timer, Rng& rng) const {
        const msm_sums<Curve> sums = msm_timed(z, abc, timer);
        return timer.time("assemble", [&] { return assemble_proof<Curve>(*pk_, sums, rng); });
    }

    std::shared_ptr<const proving_key<Curve>> pk_;
    std::shared_ptr<const r1cs<fr>> circuit_;
};

}  // namespace cuzk::groth16

/// Proof assembly for Curve (the CPU prover's MSMs are msm/witness_host.hpp and pippenger_host.hpp
/// instances): see cuzk/instances.hpp.
#define CUZK_HOST_PROVER_INSTANCES(prefix, Curve)                                                               \
    prefix template ::cuzk::groth16::proof<Curve> cuzk::groth16::assemble_proof_with<Curve>(                    \
        const ::cuzk::groth16::proving_key<Curve>&, const ::cuzk::jacobian<typename Curve::g1>&,                \
        const ::cuzk::jacobian<typename Curve::g1>&, const ::cuzk::jacobian<typename Curve::g2>&,               \
        const ::cuzk::jacobian<typename Curve::g1>&, const ::cuzk::jacobian<typename Curve::g1>&,               \
        const typename Curve::fr&, const typename Curve::fr&);

#if defined(CUZK_HOST_PRECOMPILED)
#include "cuzk/groth16/curve.hpp"
#include "cuzk/instances.hpp"
CUZK_FOR_EACH_INSTANCE_CURVE(CUZK_HOST_PROVER_INSTANCES, extern)
#endif
