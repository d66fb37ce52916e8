// SPDX-License-Identifier: MIT OR Apache-2.0
// Synthetic circuits of any size 2^k that look like real ones, for tests and benchmarks.
//
// Each constraint multiplies earlier variables into a new one. A configurable share of the
// witness is bits (Filecoin's PoRep circuits are mostly bits: bit * bit = bit keeps them so);
// the rest is full width ((u + t) * v with u full width). bit_share = 0 gives the
// "random witness" worst case, where every MSM scalar is full width.
//
// Column densities (a_density, b_density): the share of the aux variables that have a term in
// some A (B) row, which is what a density-compressed key keeps points for (groth16/density.hpp).
// Left out, the generator's uniform picks decide (about half of each, the circuits of every
// earlier version, byte for byte). Given, each new variable is marked present in A and in B with
// those probabilities, rows take their A and B terms only from marked variables, and a marked
// variable not used yet is taken first, so each marked one gets a term (up to the few made in
// the last rows). That path models bits as bellman's XOR gadget, (2u) * v = u + v - out, so they
// stay half ones (AND, the default path's bit gadget, drives them to zero).
//
// porep_shape(k, seed) is Filecoin's PoRep partition on a 2^k domain: see its comment.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <optional>
#include <random>
#include <vector>

#include "cuzk/core/error.hpp"
#include "cuzk/groth16/circuit.hpp"

namespace cuzk::groth16 {

struct synthetic_options {
    unsigned log_domain = 10;  ///< the proving domain will have 2^log_domain rows, all used
    size_t num_public = 4;     ///< public inputs (besides the constant one)
    double bit_share = 0.0;    ///< share of constraints whose output is a bit, in [0, 1]
    uint64_t seed = 1;
    /// Share of the aux variables with a term in some A row, in (0, 1]. Not given (and b_density
    /// not given): today's generator, exactly. Given with b_density left out: B is 1.
    std::optional<double> a_density = std::nullopt;
    /// Share of the aux variables with a term in some B row, in (0, 1]; as a_density.
    std::optional<double> b_density = std::nullopt;
};

/// Filecoin PoRep 32 GiB's column densities: A-aux 99.7 %, B-aux 25.4 % (curio
/// extern/cuzk/cuzk-project.md section 14, in ../shared/reference/seed-system.md section 1).
inline constexpr double porep_a_aux_density = 0.997;
inline constexpr double porep_b_aux_density = 0.254;

/// The share of PoRep's aux values modelled as bits: an estimate, not a measurement (no PoRep
/// witness has been counted here). A partition (130.3M constraints, 130.2M aux) is SHA-256
/// dominated: every challenge recomputes its node's label on every layer (a SHA-256 over the
/// replica id, the node and its parents' labels) and opens its tree_d path (SHA-256), millions of
/// constraints a challenge, and bellman's SHA-256 gadget allocates only Booleans (the modular sums
/// and the packed words are linear combinations of bits, not variables). The full-width aux is the
/// Poseidon part (the column hashes and the tree_c / tree_r_last paths, of the order of 10^5
/// constraints a challenge) and the labels as field elements: a few percent. supraseal's split
/// MSM is consistent with that: it splits only when at most half the scalars are neither 0 nor 1, and its tail
/// MSMs over those take 0.13 s a partition against 0.6 s of batch addition (seed-system.md
/// section 2). 0.97 leans to the full-width side of that estimate (the slower side for the MSMs).
inline constexpr double porep_bit_share = 0.97;

/// The number of public inputs of a PoRep 32 GiB partition, without the constant one.
inline constexpr size_t porep_num_public = 327;

/// A PoRep-shaped partition on a 2^log_domain domain: Filecoin's A and B aux densities,
/// porep_bit_share of the aux values bits (half of them ones), the rest full width, and
/// porep_num_public public inputs (n / 16 on domains below 2^13, too small to hold them usefully).
/// Not modelled: the row weights (every B row has one term as in PoRep, but A rows have about 1
/// where PoRep's have 2.4, C rows about 2.9 against 2.2), the circuit's structure (rows wire
/// random variables among the newest of their kind, not SHA-256 and Poseidon gadgets).
inline synthetic_options porep_shape(unsigned log_domain, uint64_t seed = 1) {
    const size_t n = size_t(1) << std::min(log_domain, 31u);  // synthetic_circuit checks the range
    return {.log_domain = log_domain,
            .num_public = std::min(porep_num_public, n / 16),
            .bit_share = porep_bit_share,
            .seed = seed,
            .a_density = porep_a_aux_density,
            .b_density = porep_b_aux_density};
}

namespace detail {

/// synthetic_circuit with column densities: see the file comment. O(n) time and memory.
template <class F>
circuit<F> synthetic_circuit_with_densities(const synthetic_options& opt) {
    const double a_share = opt.a_density.value_or(1.0), b_share = opt.b_density.value_or(1.0);
    if (!(a_share > 0 && a_share <= 1)) throw invalid_argument("synthetic_circuit: a_density must be in (0, 1]");
    if (!(b_share > 0 && b_share <= 1)) throw invalid_argument("synthetic_circuit: b_density must be in (0, 1]");
    const size_t n = size_t(1) << opt.log_domain;
    const size_t constraints = n - opt.num_public - 1;
    // Free witness values the constraints start from: 2 full width, and 14 bits, the entropy of
    // every bit (XOR is linear: each bit is the XOR of some seed bits). Few, as each needs an A
    // term that a row would otherwise give a new variable.
    constexpr size_t kFullSeeds = 2, kSeeds = kFullSeeds + 14;

    std::mt19937_64 rng(opt.seed);
    std::uniform_real_distribution<double> coin(0, 1);
    // The kind of every row first, so the matrices are reserved exactly (no reallocation, whose
    // doubling would cost a copy of gigabytes at 2^27): a bit row is A 1, B 1, C 3 terms; a
    // full-width row A 2, B 1, C 1.
    std::vector<bool> is_bit(constraints);
    size_t bit_rows = 0;
    for (size_t j = 0; j < constraints; ++j) {
        const bool bit = coin(rng) < opt.bit_share;
        is_bit[j] = bit;
        bit_rows += bit;
    }
    const size_t full_rows = constraints - bit_rows;

    circuit<F> out;
    auto& sys = out.system;
    auto& z = out.assignment;
    sys.num_public = opt.num_public;
    sys.num_variables = 1 + opt.num_public + kSeeds + constraints;
    z.reserve(sys.num_variables);
    z.push_back(F::one());
    sys.a.reserve(constraints, bit_rows + 2 * full_rows);
    sys.b.reserve(constraints, constraints);
    sys.c.reserve(constraints, 3 * bit_rows + full_rows);

    // Per matrix (A, B) and kind (bit, full): the variables rows may use, and those marked but
    // not used yet, taken before any random pick: the newest for A (so a row's A term is mostly
    // the previous row's output, a chain), the oldest for B (so it is not the same variable).
    struct pools {
        std::vector<uint32_t> usable;
        std::deque<uint32_t> unused;
    };
    pools a_bits, a_fulls, b_bits, b_fulls;
    // The bits' values, packed: XOR reads these instead of z, whose random reads miss the cache
    // (they were half the generator's time; 16 MB at 2^27).
    std::vector<bool> is_one(sys.num_variables);
    auto reserve = [constraints](pools& p, double share) {
        p.usable.reserve(size_t(share * double(constraints) * 1.01) + 64);
    };
    reserve(a_bits, a_share * opt.bit_share);
    reserve(a_fulls, a_share * (1 - opt.bit_share));
    reserve(b_bits, b_share * opt.bit_share);
    reserve(b_fulls, b_share * (1 - opt.bit_share));
    // Random picks come from the newest 2^16 usable variables of a pool: gadgets wire nearby
    // variables, and picks over the whole pool miss the cache at every row (2^23 on a shared
    // 2-core machine: 6.2 to 7.6 s with them, 3.6 to 4.9 s with the window).
    constexpr size_t kWindow = size_t(1) << 16;
    auto pick = [&](const std::vector<uint32_t>& v) {
        return v[v.size() - 1 - size_t(rng() % std::min(v.size(), kWindow))];
    };
    auto take_newest = [&](pools& p) {
        if (p.unused.empty()) return pick(p.usable);
        const uint32_t v = p.unused.back();
        p.unused.pop_back();
        return v;
    };
    auto take_oldest_but = [&](pools& p, uint32_t avoid) {  // any but `avoid`, if there is another
        if (!p.unused.empty() && p.unused.front() != avoid) {
            const uint32_t v = p.unused.front();
            p.unused.pop_front();
            return v;
        }
        uint32_t v = pick(p.usable);
        while (v == avoid && p.usable.size() > 1) v = pick(p.usable);
        return v;
    };
    // A new aux variable, marked in A and B by the densities; `everywhere` forces both (the
    // first two seeds, so that no pool is ever empty).
    auto add = [&](const F& value, bool bit, bool everywhere) {
        const uint32_t v = uint32_t(z.size());
        z.push_back(value);
        if (bit) is_one[v] = value.is_one();
        auto mark = [v](pools& p) {
            p.usable.push_back(v);
            p.unused.push_back(v);
        };
        if (everywhere || coin(rng) < a_share) mark(bit ? a_bits : a_fulls);
        if (everywhere || coin(rng) < b_share) mark(bit ? b_bits : b_fulls);
    };
    for (size_t k = 0; k < opt.num_public; ++k) {  // in A anyway (its input row); usable, not tracked
        a_fulls.usable.push_back(uint32_t(z.size()));
        b_fulls.usable.push_back(uint32_t(z.size()));
        z.push_back(F::random(rng));
    }
    for (size_t k = 0; k < kSeeds; ++k) {
        if (k < kFullSeeds) add(F::random(rng), false, k == 0);
        else add(F::from_u64(rng() & 1), true, k == kFullSeeds);
    }
    const F one = F::one(), two = one + one, minus_one = -one, zero = F::zero();
    for (size_t j = 0; j < constraints; ++j) {
        const uint32_t out_var = uint32_t(z.size());
        if (is_bit[j]) {
            // XOR, as bellman's Boolean::xor: (2u) * v = u + v - out
            const uint32_t u = take_newest(a_bits);
            const uint32_t v = take_oldest_but(b_bits, u);  // u XOR u = 0: zeros would spread
            term<F> a[] = {{u, two}}, b[] = {{v, one}}, c[] = {{u, one}, {v, one}, {out_var, minus_one}};
            sys.a.append_row(a);
            sys.b.append_row(b);
            sys.c.append_row(c);
            add(is_one[u] != is_one[v] ? one : zero, true, false);
        } else {
            const uint32_t u = take_newest(a_fulls);
            const uint32_t t = !a_bits.unused.empty()    ? take_newest(a_bits)
                               : !a_fulls.unused.empty() ? take_newest(a_fulls)
                                                         : pick(coin(rng) < 0.5 ? a_bits.usable : a_fulls.usable);
            const uint32_t v = take_oldest_but(b_fulls, uint32_t(-1));  // a bit would often zero the output
            const F k = F::from_u64(1 + rng() % 7);  // small coefficients, as real gadgets have
            term<F> a[] = {{u, one}, {t, k}}, b[] = {{v, one}}, c[] = {{out_var, one}};
            sys.a.append_row(a);
            sys.b.append_row(b);
            sys.c.append_row(c);
            add((z[u] + k * z[t]) * z[v], false, false);
        }
    }
    return out;
}

}  // namespace detail

/// Builds a satisfiable circuit whose proving domain is exactly 2^log_domain (every row used).
template <class F>
circuit<F> synthetic_circuit(const synthetic_options& opt) {
    if (opt.log_domain < 3 || opt.log_domain > 30) throw invalid_argument("synthetic_circuit: log_domain must be in [3, 30]");
    if (opt.bit_share < 0 || opt.bit_share > 1) throw invalid_argument("synthetic_circuit: bit_share must be in [0, 1]");
    const size_t n = size_t(1) << opt.log_domain;
    if (opt.num_public + 1 + 4 > n) throw invalid_argument("synthetic_circuit: too many public inputs for the domain");
    if (opt.a_density || opt.b_density) return detail::synthetic_circuit_with_densities<F>(opt);
    // No densities: the generator of every earlier version, unchanged (benchmarks and keys made
    // with it stay comparable).
    const size_t constraints = n - opt.num_public - 1;
    constexpr size_t kSeeds = 4;  // free witness values the constraints start from

    std::mt19937_64 rng(opt.seed);
    std::uniform_real_distribution<double> coin(0, 1);
    circuit<F> out;
    auto& sys = out.system;
    auto& z = out.assignment;
    sys.num_public = opt.num_public;
    sys.num_variables = 1 + opt.num_public + kSeeds + constraints;
    z.reserve(sys.num_variables);
    z.push_back(F::one());
    std::vector<uint32_t> bits, fulls;
    for (size_t k = 0; k < opt.num_public; ++k) {
        fulls.push_back(uint32_t(z.size()));
        z.push_back(F::random(rng));
    }
    for (size_t k = 0; k < kSeeds; ++k) {
        if (k % 2 == 0) {
            fulls.push_back(uint32_t(z.size()));
            z.push_back(F::random(rng));
        } else {
            bits.push_back(uint32_t(z.size()));
            z.push_back(F::from_u64(rng() & 1));
        }
    }
    auto pick = [&](const std::vector<uint32_t>& pool) { return pool[rng() % pool.size()]; };
    sys.a.reserve(constraints, 2 * constraints);
    sys.b.reserve(constraints, constraints);
    sys.c.reserve(constraints, constraints);
    const F one = F::one();
    for (size_t j = 0; j < constraints; ++j) {
        const uint32_t out_var = uint32_t(z.size());
        if (coin(rng) < opt.bit_share) {
            uint32_t u = pick(bits), v = pick(bits);
            term<F> a[] = {{u, one}}, b[] = {{v, one}}, c[] = {{out_var, one}};
            sys.a.append_row(a);
            sys.b.append_row(b);
            sys.c.append_row(c);
            z.push_back(z[u] * z[v]);
            bits.push_back(out_var);
        } else {
            uint32_t u = pick(fulls), t = pick(coin(rng) < 0.5 ? bits : fulls);
            uint32_t v = pick(fulls);  // a bit here would often zero the output
            F k = F::from_u64(1 + rng() % 7);  // small coefficients, as real gadgets have
            term<F> a[] = {{u, one}, {t, k}}, b[] = {{v, one}}, c[] = {{out_var, one}};
            sys.a.append_row(a);
            sys.b.append_row(b);
            sys.c.append_row(c);
            z.push_back((z[u] + k * z[t]) * z[v]);
            fulls.push_back(out_var);
        }
    }
    return out;
}

}  // namespace cuzk::groth16
