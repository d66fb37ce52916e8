// SPDX-License-Identifier: MIT OR Apache-2.0
// mont_field<Config>: a prime field in Montgomery form, one type for host and device.
//
// A Config supplies only the modulus (and, for fields whose sqrt needs Tonelli-Shanks, a
// quadratic non-residue); every other constant is derived here at compile time and checked
// with static_assert. Elements are always fully reduced, so equal values have equal bytes.
//
//   struct my_config {
//       static constexpr size_t limbs = 4;
//       static constexpr bigint<4> modulus = bigint_from_hex<4>("0x30644e...");
//       static constexpr uint64_t nonresidue = 5;   // optional
//       static constexpr const char* name = "BN254 Fr";
//   };
//   using fr = mont_field<my_config>;
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <type_traits>

#include "cuzk/core/bigint.hpp"
#include "cuzk/core/declassify.hpp"
#include "cuzk/core/error.hpp"
#include "cuzk/field/binary_gcd.hpp"
#include "cuzk/field/mont_arith_device.hpp"
#include "cuzk/field/mont_arith_host.hpp"

namespace cuzk {

namespace detail {

/// -p^-1 mod 2^64 by Newton iteration (each step doubles the number of correct bits).
constexpr uint64_t neg_inverse_mod_2_64(uint64_t p0) {
    uint64_t x = 1;
    for (int i = 0; i < 6; ++i) x *= 2 - p0 * x;
    return 0 - x;
}

}  // namespace detail

/// The derived Montgomery constants of a field config (what kernels and host code share).
template <class Config>
struct mont_params {
    static constexpr size_t limbs = Config::limbs;
    using integer = bigint<limbs>;
    static constexpr integer modulus = Config::modulus;
    static constexpr size_t modulus_bits = modulus.num_bits();
    static constexpr uint64_t mont_inv64 = detail::neg_inverse_mod_2_64(modulus.limb[0]);
    static constexpr integer r1 = pow2_mod(64 * limbs, modulus);  // R mod p: Montgomery one
    static constexpr integer r2 = mul_mod_slow(r1, r1, modulus);  // R^2 mod p: converts into Montgomery form
    static constexpr integer r3 = mul_mod_slow(r2, r1, modulus);  // R^3 mod p: rescales a plain inverse

    static_assert(modulus.is_odd(), "Montgomery arithmetic needs an odd modulus");
    static_assert(modulus.limb[limbs - 1] != 0, "modulus must fill its top limb (use fewer limbs)");
    static_assert(modulus_bits < 64 * limbs, "mont_field needs one spare bit above the modulus");
    static_assert(host_arith::no_carry_modulus(modulus), "host mont_mul needs the top limb below 2^63 - 1");
    static_assert(modulus.limb[0] * (0 - mont_inv64) == 1, "mont_inv64 must be -p^-1 mod 2^64");
};

template <class Config>
struct mont_field {
    using config = Config;
    using params = mont_params<Config>;
    static constexpr size_t limbs = Config::limbs;
    using integer = bigint<limbs>;
    static constexpr integer modulus = params::modulus;
    static constexpr size_t modulus_bits = params::modulus_bits;
    /// Bytes of a canonical encoding (48 for a 381-bit field, 32 for 254/255-bit fields).
    static constexpr size_t byte_size = (modulus_bits + 7) / 8;

    /// The value in Montgomery form (x * R mod p), little-endian limbs.
    integer mont;

    // ---- construction -------------------------------------------------------------------

    CUZK_HD static constexpr mont_field zero() { return mont_field{}; }
    CUZK_HD static constexpr mont_field one() { return from_montgomery_unchecked(params::r1); }
    /// Wraps a value already in Montgomery form; the caller guarantees it is < p.
    CUZK_HD static constexpr mont_field from_montgomery_unchecked(const integer& m) {
        mont_field r{};
        r.mont = m;
        return r;
    }
    CUZK_HD static constexpr mont_field from_u64(uint64_t v) {
        integer x = integer::from_u64(v);
        constexpr integer p = modulus;  // a local copy: nvcc cannot odr-use the static member in device code
        if (x >= p) x = x - p;          // only possible for tiny test moduli
        return from_canonical_unchecked(x);
    }
    /// Converts a canonical integer < p into Montgomery form (caller guarantees < p).
    CUZK_HD static constexpr mont_field from_canonical_unchecked(const integer& x) {
        return from_montgomery_unchecked(x) * from_montgomery_unchecked(params::r2);
    }
    /// Converts a canonical integer into Montgomery form; throws decode_error if x >= p.
    static constexpr mont_field from_canonical(const integer& x) {
        if (x >= modulus) throw decode_error(std::string(Config::name) + ": integer is not below the modulus");
        return from_canonical_unchecked(x);
    }
    /// Parses a hexadecimal literal at compile time (constants in configs and tests).
    static constexpr mont_field from_hex(const char* s) { return from_canonical(bigint_from_hex<limbs>(s)); }
    static constexpr mont_field from_dec(const char* s) { return from_canonical(bigint_from_dec<limbs>(s)); }

    /// The canonical integer in [0, p).
    CUZK_HD constexpr integer to_canonical() const {
        return (*this * from_montgomery_unchecked(integer::from_u64(1))).mont;
    }

    /// Uniform element from a 64-bit UniformRandomBitGenerator (rejection sampling).
    template <class Rng>
    static mont_field random(Rng& rng) {
        for (;;)
            if (std::optional<mont_field> x = random_candidate(rng)) return *x;
    }

    /// One candidate of random()'s rejection sampling: a uniform element, or nothing when the
    /// modulus_bits drawn are >= p. A working generator is accepted at least half of the time
    /// (p >= 2^(modulus_bits - 1)); a broken one (all-ones bytes) never, so callers that must
    /// end bound their tries.
    template <class Rng>
    static std::optional<mont_field> random_candidate(Rng& rng) {
        constexpr size_t top_bits = modulus_bits - 64 * (limbs - 1);
        constexpr uint64_t top_mask = top_bits == 64 ? ~uint64_t(0) : (uint64_t(1) << top_bits) - 1;
        integer x{};
        for (size_t i = 0; i < limbs; ++i) x.limb[i] = uint64_t(rng());
        x.limb[limbs - 1] &= top_mask;
        // Rejected candidates are discarded: whether one was is public.
        if (declassify(x < modulus)) return from_montgomery_unchecked(x);  // uniform in Montgomery form too
        return std::nullopt;
    }

    // ---- bytes -------------------------------------------------------------------------

    /// Little-endian canonical bytes (byte_size of them).
    void to_bytes_le(std::span<uint8_t, byte_size> out) const {
        integer x = to_canonical();
        for (size_t i = 0; i < byte_size; ++i) out[i] = uint8_t(x.limb[i / 8] >> (8 * (i % 8)));
    }
    void to_bytes_be(std::span<uint8_t, byte_size> out) const {
        integer x = to_canonical();
        for (size_t i = 0; i < byte_size; ++i) out[byte_size - 1 - i] = uint8_t(x.limb[i / 8] >> (8 * (i % 8)));
    }
    /// Reads byte_size little-endian bytes; throws decode_error on a wrong length or a value >= p.
    static mont_field from_bytes_le(std::span<const uint8_t> in) {
        if (in.size() != byte_size)
            throw decode_error(std::string(Config::name) + ": expected " + std::to_string(byte_size) +
                               " bytes, got " + std::to_string(in.size()));
        integer x{};
        for (size_t i = 0; i < byte_size; ++i) x.limb[i / 8] |= uint64_t(in[i]) << (8 * (i % 8));
        return from_canonical(x);
    }
    static mont_field from_bytes_be(std::span<const uint8_t> in) {
        if (in.size() != byte_size)
            throw decode_error(std::string(Config::name) + ": expected " + std::to_string(byte_size) +
                               " bytes, got " + std::to_string(in.size()));
        integer x{};
        for (size_t i = 0; i < byte_size; ++i) x.limb[i / 8] |= uint64_t(in[byte_size - 1 - i]) << (8 * (i % 8));
        return from_canonical(x);
    }

    // ---- predicates ----------------------------------------------------------------------

    CUZK_HD constexpr bool is_zero() const { return mont.is_zero(); }
    CUZK_HD constexpr bool is_one() const {
        constexpr integer r1 = params::r1;  // a local copy, as in from_u64
        return mont == r1;
    }
    CUZK_HD constexpr friend bool operator==(const mont_field& a, const mont_field& b) { return a.mont == b.mont; }
    CUZK_HD constexpr friend bool operator!=(const mont_field& a, const mont_field& b) { return !(a == b); }

    // ---- arithmetic (the only place host and device paths meet) ----------------------------

    CUZK_HD constexpr friend mont_field operator+(const mont_field& a, const mont_field& b) {
        mont_field r{};
#if CUZK_DEVICE_CODE
        if (std::is_constant_evaluated()) {  // constants in device passes; a local copy, as device code
            constexpr integer p = modulus;  // may not name a static constexpr array member
            host_arith::mod_add(r.mont, a.mont, b.mont, p);
        } else {
            device_arith::mod_add<params>(r.mont, a.mont, b.mont);
        }
#else
        host_arith::mod_add(r.mont, a.mont, b.mont, modulus);
#endif
        return r;
    }
    CUZK_HD constexpr friend mont_field operator-(const mont_field& a, const mont_field& b) {
        mont_field r{};
#if CUZK_DEVICE_CODE
        if (std::is_constant_evaluated()) {
            constexpr integer p = modulus;
            host_arith::mod_sub(r.mont, a.mont, b.mont, p);
        } else {
            device_arith::mod_sub<params>(r.mont, a.mont, b.mont);
        }
#else
        host_arith::mod_sub(r.mont, a.mont, b.mont, modulus);
#endif
        return r;
    }
    CUZK_HD constexpr friend mont_field operator*(const mont_field& a, const mont_field& b) {
        mont_field r{};
#if CUZK_DEVICE_CODE
        if (std::is_constant_evaluated()) {
            constexpr integer p = modulus;
            host_arith::mont_mul(r.mont, a.mont, b.mont, p, params::mont_inv64);
        } else {
            device_arith::mont_mul<params>(r.mont, a.mont, b.mont);
        }
#else
        host_arith::mont_mul(r.mont, a.mont, b.mont, modulus, params::mont_inv64);
#endif
        return r;
    }
    CUZK_HD constexpr mont_field operator-() const { return zero() - *this; }
    CUZK_HD constexpr mont_field& operator+=(const mont_field& b) { return *this = *this + b; }
    CUZK_HD constexpr mont_field& operator-=(const mont_field& b) { return *this = *this - b; }
    CUZK_HD constexpr mont_field& operator*=(const mont_field& b) { return *this = *this * b; }

    CUZK_HD constexpr mont_field dbl() const { return *this + *this; }
    CUZK_HD constexpr mont_field square() const {
#if CUZK_DEVICE_CODE
        if (std::is_constant_evaluated()) return *this * *this;
        mont_field r{};
        device_arith::mont_sqr<params>(r.mont, mont);  // dedicated squaring: ~3/4 of a mul's IMADs
        return r;
#else
        mont_field r{};
        host_arith::mont_sqr(r.mont, mont, modulus, params::mont_inv64);  // dedicated squaring, as on the device
        return r;
#endif
    }

    /// this^e by square-and-multiply; time depends on the exponent (public exponents only).
    template <size_t M>
    CUZK_HD constexpr mont_field pow_vartime(const bigint<M>& e) const {
        mont_field acc = one();
        for (size_t i = e.num_bits(); i-- > 0;) {
            acc = acc.square();
            if (e.bit(i)) acc *= *this;
        }
        return acc;
    }
    CUZK_HD constexpr mont_field pow_vartime(uint64_t e) const { return pow_vartime(bigint<1>{{e}}); }

    /// Multiplicative inverse by Fermat (a^(p-2)); constant time in the value; inverse(0) = 0.
    CUZK_HD constexpr mont_field inverse() const { return pow_vartime(modulus - integer::from_u64(2)); }

    /// The same inverse by binary GCD (field/binary_gcd.hpp), several times faster, in a time
    /// that depends on the value: for public values only (MSM buckets, setup, checks).
    CUZK_HD constexpr mont_field inverse_vartime() const {
        if (is_zero()) return zero();
        constexpr integer p = modulus, r3 = params::r3;  // local copies, as in from_u64
        integer y{};
        if (!detail::binary_gcd_inverse(y, mont, p)) return inverse();  // never taken (tests count batches)
        // mont = x R and y = (x R)^-1, so y R^3 R^-1 (a Montgomery product) = x^-1 R.
        return from_montgomery_unchecked(y) * from_montgomery_unchecked(r3);
    }

    /// Legendre symbol: 0 for zero, 1 for a non-zero square, -1 otherwise.
    CUZK_HD constexpr int legendre() const {
        mont_field e = pow_vartime(modulus.shr(1));
        return e.is_zero() ? 0 : e.is_one() ? 1 : -1;
    }

    // ---- square roots ----------------------------------------------------------------------

    /// Largest s with 2^s | p - 1.
    static constexpr size_t two_adicity = [] {
        integer pm1 = modulus - integer::from_u64(1);
        size_t s = 0;
        while (!pm1.bit(s)) ++s;
        return s;
    }();

    /// A square root of this, or nothing when this is not a square. Which of the two roots is
    /// returned is unspecified (callers that need a sign choose it themselves).
    constexpr std::optional<mont_field> sqrt() const {
        mont_field c{};
        if constexpr (modulus.limb[0] % 4 == 3) {
            c = pow_vartime((modulus + integer::from_u64(1)).shr(2));  // a^((p+1)/4)
        } else {
            c = tonelli_shanks();
        }
        if (c.square() != *this) return std::nullopt;
        return c;
    }

private:
    constexpr mont_field tonelli_shanks() const {
        static_assert(requires { Config::nonresidue; }, "Tonelli-Shanks needs Config::nonresidue");
        constexpr integer t = (modulus - integer::from_u64(1)).shr(two_adicity);  // p - 1 = 2^s * t
        mont_field z = from_u64(Config::nonresidue).pow_vartime(t);               // order 2^s
        mont_field x = pow_vartime(t.shr(1));                                     // a^((t-1)/2)
        mont_field b = x.square() * *this;                                        // a^t
        x *= *this;                                                               // a^((t+1)/2)
        size_t m = two_adicity;
        while (!b.is_one() && !b.is_zero()) {
            size_t k = 0;  // least k with b^(2^k) = 1
            for (mont_field b2 = b; !b2.is_one(); b2 = b2.square()) {
                if (++k == m) return zero();  // non-square: the caller's check fails
            }
            mont_field w = z;
            for (size_t i = 0; i + k + 1 < m; ++i) w = w.square();
            z = w.square();
            b *= z;
            x *= w;
            m = k;
        }
        return b.is_zero() ? zero() : x;
    }
};

}  // namespace cuzk
