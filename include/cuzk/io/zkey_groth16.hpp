// SPDX-License-Identifier: MIT OR Apache-2.0
// zkey_groth16: from snarkjs files to cuzk's Groth16 types (groth16/keys.hpp) and back.
//
//   auto z = io::zkey<io::bn128>::read("c.zkey");
//   auto w = io::wtns<io::bn128>::read("w.wtns");
//   auto abc = io::evaluate_abc<io::bn128>(z.coeffs, z.domain_size, w.values);  // or, per key:
//   io::abc_rows<io::bn128::fr> rows(z.coeffs, z.domain_size, z.n_vars);  ... rows.evaluate(w.values)
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

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
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

/// The A and B coefficients of a zkey by row (compressed sparse rows), built once when a key
/// is loaded so that a | b | c can be evaluated for each witness in parallel by rows:
///
///   io::abc_rows<fr> rows(z.coeffs, z.domain_size, z.n_vars);  // with the key
///   std::vector<fr> abc = rows.evaluate(w.values);              // per proof
///
/// Building checks every coefficient (a signal beyond the witness, a row beyond the domain:
/// evaluate_abc's errors, now raised here), orders each row's entries by signal, adds up repeated
/// (row, signal) entries and drops zero coefficients. Field additions are exact, so the sums,
/// hence a, b and c, are exactly those of the coefficient list in file order. Entries whose
/// coefficient is 1, -1 or 2 (most of circom's) cost an addition instead of a multiplication and
/// keep no value. Memory: 8 bytes per entry, 32 more per entry of another coefficient (the
/// coefficient list takes 48), and 8 bytes per domain row; while building, 8 per entry more.
template <class Fr>
class abc_rows {
public:
    /// Coefficient lists at least this long are counted and placed in rows by all threads
    /// (below it, starting them costs more: a choice, not a measured threshold).
    static constexpr size_t parallel_build_min = size_t(1) << 16;

    /// No rows (domain size 0): evaluate gives an empty vector.
    abc_rows() = default;

    /// The rows of `coeffs` on a domain of domain_size rows, for witnesses of n_signals values.
    /// Throws invalid_argument for a coefficient whose signal is not below n_signals or whose
    /// row is not below domain_size (the first such in list order), or for more than 2^32 - 4
    /// coefficients.
    abc_rows(std::span<const zkey_coefficient<Fr>> coeffs, uint32_t domain_size, size_t n_signals) : n_(domain_size) {
        const size_t n = n_, rows = 2 * n;
        if (coeffs.size() > max_coefficients)
            throw invalid_argument("evaluate_abc: " + std::to_string(coeffs.size()) +
                                   " coefficients, more than 2^32 - 4");
        // Counting sort by row (A rows 0 .. n-1, then B rows n .. 2n-1), in parallel: start_[r + 1]
        // first counts row r's entries (atomic increments), then each entry takes the next slot
        // of its row. The order within a row is then the threads', not the list's: the rows are
        // sorted by signal and repeated signals added up below, so the result does not depend on
        // it. The checks find the first bad coefficient in list order (a min reduction).
        const int64_t m = int64_t(coeffs.size());
        const bool parallel = coeffs.size() >= parallel_build_min;
        start_.assign(rows + 1, 0);
        int64_t first_bad = m;
        size_t needed = 0;
#pragma omp parallel for schedule(static) reduction(min : first_bad) reduction(max : needed) if (parallel)
        for (int64_t i = 0; i < m; ++i) {
            const auto& e = coeffs[size_t(i)];
            if (e.signal >= n_signals || e.constraint >= n) {
                first_bad = std::min(first_bad, i);
                continue;
            }
            std::atomic_ref<uint32_t>(start_[row_of(e) + 1]).fetch_add(1, std::memory_order_relaxed);
            needed = std::max(needed, size_t(e.signal) + 1);
        }
        if (first_bad < m) {
            const auto& e = coeffs[size_t(first_bad)];
            if (e.signal >= n_signals)
                throw invalid_argument("evaluate_abc: coefficient signal " + std::to_string(e.signal) +
                                       " is beyond the witness (" + std::to_string(n_signals) + " values)");
            throw invalid_argument("evaluate_abc: coefficient row " + std::to_string(e.constraint) +
                                   " is beyond the domain (" + std::to_string(n) + " rows)");
        }
        signals_needed_ = needed;
        for (size_t r = 0; r < rows; ++r) start_[r + 1] += start_[r];
        // Each entry placed by row as (signal, its index in coeffs): 8 bytes while building, not
        // the 40 of a copied value. Huge pages, touched by both cores: 4 KiB page faults were half
        // the build time.
        std::vector<cell> building;
        resize_for_bulk_read(building, coeffs.size(), 0, first_touch::team);
        {
            std::vector<uint32_t> next(start_.begin(), start_.end() - 1);
#pragma omp parallel for schedule(static) if (parallel)
            for (int64_t i = 0; i < m; ++i) {
                const auto& e = coeffs[size_t(i)];
                const uint32_t at = std::atomic_ref<uint32_t>(next[row_of(e)]).fetch_add(1, std::memory_order_relaxed);
                building[at] = {e.signal, uint32_t(i)};
            }
        }
        // Row r's entries after sorting by signal: each run of one signal is one entry, its
        // coefficients added up (exact, so in any order), zeros dropped; emit(signal, value).
        auto each_entry = [&](size_t r, auto&& emit) {
            const cell* row = building.data() + start_[r];
            const size_t len = start_[r + 1] - start_[r];
            for (size_t k = 0; k < len;) {
                const uint32_t signal = row[k].signal;
                Fr v = coeffs[row[k].code].value;
                for (++k; k < len && row[k].signal == signal; ++k) v += coeffs[row[k].code].value;
                if (!v.is_zero()) emit(signal, v);
            }
        };
        // First pass: sort each row, count what it keeps and how many of those keep a value;
        // second: write them at the rows' offsets. Nothing here throws.
        std::vector<uint32_t> cell_start(rows + 1, 0), value_start(rows + 1, 0);
        // (The parallel regions here and in evaluate are skipped on small domains, where starting
        // the threads would cost more than the rows: a choice, not a measured threshold.)
#pragma omp parallel for schedule(dynamic, 1024) if (rows >= 8192)
        for (int64_t ri = 0; ri < int64_t(rows); ++ri) {
            const size_t r = size_t(ri);
            cell* row = building.data() + start_[r];
            std::sort(row, row + (start_[r + 1] - start_[r]), [](const cell& x, const cell& y) { return x.signal < y.signal; });
            uint32_t kept = 0, general = 0;
            each_entry(r, [&](uint32_t, const Fr& v) {
                ++kept;
                general += groth16::coeff_kind_of(v) == groth16::coeff_kind::general;
            });
            cell_start[r + 1] = kept;
            value_start[r + 1] = general;
        }
        for (size_t r = 0; r < rows; ++r) {
            cell_start[r + 1] += cell_start[r];
            value_start[r + 1] += value_start[r];
        }
        resize_for_bulk_read(cells_, cell_start[rows], 0, first_touch::team);
        resize_for_bulk_read(values_, value_start[rows], 0, first_touch::team);
#pragma omp parallel for schedule(dynamic, 1024) if (rows >= 8192)
        for (int64_t ri = 0; ri < int64_t(rows); ++ri) {
            const size_t r = size_t(ri);
            uint32_t at = cell_start[r], value_at = value_start[r];
            each_entry(r, [&](uint32_t signal, const Fr& v) {
                uint32_t code = code_two;
                switch (groth16::coeff_kind_of(v)) {
                    case groth16::coeff_kind::one: code = code_one; break;
                    case groth16::coeff_kind::minus_one: code = code_minus_one; break;
                    case groth16::coeff_kind::two: break;
                    case groth16::coeff_kind::general:
                        values_[value_at] = v;
                        code = code_values + value_at++;
                        break;
                }
                cells_[at++] = {signal, code};
            });
        }
        start_ = std::move(cell_start);
    }

    /// a | b | c on the domain (3 * domain_size values, natural order) for the full witness w
    /// (w[0] = 1): a[i] = sum over row i's A entries of coefficient * w[signal], b likewise,
    /// c = a * b. Rows are evaluated in parallel (OpenMP). Throws invalid_argument if w is too
    /// short for a coefficient's signal.
    std::vector<Fr> evaluate(std::span<const Fr> w) const {
        if (w.size() < signals_needed_)
            throw invalid_argument("evaluate_abc: coefficient signal " + std::to_string(signals_needed_ - 1) +
                                   " is beyond the witness (" + std::to_string(w.size()) + " values)");
        const size_t n = n_;
        std::vector<Fr> abc;
        resize_for_bulk_read(abc, 3 * n);
        const Fr* z = w.data();
#pragma omp parallel for schedule(dynamic, 1024) if (n >= 4096)
        for (int64_t i = 0; i < int64_t(n); ++i) {
            if (size_t(i) + prefetch_rows < n) {
                prefetch_row(size_t(i) + prefetch_rows, z);
                prefetch_row(n + size_t(i) + prefetch_rows, z);
            }
            const Fr a = row_sum(size_t(i), z), b = row_sum(n + size_t(i), z);
            abc[size_t(i)] = a;
            abc[n + size_t(i)] = b;
            abc[2 * n + size_t(i)] = a * b;
        }
        return abc;
    }

    /// Rows of the domain (of A and of B each).
    uint32_t domain_size() const { return n_; }
    /// Entries left after adding up repeated (row, signal) entries and dropping zeros.
    size_t entries() const { return cells_.size(); }
    /// Entries that keep their coefficient (neither 1, -1 nor 2).
    size_t general_entries() const { return values_.size(); }
    /// Host memory held, in bytes.
    size_t bytes() const {
        return cells_.capacity() * sizeof(cell) + values_.capacity() * sizeof(Fr) + start_.capacity() * sizeof(uint32_t);
    }

    /// Coefficient lists longer than this are refused (cell codes above code_values index values_).
    static constexpr size_t max_coefficients = size_t(UINT32_MAX) - 3;

private:
    // An entry as kept: its signal and its coefficient's code (1, -1, 2, or values_[code - 3]);
    // while building, the code is the entry's index in the coefficient list.
    struct cell {
        uint32_t signal;
        uint32_t code;
    };
    static constexpr uint32_t code_one = 0, code_minus_one = 1, code_two = 2, code_values = 3;

    size_t row_of(const zkey_coefficient<Fr>& e) const {
        return (e.matrix == zkey_matrix::a ? 0 : size_t(n_)) + e.constraint;
    }

    // The witness values that rows prefetch_rows ahead will read are requested from memory
    // while this row is summed: the reads of w at random signals are what the sums wait on
    // (2^18 BN254 synthetic key, one thread of the 2-core machine: 48 ms without, 28 ms with 8
    // or 16 rows ahead; docs/log/2026-12.md "C API").
    static constexpr size_t prefetch_rows = 16;
    void prefetch_row(size_t r, const Fr* w) const {
        for (size_t k = start_[r], end = start_[r + 1]; k < end; ++k) __builtin_prefetch(w + cells_[k].signal);
    }

    Fr row_sum(size_t r, const Fr* w) const {
        Fr acc = Fr::zero();
        for (size_t k = start_[r], end = start_[r + 1]; k < end; ++k) {
            const cell e = cells_[k];
            const Fr& x = w[e.signal];
            switch (e.code) {
                case code_one: acc += x; break;
                case code_minus_one: acc -= x; break;
                case code_two: acc += x + x; break;
                default: acc += values_[e.code - code_values] * x; break;
            }
        }
        return acc;
    }

    uint32_t n_ = 0;
    size_t signals_needed_ = 0;    // 1 + the largest signal any coefficient reads (0: none)
    std::vector<uint32_t> start_;  // row r's entries are cells_[start_[r] .. start_[r + 1])
    std::vector<cell> cells_;
    std::vector<Fr> values_;
};

/// a | b | c on the proving domain (3 * domain_size values, natural order) from the zkey's
/// coefficients and the full witness w (w[0] = 1): a[i] = sum of A entries of row i times w,
/// b likewise, c = a * b (snarkjs's convention: C is folded into the key, and c only feeds
/// the H scalars, where a * b - c vanishes on the domain exactly when the constraints hold).
/// Throws invalid_argument if w is too short for a coefficient's signal or a row is beyond the
/// domain. One call: builds abc_rows and evaluates it once (callers that prove many witnesses
/// with one key should keep an abc_rows instead).
template <class Curve>
std::vector<typename Curve::fr> evaluate_abc(std::span<const zkey_coefficient<typename Curve::fr>> coeffs,
                                             uint32_t domain_size, std::span<const typename Curve::fr> w) {
    return abc_rows<typename Curve::fr>(coeffs, domain_size, w.size()).evaluate(w);
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
