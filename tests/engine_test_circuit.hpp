// SPDX-License-Identifier: MIT OR Apache-2.0
// A circuit with a witness per seed and one r1cs for all of them: batches of distinct
// partitions for the engine tests (test_engine.cpp, test_engine_gpu.cu).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuzk/groth16/circuit.hpp"

namespace cuzk::test {

/// x_0 = v, x_{i+1} = x_i^2 + i, public y = x_len: len + 1 constraints.
template <class Fr>
groth16::circuit<Fr> chain(uint64_t v, size_t len = 40) {
    using namespace groth16;
    circuit_builder<Fr> cb;
    std::vector<Fr> x{Fr::from_u64(v)};
    for (size_t i = 0; i < len; ++i) x.push_back(x[i] * x[i] + Fr::from_u64(i));
    const variable y = cb.add_public(x.back());
    variable prev = cb.add_witness(x[0]);
    for (size_t i = 0; i < len; ++i) {
        const variable next = cb.add_witness(x[i + 1]);
        cb.enforce(prev, prev, linear_combination<Fr>(next) - Fr::from_u64(i) * circuit_builder<Fr>::one());
        prev = next;
    }
    cb.enforce(prev, circuit_builder<Fr>::one(), y);
    return std::move(cb).build();
}

}  // namespace cuzk::test
