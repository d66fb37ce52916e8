// SPDX-License-Identifier: MIT OR Apache-2.0
// Scalar preparation for Pippenger: reduction mod r and signed-digit windows. Host and device.
//
// A scalar s < r of b bits is written as s = sum_w d_w * 2^(c*w) with digits
// d_w in [-(2^(c-1) - 1), 2^(c-1)], so a window needs only 2^(c-1) buckets (bucket |d| - 1,
// with the point negated when d < 0). Digits are produced from the lowest window up:
// d = raw + carry; if d > 2^(c-1) then d -= 2^c and the carry into the next window is 1.
// With W = ceil((b + 1) / c) windows the top window never carries out (its raw value uses at
// most c - 1 bits), so W windows represent every s < 2^b exactly.
//
// Scalars >= r are reduced mod r (never rejected): the MSM of points in the prime-order
// subgroup then equals the MSM of the integers as given. Montgomery-form inputs x are
// interpreted as x * R^-1 mod r, which is the same rule applied to what the caller holds.
#pragma once

#include <cstdint>

#include "cuzk/core/bigint.hpp"
#include "cuzk/core/hd.hpp"

namespace cuzk::msm {

/// How the caller's scalar words are to be read.
enum class scalar_form : uint8_t {
    canonical,   ///< plain little-endian integers (any value < 2^(64N); reduced mod r)
    montgomery,  ///< Montgomery form x = s * R mod r, as mont_field<...>::mont holds it
};

/// Number of signed-digit windows of width c that cover every scalar below 2^scalar_bits.
CUZK_HD constexpr unsigned num_windows(unsigned scalar_bits, unsigned c) { return (scalar_bits + c) / c; }

/// Buckets per window for window width c (digit magnitudes 1 .. 2^(c-1)).
CUZK_HD constexpr uint32_t buckets_per_window(unsigned c) { return uint32_t(1) << (c - 1); }

/// The canonical value in [0, r) of a scalar given in `form`; Fr is the scalar field type.
template <class Fr>
CUZK_HD constexpr typename Fr::integer reduce_scalar(const typename Fr::integer& s, scalar_form form) {
    if (form == scalar_form::montgomery) {
        // x * 1 * R^-1 with one final conditional subtraction stays below r for any x < R.
        return Fr::from_montgomery_unchecked(s).to_canonical();
    }
    constexpr typename Fr::integer r = Fr::modulus;  // a local copy is usable in device code
    typename Fr::integer x = s;
    while (x >= r) x = x - r;  // at most floor(2^(64N) / r) rounds (5 for BN254)
    return x;
}

/// One signed digit: magnitude in [0, 2^(c-1)] and sign.
struct signed_digit {
    uint32_t magnitude;
    bool negative;
};

/// Walks the signed digits of one reduced scalar from window 0 upwards.
template <size_t N>
struct signed_digit_walker {
    bigint<N> s;
    unsigned c;
    uint32_t carry = 0;
    unsigned window = 0;

    CUZK_HD constexpr signed_digit_walker(const bigint<N>& scalar, unsigned width) : s(scalar), c(width) {}

    /// The digit of the current window; advances to the next window.
    CUZK_HD constexpr signed_digit next() {
        const uint32_t half = uint32_t(1) << (c - 1);
        // raw < 2^c <= 2^31 and carry <= 1, so d fits in 32 bits (c <= 31).
        uint32_t d = s.bits_at(size_t(window) * c, c) + carry;
        ++window;
        if (d > half) {
            carry = 1;
            return {(uint32_t(1) << c) - d, true};  // d - 2^c < 0
        }
        carry = 0;
        return {d, false};
    }
};

}  // namespace cuzk::msm
