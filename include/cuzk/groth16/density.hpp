// SPDX-License-Identifier: MIT OR Apache-2.0
// density_map: which variables have a point in a density-compressed key section (Filecoin's A
// and B), and the densities of an r1cs as bellperson's prover tracks them.
//
// bellperson's generator (src/groth16/generator.rs) drops every identity point from A, B_G1 and
// B_G2, i.e. the variables whose column is empty; its prover's DensityTracker records, per
// variable, whether some constraint's linear combination has a term for it, and its MSMs skip the
// variables without one (multiexp.rs `QueryDensity`). A: every input (the input rows put each
// input in A; bellperson uses FullDensity for A's inputs) and the aux variables of
// `a_aux_density`; B: `b_input_density` then `b_aux_density`. Variables are numbered inputs first
// (the constant one is input 0), then aux, as in cuzk.
//
// Bit order: bit i is bit (i % 64) of 64-bit word i / 64, least significant first. That is the
// raw layout of bellperson's `BitVec` (bitvec's default `BitVec<usize, Lsb0>` on a 64-bit
// target), which bellperson's supraseal path hands to C++ (`bv.as_raw_slice()`) and supraseal reads
// with a mask starting at 1 (supra_seal c2/cuda/groth16_cuda.cu, the prep_msm thread).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/core/error.hpp"
#include "cuzk/groth16/r1cs.hpp"

namespace cuzk::groth16 {

/// A bitmap over variables: bit i set when variable i has its point in a compressed section.
/// Default-constructed it is empty, which a proving key reads as "dense: every variable".
class density_map {
public:
    density_map() = default;

    /// `bits` variables, all absent.
    explicit density_map(size_t bits) : bits_(bits), words_((bits + 63) / 64, 0) {}

    /// Every one of `bits` variables present.
    static density_map full(size_t bits) {
        density_map d(bits);
        for (size_t i = 0; i < bits; ++i) d.set(i);
        return d;
    }

    static density_map from_bools(const std::vector<bool>& v) {
        density_map d(v.size());
        for (size_t i = 0; i < v.size(); ++i)
            if (v[i]) d.set(i);
        return d;
    }

    /// From `bits` bits packed in 64-bit words, least significant bit first (the layout of
    /// bellperson's BitVec raw slice). Bits of the last word past `bits` are ignored. Throws
    /// invalid_argument if `words` holds fewer than ceil(bits / 64) words.
    static density_map from_words(std::span<const uint64_t> words, size_t bits, const char* what = "density map") {
        const size_t need = (bits + 63) / 64;
        if (words.size() < need)
            throw invalid_argument(std::string(what) + ": " + std::to_string(bits) + " bits need " +
                                   std::to_string(need) + " 64-bit words, got " + std::to_string(words.size()));
        density_map d(bits);
        for (size_t w = 0; w < need; ++w) d.words_[w] = words[w];
        if (bits % 64) d.words_[need - 1] &= (uint64_t(1) << (bits % 64)) - 1;
        return d;
    }

    /// `first`'s bits, then `second`'s (inputs then aux, as bellperson's B query is split).
    static density_map concat(const density_map& first, const density_map& second) {
        density_map d(first.size() + second.size());
        for (size_t i = 0; i < first.size(); ++i)
            if (first.test(i)) d.set(i);
        for (size_t i = 0; i < second.size(); ++i)
            if (second.test(i)) d.set(first.size() + i);
        return d;
    }

    /// Number of variables the map covers.
    size_t size() const { return bits_; }
    bool empty() const { return bits_ == 0; }
    bool test(size_t i) const { return (words_[i / 64] >> (i % 64)) & 1; }
    void set(size_t i) { words_[i / 64] |= uint64_t(1) << (i % 64); }
    /// Number of present variables (the compressed section's length).
    size_t count() const {
        size_t c = 0;
        for (uint64_t w : words_) c += size_t(std::popcount(w));
        return c;
    }
    /// The packed words (bits past size() are zero).
    std::span<const uint64_t> words() const { return words_; }

    friend bool operator==(const density_map& x, const density_map& y) {
        return x.bits_ == y.bits_ && x.words_ == y.words_;
    }

private:
    size_t bits_ = 0;
    std::vector<uint64_t> words_;
};

/// The A and B densities of `cs` as bellperson's prover tracks them: A has every input and each
/// aux variable with a term in some A row; B each variable with a term in some B row.
template <class F>
std::pair<density_map, density_map> r1cs_densities(const r1cs<F>& cs) {
    density_map a(cs.num_variables), b(cs.num_variables);
    for (size_t j = 0; j < cs.num_constraints(); ++j) {
        for (uint32_t c : cs.a.columns(j)) a.set(c);
        for (uint32_t c : cs.b.columns(j)) b.set(c);
    }
    for (size_t k = 0; k <= cs.num_public && k < cs.num_variables; ++k) a.set(k);
    return {std::move(a), std::move(b)};
}

/// The values of `all` at the present variables of `d`, in order (the scalars of a compressed
/// MSM); `all` itself when d is empty (dense). `storage` holds the gathered copy. Throws
/// invalid_argument if the map does not cover `all`.
template <class F>
std::span<const F> select_present(std::span<const F> all, const density_map& d, std::vector<F>& storage,
                                  const char* what) {
    if (d.empty()) return all;
    if (d.size() != all.size())
        throw invalid_argument(std::string(what) + " density map covers " + std::to_string(d.size()) +
                               " variables, the assignment has " + std::to_string(all.size()));
    // Per-word offsets (prefix popcounts) let the copy run in parallel over words.
    const auto words = d.words();
    std::vector<size_t> start(words.size() + 1, 0);
    for (size_t w = 0; w < words.size(); ++w) start[w + 1] = start[w] + size_t(std::popcount(words[w]));
    storage.resize(start.back());
#pragma omp parallel for schedule(static)
    for (long long ww = 0; ww < (long long)words.size(); ++ww) {
        const size_t w = size_t(ww);
        size_t k = start[w];
        for (uint64_t m = words[w]; m; m &= m - 1) storage[k++] = all[w * 64 + size_t(std::countr_zero(m))];
    }
    return storage;
}

}  // namespace cuzk::groth16
