// SPDX-License-Identifier: MIT OR Apache-2.0
// A downstream program: proves cuzk::cuzk gives it the headers and the C++20 settings. Built with
// the consumer's own flags (none: unoptimised), so it also checks that every host arithmetic path
// compiles there (the ADX asm needs optimisation: unoptimised builds take the portable code).
#include <cstdio>

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"

template <class F>
bool field_ok(uint64_t v) {
    F x = F::from_u64(v);
    return (x * x.inverse()).is_one() && x.square() == x * x;
}

int main() {
    bool ok = field_ok<cuzk::bls12_381::fr>(3) && field_ok<cuzk::bls12_381::fp>(5) && field_ok<cuzk::bn254::fr>(7) &&
              field_ok<cuzk::bn254::fq>(11);
    std::printf("consumer: %s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
