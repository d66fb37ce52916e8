// SPDX-License-Identifier: MIT OR Apache-2.0
// A small circuit-building API: allocate public inputs and witness values, enforce
// a * b = c over linear combinations, and get an r1cs plus its satisfying assignment.
//
//   circuit_builder<fr> cb;
//   auto x = cb.add_witness(fr::from_u64(3));
//   auto y = cb.add_public(fr::from_u64(9));
//   cb.enforce(x, x, y);                        // x * x = y
//   circuit<fr> c = std::move(cb).build();      // c.system, c.assignment
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "cuzk/groth16/r1cs.hpp"

namespace cuzk::groth16 {

/// A constraint system together with a satisfying assignment (z[0] = 1, publics, aux).
template <class F>
struct circuit {
    r1cs<F> system;
    std::vector<F> assignment;

    std::span<const F> public_inputs() const { return {assignment.data() + 1, system.num_public}; }
};

/// A variable handle of a circuit_builder (publics and witnesses are numbered apart until build).
struct variable {
    static constexpr uint32_t witness_bit = 0x80000000u;
    uint32_t tag;  ///< 0 = the constant one, k = public k-1, witness_bit | k = witness k
};

/// A linear combination sum(coeff_i * var_i).
template <class F>
struct linear_combination {
    std::vector<std::pair<variable, F>> terms;

    linear_combination() = default;
    linear_combination(variable v) : terms{{v, F::one()}} {}  // NOLINT: implicit on purpose

    friend linear_combination operator+(linear_combination a, const linear_combination& b) {
        a.terms.insert(a.terms.end(), b.terms.begin(), b.terms.end());
        return a;
    }
    friend linear_combination operator*(const F& k, linear_combination a) {
        for (auto& t : a.terms) t.second *= k;
        return a;
    }
    friend linear_combination operator-(linear_combination a, const linear_combination& b) {
        return a + (-F::one()) * b;
    }
};

/// k * v as a linear combination.
template <class F>
linear_combination<F> operator*(const F& k, variable v) {
    return k * linear_combination<F>(v);
}

template <class F>
class circuit_builder {
public:
    using lc = linear_combination<F>;

    static constexpr variable one() { return variable{0}; }

    variable add_public(const F& value) {
        public_values_.push_back(value);
        return variable{uint32_t(public_values_.size())};
    }
    variable add_witness(const F& value) {
        witness_values_.push_back(value);
        return variable{variable::witness_bit | uint32_t(witness_values_.size() - 1)};
    }
    F value(variable v) const {
        if (v.tag == 0) return F::one();
        if (v.tag & variable::witness_bit) return witness_values_[v.tag & ~variable::witness_bit];
        return public_values_[v.tag - 1];
    }
    F value(const lc& x) const {
        F acc = F::zero();
        for (const auto& [v, k] : x.terms) acc += k * value(v);
        return acc;
    }

    /// Adds the constraint a * b = c.
    void enforce(const lc& a, const lc& b, const lc& c) { constraints_.push_back({a, b, c}); }

    size_t num_constraints() const { return constraints_.size(); }

    /// The r1cs (variables renumbered: one, publics, witnesses) and the assignment.
    circuit<F> build() && {
        circuit<F> out;
        auto& sys = out.system;
        sys.num_public = public_values_.size();
        sys.num_variables = 1 + public_values_.size() + witness_values_.size();
        out.assignment.reserve(sys.num_variables);
        out.assignment.push_back(F::one());
        out.assignment.insert(out.assignment.end(), public_values_.begin(), public_values_.end());
        out.assignment.insert(out.assignment.end(), witness_values_.begin(), witness_values_.end());
        const uint32_t first_witness = uint32_t(1 + public_values_.size());
        auto index = [&](variable v) {
            return (v.tag & variable::witness_bit) ? first_witness + (v.tag & ~variable::witness_bit) : v.tag;
        };
        std::vector<term<F>> row;
        auto append = [&](sparse_matrix<F>& m, const lc& x) {
            row.clear();
            for (const auto& [v, k] : x.terms) row.push_back({index(v), k});
            m.append_row(row);
        };
        for (const auto& c : constraints_) {
            append(sys.a, c.a);
            append(sys.b, c.b);
            append(sys.c, c.c);
        }
        constraints_.clear();
        return out;
    }

private:
    struct constraint {
        lc a, b, c;
    };
    std::vector<F> public_values_, witness_values_;
    std::vector<constraint> constraints_;
};

}  // namespace cuzk::groth16
