// SPDX-License-Identifier: MIT OR Apache-2.0
// libFuzzer target: the Groth16 .zkey reader on arbitrary bytes, for both curves (with and
// without the on-curve checks). Any input must either parse or throw cuzk::decode_error.
#include <cstddef>
#include <cstdint>
#include <span>

#include "cuzk/io/zkey.hpp"

namespace {

template <class Curve>
void run(const uint8_t* data, size_t size, bool check_points) {
    try {
        auto src = std::make_shared<cuzk::io::memory_source>(std::span(data, size), "fuzz.zkey");
        (void)cuzk::io::zkey<Curve>::read(src, cuzk::io::zkey_read_options{.check_points = check_points});
    } catch (const cuzk::decode_error&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const bool check = size == 0 || (data[size - 1] & 1) == 0;
    run<cuzk::io::bn128>(data, size, check);
    run<cuzk::io::bls12381>(data, size, check);
    return 0;
}
