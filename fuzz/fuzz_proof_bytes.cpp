// SPDX-License-Identifier: MIT OR Apache-2.0
// libFuzzer target: bellperson's 192-byte proofs and the zcash point encodings under them
// (BLS12-381 G1 and G2, compressed and uncompressed, with and without the subgroup check) on
// arbitrary bytes. Any input must decode or throw cuzk::decode_error, and whatever decodes must
// encode back to the same bytes: the encodings are canonical, so accepting two spellings of
// one point would be a bug.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>

#include "cuzk/io/bellperson_proof.hpp"

namespace {

namespace zc = cuzk::zcash;

template <class G, bool Compressed>
void point(std::span<const uint8_t> in, bool check_subgroup) {
    constexpr size_t n = Compressed ? zc::compressed_size<G> : zc::uncompressed_size<G>;
    if (in.size() < n) return;
    in = in.first(n);
    try {
        auto same = [&](const auto& out) {
            if (!std::equal(out.begin(), out.end(), in.begin())) std::abort();
        };
        if constexpr (Compressed)
            same(zc::serialize_compressed(check_subgroup ? zc::deserialize_compressed<G>(in)
                                                         : zc::deserialize_compressed_unchecked<G>(in)));
        else
            same(zc::serialize_uncompressed(check_subgroup ? zc::deserialize_uncompressed<G>(in)
                                                           : zc::deserialize_uncompressed_unchecked<G>(in)));
    } catch (const cuzk::decode_error&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace cuzk;
    const std::span<const uint8_t> in(data, size);
    try {
        const auto pi = io::from_bellperson_bytes(in);
        const auto out = io::to_bellperson_bytes(pi);
        if (size != out.size() || std::memcmp(out.data(), data, size) != 0) std::abort();
    } catch (const decode_error&) {
    }
    // Each encoding from the start of the input, subgroup check decided by the last byte.
    const bool check = size == 0 || (data[size - 1] & 1) == 0;
    point<bls12_381::g1, true>(in, check);
    point<bls12_381::g1, false>(in, check);
    point<bls12_381::g2, true>(in, check);
    point<bls12_381::g2, false>(in, check);
    return 0;
}
