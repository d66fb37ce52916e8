// SPDX-License-Identifier: MIT OR Apache-2.0
// The zcash / IETF serialisation of BLS12-381 G1 and G2 points (used by blst, zkcrypto,
// Filecoin and Ethereum consensus), host only.
//
//   G1: compressed 48 bytes (x), uncompressed 96 bytes (x || y); G2: 96 / 192 bytes.
//   Fp: 48 bytes big-endian. Fp2 c0 + c1 u: c1 || c0 (imaginary part first).
//   The top three bits of byte 0 are flags:
//     0x80 C  compressed encoding;
//     0x40 I  point at infinity: every other bit of the encoding must then be zero;
//     0x20 S  compressed, non-infinity only: y is the lexicographically largest root
//             (Fp: y > (p - 1) / 2; Fp2: compare c1, and c0 only when c1 = 0).
//
// deserialize_* reject (cuzk::decode_error, message naming the group and the reason) a wrong
// length, a wrong C flag, a set S flag on infinity or on an uncompressed point, stray bits in an
// infinity encoding, coordinates >= p, points off the curve, and points outside the prime-order
// subgroup. The *_unchecked variants skip only the subgroup check (for trusted inputs, e.g.
// parameters whose hash was verified).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "cuzk/core/error.hpp"
#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/subgroup.hpp"

namespace cuzk::zcash {

/// Flag bits of byte 0.
inline constexpr uint8_t flag_compressed = 0x80;
inline constexpr uint8_t flag_infinity = 0x40;
inline constexpr uint8_t flag_sign = 0x20;

namespace detail {

using bls12_381::fp;
using bls12_381::fp2;

template <class F>
inline constexpr size_t field_bytes = 0;
template <>
inline constexpr size_t field_bytes<fp> = 48;
template <>
inline constexpr size_t field_bytes<fp2> = 96;

inline void write_fp(uint8_t* out, const fp& a) { a.to_bytes_be(std::span<uint8_t, 48>(out, 48)); }
inline void write(uint8_t* out, const fp& a) { write_fp(out, a); }
inline void write(uint8_t* out, const fp2& a) {
    write_fp(out, a.c1);  // imaginary part first
    write_fp(out + 48, a.c0);
}

/// Reads 48 big-endian bytes; `what` names the coordinate in the error.
inline fp read_fp(const uint8_t* in, const std::string& what) {
    fp::integer x{};
    for (size_t i = 0; i < 48; ++i) x.limb[i / 8] |= uint64_t(in[47 - i]) << (8 * (i % 8));
    if (x >= fp::modulus) throw decode_error(what + " is not below the field modulus p");
    return fp::from_canonical_unchecked(x);
}
inline void read(fp& out, const uint8_t* in, const std::string& what) { out = read_fp(in, what); }
inline void read(fp2& out, const uint8_t* in, const std::string& what) {
    out.c1 = read_fp(in, what + " (c1)");
    out.c0 = read_fp(in + 48, what + " (c0)");
}

/// The zcash sign rule: y is the larger of y and -y.
inline bool lexicographically_largest(const fp& y) {
    constexpr fp::integer half = fp::modulus.shr(1);  // (p - 1) / 2
    return y.to_canonical() > half;
}
inline bool lexicographically_largest(const fp2& y) { return y.lexicographically_largest(); }

template <class G>
std::string where(const char* form) {
    return std::string("zcash ") + G::name + " " + form + ": ";
}

}  // namespace detail

/// Bytes of a compressed encoding (48 for G1, 96 for G2).
template <class G>
inline constexpr size_t compressed_size = detail::field_bytes<typename G::field>;
/// Bytes of an uncompressed encoding (96 for G1, 192 for G2).
template <class G>
inline constexpr size_t uncompressed_size = 2 * detail::field_bytes<typename G::field>;

/// x with the C flag, the S flag when y is the larger root; infinity = C|I then zeros.
template <class G>
std::array<uint8_t, compressed_size<G>> serialize_compressed(const affine<G>& p) {
    std::array<uint8_t, compressed_size<G>> out{};
    if (p.is_identity()) {
        out[0] = flag_compressed | flag_infinity;
        return out;
    }
    detail::write(out.data(), p.x);
    out[0] |= flag_compressed;
    if (detail::lexicographically_largest(p.y)) out[0] |= flag_sign;
    return out;
}

/// x || y without flags; infinity = I then zeros.
template <class G>
std::array<uint8_t, uncompressed_size<G>> serialize_uncompressed(const affine<G>& p) {
    std::array<uint8_t, uncompressed_size<G>> out{};
    if (p.is_identity()) {
        out[0] = flag_infinity;
        return out;
    }
    detail::write(out.data(), p.x);
    detail::write(out.data() + compressed_size<G>, p.y);
    return out;
}

namespace detail {

/// True for a valid infinity encoding (I set, S clear, every other bit zero); false when I is
/// clear; throws when I is set on an otherwise malformed encoding.
template <class G>
bool read_infinity(std::span<const uint8_t> in, const std::string& at) {
    const uint8_t flags = in[0] & 0xe0;
    if (!(flags & flag_infinity)) return false;
    if (flags & flag_sign) throw decode_error(at + "the sign flag is set on the point at infinity");
    if ((in[0] & 0x1f) != 0) throw decode_error(at + "infinity flag set but the encoding has non-zero bits");
    for (size_t i = 1; i < in.size(); ++i)
        if (in[i] != 0) throw decode_error(at + "infinity flag set but the encoding has non-zero bits");
    return true;
}

template <class G>
affine<G> decode_compressed(std::span<const uint8_t> in, bool check_subgroup) {
    using F = typename G::field;
    const std::string at = where<G>("compressed");
    if (in.size() != compressed_size<G>)
        throw decode_error(at + "expected " + std::to_string(compressed_size<G>) + " bytes, got " +
                           std::to_string(in.size()));
    if (!(in[0] & flag_compressed)) throw decode_error(at + "the compression flag is not set");
    if (read_infinity<G>(in, at)) return affine<G>::identity();
    std::array<uint8_t, compressed_size<G>> buf{};
    for (size_t i = 0; i < buf.size(); ++i) buf[i] = in[i];
    buf[0] &= 0x1f;
    F x{};
    read(x, buf.data(), at + "x");
    constexpr F b = G::b;
    auto y = (x.square() * x + b).sqrt();
    if (!y) throw decode_error(at + "x is not the x-coordinate of a point on the curve");
    const bool want_largest = (in[0] & flag_sign) != 0;
    affine<G> p{x, lexicographically_largest(*y) == want_largest ? *y : -*y};
    if (check_subgroup && !is_in_subgroup(p)) throw decode_error(at + "the point is not in the prime-order subgroup");
    return p;
}

template <class G>
affine<G> decode_uncompressed(std::span<const uint8_t> in, bool check_subgroup) {
    const std::string at = where<G>("uncompressed");
    if (in.size() != uncompressed_size<G>)
        throw decode_error(at + "expected " + std::to_string(uncompressed_size<G>) + " bytes, got " +
                           std::to_string(in.size()));
    if (in[0] & flag_compressed) throw decode_error(at + "the compression flag is set");
    if (read_infinity<G>(in, at)) return affine<G>::identity();
    if (in[0] & flag_sign) throw decode_error(at + "the sign flag is set on an uncompressed point");
    std::array<uint8_t, uncompressed_size<G>> buf{};
    for (size_t i = 0; i < buf.size(); ++i) buf[i] = in[i];
    buf[0] &= 0x1f;
    affine<G> p{};
    read(p.x, buf.data(), at + "x");
    read(p.y, buf.data() + compressed_size<G>, at + "y");
    if (!p.is_on_curve() || p.is_identity()) throw decode_error(at + "the point is not on the curve");
    if (check_subgroup && !is_in_subgroup(p)) throw decode_error(at + "the point is not in the prime-order subgroup");
    return p;
}

}  // namespace detail

/// Decodes a compressed point and checks that it is in the prime-order subgroup.
template <class G>
affine<G> deserialize_compressed(std::span<const uint8_t> in) {
    return detail::decode_compressed<G>(in, true);
}
/// As deserialize_compressed, without the subgroup check (every other check stays).
template <class G>
affine<G> deserialize_compressed_unchecked(std::span<const uint8_t> in) {
    return detail::decode_compressed<G>(in, false);
}
/// Decodes an uncompressed point and checks that it is in the prime-order subgroup.
template <class G>
affine<G> deserialize_uncompressed(std::span<const uint8_t> in) {
    return detail::decode_uncompressed<G>(in, true);
}
/// As deserialize_uncompressed, without the subgroup check (every other check stays).
template <class G>
affine<G> deserialize_uncompressed_unchecked(std::span<const uint8_t> in) {
    return detail::decode_uncompressed<G>(in, false);
}

}  // namespace cuzk::zcash
