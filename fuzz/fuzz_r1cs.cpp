// SPDX-License-Identifier: MIT OR Apache-2.0
// libFuzzer target: the .r1cs reader on arbitrary bytes, for both curves. Any input must either
// parse or throw cuzk::decode_error; a crash, a leak, an ASan report or another exception type
// is a bug. A parsed file is also evaluated (first_unsatisfied on a witness of ones).
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/io/r1cs.hpp"

namespace {

template <class Curve>
void run(const uint8_t* data, size_t size) {
    try {
        auto src = std::make_shared<cuzk::io::memory_source>(std::span(data, size), "fuzz.r1cs");
        auto r = cuzk::io::r1cs<Curve>::read(src);
        if (r.n_wires <= (1u << 16)) {
            std::vector<typename Curve::fr> w(r.n_wires, Curve::fr::one());
            (void)r.first_unsatisfied(w);
        }
    } catch (const cuzk::decode_error&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    run<cuzk::io::bn128>(data, size);
    run<cuzk::io::bls12381>(data, size);
    return 0;
}
