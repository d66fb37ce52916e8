// SPDX-License-Identifier: MIT OR Apache-2.0
// Where the prover's randomisers r and s come from, and how they are wiped.
#pragma once

#include <sys/random.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "cuzk/core/error.hpp"

namespace cuzk::groth16 {

/// The operating system's CSPRNG (getrandom(2)), as a 64-bit UniformRandomBitGenerator.
/// The prover's default: proofs must be unlinkable and r, s unpredictable.
class os_random {
public:
    using result_type = uint64_t;
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return ~result_type(0); }
    result_type operator()() {
        result_type v;
        auto* p = reinterpret_cast<unsigned char*>(&v);
        size_t got = 0;
        while (got < sizeof v) {
            ssize_t k = getrandom(p + got, sizeof v - got, 0);
            if (k < 0) {
                if (errno == EINTR) continue;
                throw error(std::string("os_random: getrandom failed: ") + std::strerror(errno));
            }
            got += size_t(k);
        }
        return v;
    }
};

/// Overwrites an object's bytes with zeros in a way the optimiser may not drop.
template <class T>
void secure_wipe(T& x) {
    volatile unsigned char* p = reinterpret_cast<volatile unsigned char*>(&x);
    for (size_t i = 0; i < sizeof(T); ++i) p[i] = 0;
}

}  // namespace cuzk::groth16
