// SPDX-License-Identifier: MIT OR Apache-2.0
// libFuzzer target: the .wtns reader on arbitrary bytes, for both curves. Any input must either
// parse or throw cuzk::decode_error.
#include <cstddef>
#include <cstdint>
#include <span>

#include "cuzk/io/wtns.hpp"

namespace {

template <class Curve>
void run(const uint8_t* data, size_t size) {
    try {
        auto src = std::make_shared<cuzk::io::memory_source>(std::span(data, size), "fuzz.wtns");
        (void)cuzk::io::wtns<Curve>::read(src);
    } catch (const cuzk::decode_error&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    run<cuzk::io::bn128>(data, size);
    run<cuzk::io::bls12381>(data, size);
    return 0;
}
