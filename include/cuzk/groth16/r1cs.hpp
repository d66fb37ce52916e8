// SPDX-License-Identifier: MIT OR Apache-2.0
// Rank-1 constraint systems: sparse matrices A, B, C over the scalar field, the assignment
// layout, and evaluation of a, b, c on the proving domain.
//
// Variable layout (the one snarkjs and bellman use): z[0] = 1, z[1..num_public] are the
// public inputs, the rest is the auxiliary witness. The proving domain holds the constraints,
// then one row per public variable (constant one included) with A = z_k, B = C = 0, which makes
// the public inputs' QAP polynomials linearly independent.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cuzk/core/error.hpp"

namespace cuzk::groth16 {

/// A coefficient times a variable.
template <class F>
struct term {
    uint32_t variable;
    F coeff;
};

/// What a row sum does with a coefficient: circuits are mostly +1, -1 and 2 (bit checks, XOR and
/// packing gadgets; PoRep's rows all but entirely; circom's +-1), which are added instead of
/// multiplied (docs/log/2026-12.md, "Host a, b, c: small coefficients added").
enum class coeff_kind : uint8_t { general, one, minus_one, two };

template <class F>
coeff_kind coeff_kind_of(const F& c) {
    const F one = F::one();
    return c == one ? coeff_kind::one : c == -one ? coeff_kind::minus_one : c == one + one ? coeff_kind::two
                                                                                          : coeff_kind::general;
}

/// acc += c * x, where kind = coeff_kind_of(c).
template <class F>
void add_term(F& acc, coeff_kind kind, const F& c, const F& x) {
    switch (kind) {
        case coeff_kind::one: acc += x; break;
        case coeff_kind::minus_one: acc -= x; break;
        case coeff_kind::two: acc += x + x; break;
        case coeff_kind::general: acc += c * x; break;
    }
}

/// A sparse matrix in compressed-row form: row i is entries [row_start[i], row_start[i+1]), each
/// with its coefficient's kind.
template <class F>
class sparse_matrix {
public:
    sparse_matrix() : row_start_{0} {}

    size_t rows() const { return row_start_.size() - 1; }
    size_t entries() const { return column_.size(); }

    void append_row(std::span<const term<F>> row) {
        for (const auto& t : row) {
            column_.push_back(t.variable);
            value_.push_back(t.coeff);
            kind_.push_back(coeff_kind_of(t.coeff));
        }
        row_start_.push_back(column_.size());
    }
    void reserve(size_t rows, size_t entries) {
        row_start_.reserve(rows + 1);
        column_.reserve(entries);
        value_.reserve(entries);
        kind_.reserve(entries);
    }

    /// Entries of row i as parallel spans.
    std::span<const uint32_t> columns(size_t i) const {
        return {column_.data() + row_start_[i], size_t(row_start_[i + 1] - row_start_[i])};
    }
    std::span<const F> values(size_t i) const {
        return {value_.data() + row_start_[i], size_t(row_start_[i + 1] - row_start_[i])};
    }

    /// The whole compressed-row arrays (rows() + 1 offsets, entries() columns and values), for
    /// copying the matrix elsewhere (device_circuit.cuh uploads them).
    std::span<const uint64_t> row_starts() const { return row_start_; }
    std::span<const uint32_t> all_columns() const { return column_; }
    std::span<const F> all_values() const { return value_; }

    /// Row i times the assignment z.
    F dot_row(size_t i, std::span<const F> z) const {
        F acc = F::zero();
        for (uint64_t k = row_start_[i]; k < row_start_[i + 1]; ++k) add_term(acc, kind_[k], value_[k], z[column_[k]]);
        return acc;
    }

    /// Asks the cache for the values of z that row i reads (a hint: no effect on the result).
    void prefetch_row(size_t i, std::span<const F> z) const {
        for (uint64_t k = row_start_[i]; k < row_start_[i + 1]; ++k) __builtin_prefetch(&z[column_[k]]);
    }

    /// The largest variable index used plus one (0 for an empty matrix).
    size_t columns_used() const {
        uint32_t m = 0;
        for (uint32_t c : column_) m = c + 1 > m ? c + 1 : m;
        return m;
    }

private:
    std::vector<uint64_t> row_start_;
    std::vector<uint32_t> column_;
    std::vector<F> value_;
    std::vector<coeff_kind> kind_;  // one per entry, from its value
};

/// A constraint system <A_j, z> * <B_j, z> = <C_j, z> for every constraint j.
template <class F>
struct r1cs {
    /// Rows ahead whose z values evaluate() prefetches (measured: docs/log/2026-12.md, "Host a, b, c").
    static constexpr size_t row_lookahead = 8;
    size_t num_public = 0;     ///< public inputs, not counting the constant one
    size_t num_variables = 1;  ///< all variables, including the constant one
    sparse_matrix<F> a, b, c;

    size_t num_constraints() const { return a.rows(); }
    size_t num_aux() const { return num_variables - 1 - num_public; }

    /// Rows of the proving domain that carry content: constraints, then the public-input rows.
    size_t domain_rows() const { return num_constraints() + num_public + 1; }

    /// The proving domain's size: the smallest power of two holding domain_rows().
    size_t domain_size() const {
        size_t n = 1;
        while (n < domain_rows()) n *= 2;
        return n;
    }

    /// Throws invalid_argument unless the matrices are consistent with the variable counts.
    void validate() const {
        if (b.rows() != a.rows() || c.rows() != a.rows())
            throw invalid_argument("r1cs: A, B and C have different numbers of rows");
        if (num_public + 1 > num_variables) throw invalid_argument("r1cs: more public inputs than variables");
        for (const auto* m : {&a, &b, &c})
            if (m->columns_used() > num_variables)
                throw invalid_argument("r1cs: a constraint refers to a variable beyond num_variables");
    }

    /// Throws invalid_argument if z does not fit this system (length, z[0] != 1).
    void check_assignment_shape(std::span<const F> z) const {
        if (z.size() != num_variables)
            throw invalid_argument("r1cs: assignment has " + std::to_string(z.size()) + " values, the system has " +
                                   std::to_string(num_variables) + " variables");
        if (!z.empty() && !z[0].is_one()) throw invalid_argument("r1cs: assignment must start with the constant 1");
    }

    /// The first constraint that z violates, or nothing when z satisfies the system.
    std::optional<size_t> first_unsatisfied(std::span<const F> z) const {
        check_assignment_shape(z);
        for (size_t j = 0; j < num_constraints(); ++j)
            if (a.dot_row(j, z) * b.dot_row(j, z) != c.dot_row(j, z)) return j;
        return std::nullopt;
    }

    /// a, b, c on the proving domain (each domain_size() long; rows past the content are zero).
    /// Also checks, at no extra cost, that every constraint holds: returns the first violated
    /// constraint instead of silently producing a proof that will not verify.
    std::optional<size_t> evaluate(std::span<const F> z, std::span<F> a_out, std::span<F> b_out,
                                   std::span<F> c_out) const {
        check_assignment_shape(z);
        const size_t n = domain_size(), m = num_constraints();
        if (a_out.size() != n || b_out.size() != n || c_out.size() != n)
            throw invalid_argument("r1cs::evaluate: outputs must be domain_size() long");
        size_t first_bad = SIZE_MAX;
#pragma omp parallel for schedule(static) reduction(min : first_bad)
        for (size_t j = 0; j < m; ++j) {
            if (j + row_lookahead < m) {  // z is read at scattered columns: ask for a later row's values now
                a.prefetch_row(j + row_lookahead, z);
                b.prefetch_row(j + row_lookahead, z);
                c.prefetch_row(j + row_lookahead, z);
            }
            a_out[j] = a.dot_row(j, z);
            b_out[j] = b.dot_row(j, z);
            c_out[j] = c.dot_row(j, z);
            if (a_out[j] * b_out[j] != c_out[j] && j < first_bad) first_bad = j;
        }
        for (size_t k = 0; k <= num_public; ++k) {
            a_out[m + k] = z[k];
            b_out[m + k] = F::zero();
            c_out[m + k] = F::zero();
        }
        for (size_t j = m + num_public + 1; j < n; ++j) a_out[j] = b_out[j] = c_out[j] = F::zero();
        if (first_bad != SIZE_MAX) return first_bad;
        return std::nullopt;
    }
};

}  // namespace cuzk::groth16
