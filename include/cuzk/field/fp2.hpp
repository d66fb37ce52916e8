// SPDX-License-Identifier: MIT OR Apache-2.0
// fp2<Config>: the quadratic extension Fp[u]/(u^2 - beta) of a prime field, host and device.
//
// A Config names the base field and the non-residue beta as a small signed integer (both
// BLS12-381 and BN254 use beta = -1, i.e. u^2 = -1):
//
//   struct fp2_config {
//       using base = fp;                                 // a mont_field
//       static constexpr int64_t nonresidue = -1;        // beta
//       static constexpr const char* name = "BLS12-381 Fp2";
//   };
//   using fp2 = cuzk::fp2<fp2_config>;
//
// Elements are c0 + c1*u with both coordinates fully reduced, so equal values have equal bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "cuzk/core/bigint.hpp"
#include "cuzk/field/fp2_mul_x86.hpp"
#include "cuzk/field/tower_util.hpp"

namespace cuzk {

template <class Config>
struct fp2 {
    using config = Config;
    /// The prime field below (Fp).
    using base = typename Config::base;
    using integer = typename base::integer;
    /// beta, with u^2 = beta.
    static constexpr int64_t nonresidue = Config::nonresidue;
    /// Degree over the prime field.
    static constexpr size_t degree = 2;

    base c0;  ///< real part
    base c1;  ///< coefficient of u

    // ---- construction -------------------------------------------------------------------

    CUZK_HD static constexpr fp2 zero() { return fp2{}; }
    CUZK_HD static constexpr fp2 one() { return fp2{base::one(), base::zero()}; }
    /// The element u.
    CUZK_HD static constexpr fp2 u() { return fp2{base::zero(), base::one()}; }
    /// Embeds a base-field element.
    CUZK_HD static constexpr fp2 from_base(const base& a) { return fp2{a, base::zero()}; }
    CUZK_HD static constexpr fp2 from_u64(uint64_t v) { return fp2{base::from_u64(v), base::zero()}; }

    /// Uniform element from a 64-bit UniformRandomBitGenerator.
    template <class Rng>
    static fp2 random(Rng& rng) {
        base a = base::random(rng);
        base b = base::random(rng);
        return fp2{a, b};
    }

    // ---- predicates ----------------------------------------------------------------------

    CUZK_HD constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
    CUZK_HD constexpr bool is_one() const { return c0 == base::one() && c1.is_zero(); }
    CUZK_HD constexpr friend bool operator==(const fp2& a, const fp2& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
    CUZK_HD constexpr friend bool operator!=(const fp2& a, const fp2& b) { return !(a == b); }

    // ---- arithmetic ----------------------------------------------------------------------

    CUZK_HD constexpr friend fp2 operator+(const fp2& a, const fp2& b) { return fp2{a.c0 + b.c0, a.c1 + b.c1}; }
    CUZK_HD constexpr friend fp2 operator-(const fp2& a, const fp2& b) { return fp2{a.c0 - b.c0, a.c1 - b.c1}; }
    CUZK_HD constexpr fp2 operator-() const { return fp2{-c0, -c1}; }
    CUZK_HD constexpr fp2 dbl() const { return fp2{c0.dbl(), c1.dbl()}; }

    /// beta * a for a base-field element (u^2 = beta).
    CUZK_HD static constexpr base mul_base_by_nonresidue(const base& a) {
        if constexpr (nonresidue == -1) {
            return -a;
        } else {
            return tower::mul_small_signed<nonresidue>(a);
        }
    }

    /// Whether the host product takes fp2_mul_x86.hpp's lazy reduction (4 or 6 limbs with two spare bits,
    /// u^2 = -1: BN254 and BLS12-381).
    static constexpr bool lazy_host_product = CUZK_HOST_ADX && (base::limbs == 4 || base::limbs == 6) &&
                                              base::modulus_bits <= 64 * base::limbs - 2 && nonresidue == -1;

    /// Karatsuba: 3M + 5A (a0 b0 + beta a1 b1, (a0 + a1)(b0 + b1) - a0 b0 - a1 b1). On the host with
    /// ADX the same three products at double width and two reductions (fp2_mul_x86.hpp): the same value,
    /// sooner.
    CUZK_HD_OUTLINE constexpr friend fp2 operator*(const fp2& a, const fp2& b) {
#if CUZK_HOST_ADX
        if constexpr (lazy_host_product) {
            if (!std::is_constant_evaluated()) {
                fp2 r;
                constexpr auto p = base::modulus;
                host_arith::x86::fp2_mul_lazy_adx(r.c0.mont, r.c1.mont, a.c0.mont, a.c1.mont, b.c0.mont, b.c1.mont, p,
                                                  base::params::mont_inv64);
                return r;
            }
        }
#endif
        base v0 = a.c0 * b.c0;
        base v1 = a.c1 * b.c1;
        base s = (a.c0 + a.c1) * (b.c0 + b.c1);
        return fp2{v0 + mul_base_by_nonresidue(v1), s - v0 - v1};
    }
    /// Multiplies both coordinates by a base-field element (2M).
    CUZK_HD constexpr fp2 mul_by_base(const base& b) const { return fp2{c0 * b, c1 * b}; }

    /// Complex squaring: 2M. For beta = -1: ((a0 + a1)(a0 - a1), 2 a0 a1); on the host with ADX the
    /// two products at double width, reduced once each (fp2_mul_x86.hpp).
    CUZK_HD_OUTLINE constexpr fp2 square() const {
#if CUZK_HOST_ADX
        if constexpr (lazy_host_product) {
            if (!std::is_constant_evaluated()) {
                fp2 r;
                host_arith::x86::fp2_sqr_lazy_adx(r.c0.mont, r.c1.mont, c0.mont, c1.mont, base::modulus,
                                                  base::params::mont_inv64);
                return r;
            }
        }
#endif
        base v0 = c0 * c1;
        if constexpr (nonresidue == -1) {
            return fp2{(c0 + c1) * (c0 - c1), v0.dbl()};
        } else {
            base t = (c0 + c1) * (c0 + mul_base_by_nonresidue(c1));
            return fp2{t - v0 - mul_base_by_nonresidue(v0), v0.dbl()};
        }
    }

    CUZK_HD constexpr fp2& operator+=(const fp2& b) { return *this = *this + b; }
    CUZK_HD constexpr fp2& operator-=(const fp2& b) { return *this = *this - b; }
    CUZK_HD constexpr fp2& operator*=(const fp2& b) { return *this = *this * b; }

    /// c0 - c1 u: the image under the non-trivial automorphism (= Frobenius).
    CUZK_HD constexpr fp2 conjugate() const { return fp2{c0, -c1}; }

    /// Norm to the base field: a * conj(a) = c0^2 - beta c1^2.
    CUZK_HD constexpr base norm() const { return c0.square() - mul_base_by_nonresidue(c1.square()); }

    /// Inverse via the norm: conj(a) / N(a); inverse(0) = 0.
    CUZK_HD constexpr fp2 inverse() const {
        base t = norm().inverse();
        return fp2{c0 * t, -(c1 * t)};
    }
    /// The same with the base field's variable-time inverse (public values only).
    CUZK_HD constexpr fp2 inverse_vartime() const {
        base t = norm().inverse_vartime();
        return fp2{c0 * t, -(c1 * t)};
    }

    /// a^(p^k). Because beta is a non-residue, u^p = beta^((p-1)/2) u = -u, so the map is
    /// conjugation for odd k and the identity for even k.
    CUZK_HD constexpr fp2 frobenius_map(unsigned k) const { return (k & 1) ? conjugate() : *this; }

    /// this^e by square-and-multiply; time depends on the exponent (public exponents only).
    template <size_t M>
    CUZK_HD constexpr fp2 pow_vartime(const bigint<M>& e) const {
        fp2 acc = one();
        for (size_t i = e.num_bits(); i-- > 0;) {
            acc = acc.square();
            if (e.bit(i)) acc *= *this;
        }
        return acc;
    }
    CUZK_HD constexpr fp2 pow_vartime(uint64_t e) const { return pow_vartime(bigint<1>{{e}}); }

    // ---- squares and roots ---------------------------------------------------------------

    /// True when this is a square in Fp2 (zero included): a is a square iff N(a) is a square in Fp.
    CUZK_HD constexpr bool is_square() const {
        constexpr integer half = (base::modulus - integer::from_u64(1)).shr(1);  // Euler's criterion on N(a)
        base e = norm().pow_vartime(half);
        return e.is_zero() || e == base::one();
    }

    /// Square root without std::optional (device-callable): writes a root to out and returns
    /// true, or returns false when this is not a square (out is then unspecified). Which root
    /// is returned is unspecified; callers choose the sign (see lexicographically_largest).
    ///
    /// Algorithm 9 of Adj and Rodriguez-Henriquez, "Square root computation over even
    /// extension fields" (2012), for p = 3 mod 4 and u^2 = -1; the result is verified by
    /// squaring, so a wrong branch can only give "not a square", never a wrong root.
    CUZK_HD constexpr bool sqrt_into(fp2& out) const {
        static_assert(nonresidue == -1, "fp2::sqrt assumes u^2 = -1");
        static_assert(base::modulus.limb[0] % 4 == 3, "fp2::sqrt assumes p = 3 mod 4");
        constexpr integer e1 = (base::modulus - integer::from_u64(3)).shr(2);  // (p - 3) / 4
        constexpr integer e2 = (base::modulus - integer::from_u64(1)).shr(1);  // (p - 1) / 2
        fp2 a1 = pow_vartime(e1);
        fp2 alpha = a1.square() * *this;  // a^((p-1)/2)
        fp2 x0 = a1 * *this;              // a^((p+1)/4)
        fp2 minus_one = -one();
        fp2 x{};
        if (alpha == minus_one) {
            x = fp2{-x0.c1, x0.c0};  // u * x0
        } else {
            fp2 b = (alpha + one()).pow_vartime(e2);
            x = b * x0;
        }
        out = x;
        return x.square() == *this;
    }

    /// A square root of this, or nothing when this is not a square (host convenience).
    constexpr std::optional<fp2> sqrt() const {
        fp2 r{};
        if (!sqrt_into(r)) return std::nullopt;
        return r;
    }

    /// The zcash/IETF sign rule for Fp2 coordinates: true when this > -this
    /// lexicographically, comparing c1 first and c0 only when c1 == 0 (canonical integers).
    CUZK_HD constexpr bool lexicographically_largest() const {
        constexpr integer half = (base::modulus - integer::from_u64(1)).shr(1);  // (p - 1) / 2
        integer b = c1.to_canonical();
        if (!b.is_zero()) return b > half;
        return c0.to_canonical() > half;
    }
};

}  // namespace cuzk
