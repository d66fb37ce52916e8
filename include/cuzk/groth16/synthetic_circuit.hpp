// Synthetic circuits of any size 2^k that look like real ones, for tests and benchmarks.
//
// Each constraint multiplies earlier variables into a new one. A configurable share of the
// witness is bits (Filecoin's PoRep circuits are mostly bits: bit * bit = bit keeps them so);
// the rest is full width ((u + t) * v with u full width). bit_share = 0 gives the
// "random witness" worst case, where every MSM scalar is full width.
#pragma once

#include <cstdint>
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
};

/// Builds a satisfiable circuit whose proving domain is exactly 2^log_domain.
template <class F>
circuit<F> synthetic_circuit(const synthetic_options& opt) {
    if (opt.log_domain < 3 || opt.log_domain > 30) throw invalid_argument("synthetic_circuit: log_domain must be in [3, 30]");
    if (opt.bit_share < 0 || opt.bit_share > 1) throw invalid_argument("synthetic_circuit: bit_share must be in [0, 1]");
    const size_t n = size_t(1) << opt.log_domain;
    if (opt.num_public + 1 + 4 > n) throw invalid_argument("synthetic_circuit: too many public inputs for the domain");
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
