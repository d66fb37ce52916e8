// SPDX-License-Identifier: MIT OR Apache-2.0
// Fixed-width unsigned integers on 64-bit little-endian limbs.
//
// `bigint<N>` is the storage of every field element and the currency of compile-time
// constant derivation (moduli, Montgomery constants, exponents). Everything here is
// constexpr so that configs can derive their constants with static_assert checks.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/core/hd.hpp"

namespace cuzk {

using u128 = unsigned __int128;

/// out = a + b + carry_in; returns the carry out (0 or 1).
CUZK_HD constexpr uint64_t add_carry(uint64_t& out, uint64_t a, uint64_t b, uint64_t carry_in) {
    u128 s = u128(a) + b + carry_in;
    out = uint64_t(s);
    return uint64_t(s >> 64);
}

/// out = a - b - borrow_in; returns the borrow out (0 or 1).
CUZK_HD constexpr uint64_t sub_borrow(uint64_t& out, uint64_t a, uint64_t b, uint64_t borrow_in) {
    u128 d = u128(a) - b - borrow_in;
    out = uint64_t(d);
    return uint64_t(d >> 64) & 1;
}

/// Little-endian N-limb unsigned integer. An aggregate, so arrays of it are plain bytes.
template <size_t N>
struct bigint {
    static constexpr size_t limbs = N;
    static constexpr size_t bits = 64 * N;
    uint64_t limb[N];

    CUZK_HD constexpr uint64_t& operator[](size_t i) { return limb[i]; }
    CUZK_HD constexpr const uint64_t& operator[](size_t i) const { return limb[i]; }

    CUZK_HD static constexpr bigint zero() { return bigint{}; }
    CUZK_HD static constexpr bigint from_u64(uint64_t v) {
        bigint r{};
        r.limb[0] = v;
        return r;
    }

    CUZK_HD constexpr bool is_zero() const {
        uint64_t acc = 0;
        for (size_t i = 0; i < N; ++i) acc |= limb[i];
        return acc == 0;
    }
    CUZK_HD constexpr bool bit(size_t i) const { return (limb[i / 64] >> (i % 64)) & 1; }
    CUZK_HD constexpr bool is_odd() const { return limb[0] & 1; }

    /// Number of significant bits (0 for zero).
    CUZK_HD constexpr size_t num_bits() const {
        for (size_t i = N; i-- > 0;) {
            if (limb[i] == 0) continue;
            size_t b = 64;
            while (((limb[i] >> (b - 1)) & 1) == 0) --b;
            return 64 * i + b;
        }
        return 0;
    }

    CUZK_HD constexpr friend bool operator==(const bigint& a, const bigint& b) {
        uint64_t acc = 0;
        for (size_t i = 0; i < N; ++i) acc |= a.limb[i] ^ b.limb[i];
        return acc == 0;
    }
    CUZK_HD constexpr friend bool operator!=(const bigint& a, const bigint& b) { return !(a == b); }
    CUZK_HD constexpr friend bool operator<(const bigint& a, const bigint& b) {
        bigint d{};
        return sub_with_borrow(d, a, b) != 0;
    }
    CUZK_HD constexpr friend bool operator>=(const bigint& a, const bigint& b) { return !(a < b); }
    CUZK_HD constexpr friend bool operator>(const bigint& a, const bigint& b) { return b < a; }
    CUZK_HD constexpr friend bool operator<=(const bigint& a, const bigint& b) { return !(b < a); }

    /// out = a + b; returns the carry out of the top limb.
    CUZK_HD static constexpr uint64_t add_with_carry(bigint& out, const bigint& a, const bigint& b) {
        uint64_t c = 0;
        for (size_t i = 0; i < N; ++i) c = add_carry(out.limb[i], a.limb[i], b.limb[i], c);
        return c;
    }
    /// out = a - b; returns the borrow out of the top limb.
    CUZK_HD static constexpr uint64_t sub_with_borrow(bigint& out, const bigint& a, const bigint& b) {
        uint64_t c = 0;
        for (size_t i = 0; i < N; ++i) c = sub_borrow(out.limb[i], a.limb[i], b.limb[i], c);
        return c;
    }

    CUZK_HD constexpr bigint shr(size_t s) const {
        bigint r{};
        size_t w = s / 64, b = s % 64;
        for (size_t i = 0; i + w < N; ++i) {
            r.limb[i] = limb[i + w] >> b;
            if (b != 0 && i + w + 1 < N) r.limb[i] |= limb[i + w + 1] << (64 - b);
        }
        return r;
    }
    CUZK_HD constexpr bigint shl(size_t s) const {
        bigint r{};
        size_t w = s / 64, b = s % 64;
        for (size_t i = N; i-- > w;) {
            r.limb[i] = limb[i - w] << b;
            if (b != 0 && i - w >= 1) r.limb[i] |= limb[i - w - 1] >> (64 - b);
        }
        return r;
    }

    /// Bits [pos, pos + width) as an integer (width <= 32), zero beyond the top.
    CUZK_HD constexpr uint32_t bits_at(size_t pos, size_t width) const {
        size_t w = pos / 64, b = pos % 64;
        if (w >= N) return 0;
        uint64_t v = limb[w] >> b;
        if (b != 0 && b + width > 64 && w + 1 < N) v |= limb[w + 1] << (64 - b);
        return uint32_t(v & ((uint64_t(1) << width) - 1));
    }
};

template <size_t N>
constexpr bigint<N> operator+(const bigint<N>& a, const bigint<N>& b) {
    bigint<N> r{};
    bigint<N>::add_with_carry(r, a, b);
    return r;
}
template <size_t N>
constexpr bigint<N> operator-(const bigint<N>& a, const bigint<N>& b) {
    bigint<N> r{};
    bigint<N>::sub_with_borrow(r, a, b);
    return r;
}

/// Parses "0x..." (or plain hex) into a bigint at compile time; rejects overflow.
template <size_t N>
constexpr bigint<N> bigint_from_hex(const char* s) {
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2;
    size_t len = 0;
    while (s[len] != '\0') ++len;
    bigint<N> r{};
    size_t nibble = 0;
    for (size_t i = len; i-- > 0;) {
        char c = s[i];
        if (c == '_') continue;
        uint64_t v = (c >= '0' && c <= '9')   ? uint64_t(c - '0')
                     : (c >= 'a' && c <= 'f') ? uint64_t(c - 'a' + 10)
                     : (c >= 'A' && c <= 'F') ? uint64_t(c - 'A' + 10)
                                              : throw "bigint_from_hex: not a hex digit";
        if (nibble >= 16 * N) {
            if (v != 0) throw "bigint_from_hex: value does not fit";
            continue;
        }
        r.limb[nibble / 16] |= v << (4 * (nibble % 16));
        ++nibble;
    }
    return r;
}

/// Parses a decimal string into a bigint at compile time; rejects overflow.
template <size_t N>
constexpr bigint<N> bigint_from_dec(const char* s) {
    bigint<N> r{};
    for (; *s != '\0'; ++s) {
        if (*s < '0' || *s > '9') throw "bigint_from_dec: not a decimal digit";
        // r = r * 10 + digit
        uint64_t carry = uint64_t(*s - '0');
        for (size_t i = 0; i < N; ++i) {
            u128 t = u128(r.limb[i]) * 10 + carry;
            r.limb[i] = uint64_t(t);
            carry = uint64_t(t >> 64);
        }
        if (carry != 0) throw "bigint_from_dec: value does not fit";
    }
    return r;
}

/// (a * b) mod m by double-and-add; compile-time helper for deriving constants.
template <size_t N>
constexpr bigint<N> mul_mod_slow(const bigint<N>& a, const bigint<N>& b, const bigint<N>& m) {
    bigint<N> acc{};
    for (size_t i = b.num_bits(); i-- > 0;) {
        uint64_t c = bigint<N>::add_with_carry(acc, acc, acc);
        if (c || acc >= m) acc = acc - m;
        if (b.bit(i)) {
            c = bigint<N>::add_with_carry(acc, acc, a);
            if (c || acc >= m) acc = acc - m;
        }
    }
    return acc;
}

/// 2^k mod m; compile-time helper (Montgomery R = 2^(64N) and R^2).
template <size_t N>
constexpr bigint<N> pow2_mod(size_t k, const bigint<N>& m) {
    bigint<N> acc = bigint<N>::from_u64(1);
    if (acc >= m) acc = acc - m;
    for (size_t i = 0; i < k; ++i) {
        uint64_t c = bigint<N>::add_with_carry(acc, acc, acc);
        if (c || acc >= m) acc = acc - m;
    }
    return acc;
}

}  // namespace cuzk
