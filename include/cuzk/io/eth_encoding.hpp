// SPDX-License-Identifier: MIT OR Apache-2.0
// Ethereum precompile point encodings, host only: uncompressed, big-endian, no flags, the
// identity as all-zero bytes.
//
//   BN254 (EIP-196/197): Fp = 32 bytes; G1 = x || y (64 bytes); G2 = x || y with each Fp2
//     element a + b i written (b, a), imaginary part first (128 bytes).
//   BLS12-381 (EIP-2537): Fp = 64 bytes, the top 16 of them zero; G1 = 128 bytes; G2 = 256
//     bytes with each Fp2 element c0 + c1 u written (c0, c1), real part first.
//
// deserialize() rejects (cuzk::decode_error) a wrong length, non-zero padding, coordinates
// >= p, points off the curve and points outside the prime-order subgroup;
// deserialize_unchecked() skips only the subgroup check (EIP-2537's ADD precompiles do).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "cuzk/core/error.hpp"
#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"
#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/subgroup.hpp"

namespace cuzk::eth {

/// How a group's points are laid out in its Ethereum precompiles.
template <class G>
struct layout;
template <>
struct layout<bn254::g1> {
    static constexpr size_t fp_bytes = 32;  ///< bytes per base-field element
    static constexpr size_t coordinates = 1;  ///< base-field elements per coordinate
    static constexpr bool imaginary_first = true;
    static constexpr const char* standard = "EIP-196";
};
template <>
struct layout<bn254::g2> {
    static constexpr size_t fp_bytes = 32;
    static constexpr size_t coordinates = 2;
    static constexpr bool imaginary_first = true;  // EIP-197: (a, b) for a i + b
    static constexpr const char* standard = "EIP-197";
};
template <>
struct layout<bls12_381::g1> {
    static constexpr size_t fp_bytes = 64;  // 16 zero bytes, then 48
    static constexpr size_t coordinates = 1;
    static constexpr bool imaginary_first = false;
    static constexpr const char* standard = "EIP-2537";
};
template <>
struct layout<bls12_381::g2> {
    static constexpr size_t fp_bytes = 64;
    static constexpr size_t coordinates = 2;
    static constexpr bool imaginary_first = false;  // EIP-2537: c0 || c1
    static constexpr const char* standard = "EIP-2537";
};

/// Bytes of one encoded point.
template <class G>
inline constexpr size_t point_size = 2 * layout<G>::coordinates * layout<G>::fp_bytes;

namespace detail {

template <class F, size_t Width>
void write_fp(uint8_t* out, const F& a) {
    constexpr size_t n = F::byte_size;
    static_assert(Width >= n);
    for (size_t i = 0; i < Width - n; ++i) out[i] = 0;
    a.to_bytes_be(std::span<uint8_t, n>(out + (Width - n), n));
}

template <class F, size_t Width>
F read_fp(const uint8_t* in, const std::string& what) {
    constexpr size_t n = F::byte_size;
    for (size_t i = 0; i < Width - n; ++i)
        if (in[i] != 0) throw decode_error(what + ": the top " + std::to_string(Width - n) + " bytes must be zero");
    typename F::integer x{};
    for (size_t i = 0; i < n; ++i) x.limb[i / 8] |= uint64_t(in[Width - 1 - i]) << (8 * (i % 8));
    if (x >= F::modulus) throw decode_error(what + " is not below the field modulus p");
    return F::from_canonical_unchecked(x);
}

template <class G>
void write_coordinate(uint8_t* out, const typename G::field& a) {
    using L = layout<G>;
    if constexpr (L::coordinates == 1) {
        write_fp<typename G::field, L::fp_bytes>(out, a);
    } else {
        using B = typename G::field::base;
        write_fp<B, L::fp_bytes>(out, L::imaginary_first ? a.c1 : a.c0);
        write_fp<B, L::fp_bytes>(out + L::fp_bytes, L::imaginary_first ? a.c0 : a.c1);
    }
}

template <class G>
typename G::field read_coordinate(const uint8_t* in, const std::string& what) {
    using L = layout<G>;
    if constexpr (L::coordinates == 1) {
        return read_fp<typename G::field, L::fp_bytes>(in, what);
    } else {
        using B = typename G::field::base;
        B first = read_fp<B, L::fp_bytes>(in, what + (L::imaginary_first ? " (c1)" : " (c0)"));
        B second = read_fp<B, L::fp_bytes>(in + L::fp_bytes, what + (L::imaginary_first ? " (c0)" : " (c1)"));
        return L::imaginary_first ? typename G::field{second, first} : typename G::field{first, second};
    }
}

template <class G>
affine<G> decode(std::span<const uint8_t> in, bool check_subgroup) {
    const std::string at = std::string(layout<G>::standard) + " " + G::name + ": ";
    if (in.size() != point_size<G>)
        throw decode_error(at + "expected " + std::to_string(point_size<G>) + " bytes, got " +
                           std::to_string(in.size()));
    constexpr size_t half = point_size<G> / 2;
    affine<G> p{read_coordinate<G>(in.data(), at + "x"), read_coordinate<G>(in.data() + half, at + "y")};
    if (p.is_identity()) return p;  // all zero bytes
    if (!p.is_on_curve()) throw decode_error(at + "the point is not on the curve");
    if (check_subgroup && !is_in_subgroup(p)) throw decode_error(at + "the point is not in the prime-order subgroup");
    return p;
}

}  // namespace detail

/// x || y in the group's precompile layout; the identity is all zeros.
template <class G>
std::array<uint8_t, point_size<G>> serialize(const affine<G>& p) {
    std::array<uint8_t, point_size<G>> out{};
    if (p.is_identity()) return out;
    detail::write_coordinate<G>(out.data(), p.x);
    detail::write_coordinate<G>(out.data() + point_size<G> / 2, p.y);
    return out;
}

/// Decodes a point and checks that it is on the curve and in the prime-order subgroup.
template <class G>
affine<G> deserialize(std::span<const uint8_t> in) {
    return detail::decode<G>(in, true);
}
/// As deserialize, without the subgroup check (every other check stays).
template <class G>
affine<G> deserialize_unchecked(std::span<const uint8_t> in) {
    return detail::decode<G>(in, false);
}

}  // namespace cuzk::eth
