// SPDX-License-Identifier: MIT OR Apache-2.0
// bellperson_proof: a Groth16 proof in bellperson's byte format (BLS12-381), 192 bytes:
//   A zcash-compressed G1 (48) || B zcash-compressed G2 (96) || C zcash-compressed G1 (48)
// as bellperson's `Proof::write` writes it (filecoin-project/bellperson src/groth16/mod.rs:
// `a.to_compressed()`, `b.…`, `c.…` in that order; `Proof::read` decodes them with subgroup checks
// and rejects the point at infinity). A Filecoin proof of several partitions is these 192-byte
// blocks concatenated.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

#include "cuzk/core/error.hpp"
#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/io/zcash_encoding.hpp"
#include "cuzk/groth16/curve.hpp"
#include "cuzk/groth16/keys.hpp"

namespace cuzk::io {

/// Bytes of one proof in bellperson's format.
inline constexpr size_t bellperson_proof_size =
    2 * zcash::compressed_size<bls12_381::g1> + zcash::compressed_size<bls12_381::g2>;
static_assert(bellperson_proof_size == 192);

using bellperson_proof_bytes = std::array<uint8_t, bellperson_proof_size>;

/// pi as bellperson's Proof::write encodes it.
inline bellperson_proof_bytes to_bellperson_bytes(const groth16::proof<bls12_381::curve>& pi) {
    bellperson_proof_bytes out{};
    const auto a = zcash::serialize_compressed(pi.a);
    const auto b = zcash::serialize_compressed(pi.b);
    const auto c = zcash::serialize_compressed(pi.c);
    std::memcpy(out.data(), a.data(), a.size());
    std::memcpy(out.data() + a.size(), b.data(), b.size());
    std::memcpy(out.data() + a.size() + b.size(), c.data(), c.size());
    return out;
}

/// Decodes 192 bytes as bellperson's Proof::read does: each point on the curve and in its
/// prime-order subgroup, none the point at infinity. Throws decode_error naming the point.
inline groth16::proof<bls12_381::curve> from_bellperson_bytes(std::span<const uint8_t> in) {
    using G1 = bls12_381::g1;
    using G2 = bls12_381::g2;
    if (in.size() != bellperson_proof_size)
        throw decode_error("bellperson proof: expected " + std::to_string(bellperson_proof_size) + " bytes, got " +
                           std::to_string(in.size()));
    constexpr size_t g1 = zcash::compressed_size<G1>, g2 = zcash::compressed_size<G2>;
    auto point = [](const char* what, auto decoded) {
        if (decoded.is_identity()) throw decode_error(std::string("bellperson proof: ") + what + " is the point at infinity");
        return decoded;
    };
    groth16::proof<bls12_381::curve> pi;
    pi.a = point("A", zcash::deserialize_compressed<G1>(in.subspan(0, g1)));
    pi.b = point("B", zcash::deserialize_compressed<G2>(in.subspan(g1, g2)));
    pi.c = point("C", zcash::deserialize_compressed<G1>(in.subspan(g1 + g2, g1)));
    return pi;
}

}  // namespace cuzk::io
