// SPDX-License-Identifier: MIT OR Apache-2.0
// supraseal_assignment: the per-circuit input bellperson's supraseal path hands to C++, and a
// host-prover entry that proves from it and returns the proof in bellperson's byte format.
//
// The shape is supraseal-c2's `Assignment<Scalar>` (supranational/supra_seal c2/cuda/groth16_cuda.cu)
// as bellperson fills it (filecoin-project/bellperson src/groth16/prover/supraseal.rs,
// `From<&ProvingAssignment>`): three density bitmaps (A-aux, B-input, B-aux; A has every input),
// a, b, c evaluated on the constraint rows (the constraints, then one row per input with A = the
// input: bellperson appends them after synthesis, as cuzk's r1cs does), zero-padded here to the
// key's domain, and the input and aux assignments. r and s are the caller's (bellperson samples
// them in Rust). So a Rust caller can switch with a thin FFI:
//
//   groth16::prover<bls12_381::curve> p(pk);          // pk: io::to_proving_key(params, a_d, b_d)
//   groth16::supraseal_assignment<fr> in{...};        // spans over bellperson's vectors
//   io::bellperson_proof_bytes bytes = groth16::prove_supraseal_shaped(p, in, r, s);
//
// Representation: cuzk's fr is Montgomery form over 4 little-endian 64-bit limbs with R = 2^256,
// which is how blstrs stores blst_fr; an FFI passing bellperson's Scalar memory as cuzk fr relies
// on that (not tested here: no Rust in this build).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cuzk/core/error.hpp"
#include "cuzk/groth16/density.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/io/bellperson_proof.hpp"

namespace cuzk::groth16 {

/// One circuit's prover input in supraseal's `Assignment` shape (views; nothing is owned).
template <class Fr>
struct supraseal_assignment {
    /// A density of the aux variables: bit i (LSB first in 64-bit words, bellperson's BitVec raw
    /// slice) set when aux variable i has a term in some A row. Inputs are always in A.
    std::span<const uint64_t> a_aux_density;
    size_t a_aux_bit_len = 0;
    /// B density of the inputs (the constant one is input 0), same packing.
    std::span<const uint64_t> b_inp_density;
    size_t b_inp_bit_len = 0;
    /// B density of the aux variables.
    std::span<const uint64_t> b_aux_density;
    size_t b_aux_bit_len = 0;

    /// a, b, c on the first abc_size rows of the domain (each the same length, at most the key's
    /// domain size; the rest is zero).
    std::span<const Fr> a, b, c;

    /// The input assignment (input 0 is the constant 1) and the aux assignment.
    std::span<const Fr> inputs;
    std::span<const Fr> aux;
};

namespace detail {

/// The A and B density maps over all variables (inputs, then aux) of `in`, checked against the
/// assignment lengths.
template <class Fr>
std::pair<density_map, density_map> supraseal_densities(const supraseal_assignment<Fr>& in) {
    auto bad = [](const std::string& what) { return invalid_argument("prove_supraseal_shaped: " + what); };
    if (in.a_aux_bit_len != in.aux.size())
        throw bad("the A aux density has " + std::to_string(in.a_aux_bit_len) + " bits, the aux assignment " +
                  std::to_string(in.aux.size()) + " values");
    if (in.b_inp_bit_len != in.inputs.size())
        throw bad("the B input density has " + std::to_string(in.b_inp_bit_len) + " bits, the input assignment " +
                  std::to_string(in.inputs.size()) + " values");
    if (in.b_aux_bit_len != in.aux.size())
        throw bad("the B aux density has " + std::to_string(in.b_aux_bit_len) + " bits, the aux assignment " +
                  std::to_string(in.aux.size()) + " values");
    const density_map a_aux = density_map::from_words(in.a_aux_density, in.a_aux_bit_len, "A aux density");
    const density_map b_inp = density_map::from_words(in.b_inp_density, in.b_inp_bit_len, "B input density");
    const density_map b_aux = density_map::from_words(in.b_aux_density, in.b_aux_bit_len, "B aux density");
    return {density_map::concat(density_map::full(in.inputs.size()), a_aux), density_map::concat(b_inp, b_aux)};
}

/// z = inputs | aux and abc = a | b | c zero-padded to the key's domain, after checking `in`
/// against the key: lengths, the constant one, and (for a density-compressed key) the densities.
template <class Curve>
void supraseal_inputs(const proving_key<Curve>& pk, const supraseal_assignment<typename Curve::fr>& in,
                      std::vector<typename Curve::fr>& z, std::vector<typename Curve::fr>& abc) {
    using Fr = typename Curve::fr;
    auto bad = [](const std::string& what) { return invalid_argument("prove_supraseal_shaped: " + what); };
    const size_t n = pk.domain_size();
    if (in.inputs.size() != pk.num_public() + 1)
        throw bad("the input assignment has " + std::to_string(in.inputs.size()) + " values, the key " +
                  std::to_string(pk.num_public() + 1) + " inputs (the constant one included)");
    if (in.aux.size() != pk.l.size())
        throw bad("the aux assignment has " + std::to_string(in.aux.size()) + " values, the key " +
                  std::to_string(pk.l.size()) + " aux variables");
    if (!in.inputs[0].is_one()) throw bad("input 0 must be the constant 1");
    if (in.b.size() != in.a.size() || in.c.size() != in.a.size())
        throw bad("a, b, c have different lengths (" + std::to_string(in.a.size()) + ", " + std::to_string(in.b.size()) +
                  ", " + std::to_string(in.c.size()) + ")");
    if (in.a.size() > n)
        throw bad("a, b, c hold " + std::to_string(in.a.size()) + " rows, more than the key's domain of " +
                  std::to_string(n));
    const auto [a_density, b_density] = supraseal_densities(in);
    if (!pk.is_dense()) {
        if (a_density != pk.a_density) throw bad("the A density differs from the key's (another circuit?)");
        if (b_density != pk.b_density) throw bad("the B density differs from the key's (another circuit?)");
    }
    // A dense key holds identities for the absent columns: the maps change nothing there.
    z.resize(in.inputs.size() + in.aux.size());
    std::copy(in.inputs.begin(), in.inputs.end(), z.begin());
    std::copy(in.aux.begin(), in.aux.end(), z.begin() + std::ptrdiff_t(in.inputs.size()));
    abc.assign(3 * n, Fr::zero());
    std::copy(in.a.begin(), in.a.end(), abc.begin());
    std::copy(in.b.begin(), in.b.end(), abc.begin() + std::ptrdiff_t(n));
    std::copy(in.c.begin(), in.c.end(), abc.begin() + std::ptrdiff_t(2 * n));
}

}  // namespace detail

/// Proves one circuit from its supraseal-shaped input with the randomisers r, s (secret; the
/// caller wipes them) on the host prover `p` (whose key must be on bellperson's domain for a
/// bellperson circuit), and returns bellperson's 192 proof bytes. Nothing checks that the
/// constraints hold. Throws invalid_argument on a shape mismatch (see supraseal_inputs).
inline io::bellperson_proof_bytes prove_supraseal_shaped(const prover<bls12_381::curve>& p,
                                                         const supraseal_assignment<bls12_381::fr>& in,
                                                         const bls12_381::fr& r, const bls12_381::fr& s,
                                                         stage_times* times = nullptr) {
    std::vector<bls12_381::fr> z, abc;
    detail::supraseal_inputs(p.key(), in, z, abc);
    return io::to_bellperson_bytes(p.prove_from_abc_with(z, std::move(abc), r, s, times));
}

/// The same on any other prover of BLS12-381, e.g. the CUDA prover (groth16/cuda/prover.cuh),
/// through its prove_from_abc: r, s are drawn from `rng` inside that prover.
template <class Policy, class Rng = os_random>
io::bellperson_proof_bytes prove_supraseal_shaped(const prover<bls12_381::curve, Policy>& p,
                                                  const supraseal_assignment<bls12_381::fr>& in, Rng&& rng = Rng{},
                                                  stage_times* times = nullptr) {
    std::vector<bls12_381::fr> z, abc;
    detail::supraseal_inputs(p.key(), in, z, abc);
    return io::to_bellperson_bytes(p.prove_from_abc(z, std::move(abc), rng, times));
}

/// As above with r, s drawn from `rng` (draw_randomisers: the same draws as prover::prove).
template <class Rng = os_random>
io::bellperson_proof_bytes prove_supraseal_shaped(const prover<bls12_381::curve>& p,
                                                  const supraseal_assignment<bls12_381::fr>& in, Rng&& rng = Rng{},
                                                  stage_times* times = nullptr) {
    bls12_381::fr r, s;
    draw_randomisers(r, s, rng);
    auto out = prove_supraseal_shaped(p, in, r, s, times);
    secure_wipe(r);
    secure_wipe(s);
    return out;
}

}  // namespace cuzk::groth16
