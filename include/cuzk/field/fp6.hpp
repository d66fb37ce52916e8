// SPDX-License-Identifier: MIT OR Apache-2.0
// fp6<Config>: the cubic extension Fp2[v]/(v^3 - xi) of a quadratic extension, host and device.
//
// A Config names the Fp2 below and xi = k0 + k1*u as two small non-negative integers
// (BLS12-381: xi = 1 + u; BN254: xi = 9 + u):
//
//   struct fp6_config {
//       using base = fp2;
//       static constexpr uint64_t nonresidue_c0 = 1, nonresidue_c1 = 1;   // xi = 1 + u
//   };
//   using fp6 = cuzk::fp6<fp6_config>;
//
// Frobenius coefficients are derived at compile time from xi and p (tower_frobenius below):
// only one exponentiation, xi^((p-1)/6), is evaluated; the rest follow by products.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "cuzk/field/fp2.hpp"
#include "cuzk/field/tower_util.hpp"

namespace cuzk {

/// Multiplication of Fp2 elements by xi = k0 + k1 u (k0, k1 small compile-time integers).
template <class Fp2, uint64_t K0, uint64_t K1>
CUZK_HD constexpr Fp2 mul_fp2_by_small_nonresidue(const Fp2& a) {
    using base = typename Fp2::base;
    // (a0 + a1 u)(k0 + k1 u) = (k0 a0 + beta k1 a1) + (k1 a0 + k0 a1) u
    base r0 = tower::mul_small<K0>(a.c0) + Fp2::mul_base_by_nonresidue(tower::mul_small<K1>(a.c1));
    base r1 = tower::mul_small<K1>(a.c0) + tower::mul_small<K0>(a.c1);
    return Fp2{r0, r1};
}

/// Compile-time Frobenius coefficients of the tower Fp2 -> Fp6 -> Fp12 over xi.
///   gamma[k] = xi^((p^k - 1) / 6)  (k = 0..11): w^(p^k) = gamma[k] * w in Fp12 (w^6 = xi);
///   v1[k] = gamma[k]^2 = xi^((p^k - 1) / 3): v^(p^k) = v1[k] * v in Fp6;
///   v2[k] = gamma[k]^4: (v^2)^(p^k) = v2[k] * v^2.
/// Derivation: (p^k - 1)/6 = ((p - 1)/6)(1 + p + ... + p^(k-1)), so
/// gamma[k] = prod_{j<k} gamma[1]^(p^j) = gamma[k-1] * frob^(k-1)(gamma[1]).
template <class Fp6Config>
struct tower_frobenius {
    using fp2_type = typename Fp6Config::base;
    using base = typename fp2_type::base;
    using integer = typename base::integer;
    using ct = tower::ct_fp2<fp2_type>;  // constexpr arithmetic, same in nvcc's device pass

    static constexpr ct xi() { return ct::from_small(Fp6Config::nonresidue_c0, Fp6Config::nonresidue_c1); }
    static_assert(tower::mod_small(base::modulus, 6) == 1, "the sextic tower needs p = 1 mod 6");

    static constexpr std::array<ct, 12> gamma_ct = [] {
        std::array<ct, 12> g{};
        constexpr integer e = tower::div_exact_small(base::modulus - integer::from_u64(1), 6);
        ct g1 = xi().pow(e);
        g[0] = ct::one();
        for (unsigned k = 1; k < 12; ++k) g[k] = g[k - 1] * ((k - 1) % 2 ? g1.conjugate() : g1);
        return g;
    }();
    // Check: gamma[1]^6 * xi = xi^p = conj(xi), and gamma[2]^6 = xi^(p^2 - 1) = 1.
    static_assert(gamma_ct[1] * gamma_ct[1] * gamma_ct[1] * gamma_ct[1] * gamma_ct[1] * gamma_ct[1] * xi() ==
                      xi().conjugate(),
                  "Frobenius coefficient derivation");
    static_assert(gamma_ct[2] * gamma_ct[2] * gamma_ct[2] * gamma_ct[2] * gamma_ct[2] * gamma_ct[2] == ct::one(),
                  "Frobenius coefficient derivation");

    static constexpr std::array<fp2_type, 12> gamma = [] {
        std::array<fp2_type, 12> r{};
        for (unsigned k = 0; k < 12; ++k) r[k] = gamma_ct[k].get();
        return r;
    }();
    static constexpr std::array<fp2_type, 6> v1 = [] {
        std::array<fp2_type, 6> r{};
        for (unsigned k = 0; k < 6; ++k) r[k] = (gamma_ct[k] * gamma_ct[k]).get();
        return r;
    }();
    static constexpr std::array<fp2_type, 6> v2 = [] {
        std::array<fp2_type, 6> r{};
        for (unsigned k = 0; k < 6; ++k) {
            ct g2 = gamma_ct[k] * gamma_ct[k];
            r[k] = (g2 * g2).get();
        }
        return r;
    }();
};

template <class Config>
struct fp6 {
    using config = Config;
    /// The quadratic extension below (Fp2).
    using base = typename Config::base;
    using prime_field = typename base::base;
    using frobenius_table = tower_frobenius<Config>;
    static constexpr size_t degree = 6;

    base c0;  ///< coefficient of 1
    base c1;  ///< coefficient of v
    base c2;  ///< coefficient of v^2

    // ---- construction -------------------------------------------------------------------

    CUZK_HD static constexpr fp6 zero() { return fp6{}; }
    CUZK_HD static constexpr fp6 one() { return fp6{base::one(), base::zero(), base::zero()}; }
    CUZK_HD static constexpr fp6 from_base(const base& a) { return fp6{a, base::zero(), base::zero()}; }

    template <class Rng>
    static fp6 random(Rng& rng) {
        base a = base::random(rng);
        base b = base::random(rng);
        base c = base::random(rng);
        return fp6{a, b, c};
    }

    // ---- predicates ----------------------------------------------------------------------

    CUZK_HD constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
    CUZK_HD constexpr bool is_one() const { return c0 == base::one() && c1.is_zero() && c2.is_zero(); }
    CUZK_HD constexpr friend bool operator==(const fp6& a, const fp6& b) {
        return a.c0 == b.c0 && a.c1 == b.c1 && a.c2 == b.c2;
    }
    CUZK_HD constexpr friend bool operator!=(const fp6& a, const fp6& b) { return !(a == b); }

    // ---- arithmetic ----------------------------------------------------------------------

    /// xi * a for an Fp2 element (v^3 = xi).
    CUZK_HD static constexpr base mul_base_by_nonresidue(const base& a) {
        return mul_fp2_by_small_nonresidue<base, Config::nonresidue_c0, Config::nonresidue_c1>(a);
    }
    /// v * this = xi c2 + c0 v + c1 v^2 (the non-residue of the Fp12 level).
    CUZK_HD constexpr fp6 mul_by_nonresidue() const { return fp6{mul_base_by_nonresidue(c2), c0, c1}; }

    CUZK_HD constexpr friend fp6 operator+(const fp6& a, const fp6& b) {
        return fp6{a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2};
    }
    CUZK_HD constexpr friend fp6 operator-(const fp6& a, const fp6& b) {
        return fp6{a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2};
    }
    CUZK_HD constexpr fp6 operator-() const { return fp6{-c0, -c1, -c2}; }
    CUZK_HD constexpr fp6 dbl() const { return fp6{c0.dbl(), c1.dbl(), c2.dbl()}; }

    /// Karatsuba over three coefficients: 6 Fp2 multiplications (Devegili et al. 2006, sec. 4).
    CUZK_HD constexpr friend fp6 operator*(const fp6& a, const fp6& b) {
        base v0 = a.c0 * b.c0;
        base v1 = a.c1 * b.c1;
        base v2 = a.c2 * b.c2;
        base r0 = mul_base_by_nonresidue((a.c1 + a.c2) * (b.c1 + b.c2) - v1 - v2) + v0;
        base r1 = (a.c0 + a.c1) * (b.c0 + b.c1) - v0 - v1 + mul_base_by_nonresidue(v2);
        base r2 = (a.c0 + a.c2) * (b.c0 + b.c2) - v0 + v1 - v2;
        return fp6{r0, r1, r2};
    }
    /// Multiplies every coefficient by an Fp2 element (3 Fp2 multiplications).
    CUZK_HD constexpr fp6 mul_by_base(const base& b) const { return fp6{c0 * b, c1 * b, c2 * b}; }

    /// this * (b0 + b1 v): 5 Fp2 multiplications (sparse operand of pairing lines).
    CUZK_HD constexpr fp6 mul_by_01(const base& b0, const base& b1) const {
        base v0 = c0 * b0;
        base v1 = c1 * b1;
        base r0 = mul_base_by_nonresidue(c2 * b1) + v0;
        base r1 = (c0 + c1) * (b0 + b1) - v0 - v1;
        base r2 = (c0 + c2) * b0 - v0 + v1;
        return fp6{r0, r1, r2};
    }
    /// this * (b1 v): 3 Fp2 multiplications.
    CUZK_HD constexpr fp6 mul_by_1(const base& b1) const {
        return fp6{mul_base_by_nonresidue(c2 * b1), c0 * b1, c1 * b1};
    }

    /// Chung-Hasan SQR2: 2 Fp2 multiplications and 3 squarings.
    CUZK_HD constexpr fp6 square() const {
        base s0 = c0.square();
        base s1 = (c0 * c1).dbl();
        base s2 = (c0 - c1 + c2).square();
        base s3 = (c1 * c2).dbl();
        base s4 = c2.square();
        return fp6{s0 + mul_base_by_nonresidue(s3), s1 + mul_base_by_nonresidue(s4), s1 + s2 + s3 - s0 - s4};
    }

    CUZK_HD constexpr fp6& operator+=(const fp6& b) { return *this = *this + b; }
    CUZK_HD constexpr fp6& operator-=(const fp6& b) { return *this = *this - b; }
    CUZK_HD constexpr fp6& operator*=(const fp6& b) { return *this = *this * b; }

    /// Inverse through the adjugate: (t0 + t1 v + t2 v^2) / (c0 t0 + xi (c2 t1 + c1 t2)); inverse(0) = 0.
    CUZK_HD constexpr fp6 inverse() const {
        base t0 = c0.square() - mul_base_by_nonresidue(c1 * c2);
        base t1 = mul_base_by_nonresidue(c2.square()) - c0 * c1;
        base t2 = c1.square() - c0 * c2;
        base d = c0 * t0 + mul_base_by_nonresidue(c2 * t1 + c1 * t2);
        base di = d.inverse();
        return fp6{t0 * di, t1 * di, t2 * di};
    }

    /// this^(p^K) for a compile-time K: conjugate the coefficients K times and scale
    /// v and v^2 by xi^((p^K - 1)/3) and its square.
    template <unsigned K>
    CUZK_HD constexpr fp6 frobenius_map() const {
        constexpr base k1 = frobenius_table::v1[K % 6];
        constexpr base k2 = frobenius_table::v2[K % 6];
        return fp6{c0.frobenius_map(K), c1.frobenius_map(K) * k1, c2.frobenius_map(K) * k2};
    }
    /// this^(p^k) for a run-time k.
    CUZK_HD constexpr fp6 frobenius_map(unsigned k) const {
        switch (k % 6) {
            case 0: return *this;
            case 1: return frobenius_map<1>();
            case 2: return frobenius_map<2>();
            case 3: return frobenius_map<3>();
            case 4: return frobenius_map<4>();
            default: return frobenius_map<5>();
        }
    }

    /// this^e by square-and-multiply; time depends on the exponent (public exponents only).
    template <size_t M>
    CUZK_HD constexpr fp6 pow_vartime(const bigint<M>& e) const {
        fp6 acc = one();
        for (size_t i = e.num_bits(); i-- > 0;) {
            acc = acc.square();
            if (e.bit(i)) acc *= *this;
        }
        return acc;
    }
    CUZK_HD constexpr fp6 pow_vartime(uint64_t e) const { return pow_vartime(bigint<1>{{e}}); }
};

}  // namespace cuzk
