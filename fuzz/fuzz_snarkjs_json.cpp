// SPDX-License-Identifier: MIT OR Apache-2.0
// libFuzzer target: the strict JSON parser and the snarkjs proof / public / verification-key
// readers on arbitrary text, for both curves. Any input must either parse or throw
// cuzk::decode_error; whatever parses must write and re-parse to the same value.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "cuzk/io/snarkjs_json.hpp"

namespace {

template <class Curve>
void run(std::string_view text) {
    using namespace cuzk::io;
    try {
        auto p = proof_from_json<Curve>(text);
        auto q = proof_from_json<Curve>(proof_to_json(p));
        if (q.a != p.a || q.b != p.b || q.c != p.c) std::abort();
    } catch (const cuzk::decode_error&) {
    }
    try {
        auto s = public_from_json<Curve>(text);
        if (public_from_json<Curve>(public_to_json<Curve>(s)) != s) std::abort();
    } catch (const cuzk::decode_error&) {
    }
    try {
        auto vk = vk_from_json<Curve>(text);
        if (vk_to_json(vk_from_json<Curve>(vk_to_json(vk))) != vk_to_json(vk)) std::abort();
    } catch (const cuzk::decode_error&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        auto v = cuzk::io::json::parse(text);
        const std::string once = cuzk::io::json::write(v);
        if (cuzk::io::json::write(cuzk::io::json::parse(once)) != once) std::abort();
    } catch (const cuzk::decode_error&) {
    }
    run<cuzk::io::bn128>(text);
    run<cuzk::io::bls12381>(text);
    return 0;
}
