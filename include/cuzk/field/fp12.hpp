// SPDX-License-Identifier: MIT OR Apache-2.0
// fp12<Config>: the quadratic extension Fp6[w]/(w^2 - v) at the top of the pairing tower,
// host and device. w^6 = xi, so an element c0 + c1 w is also sum_i x_i w^i over Fp2 with
// (x0..x5) = (c0.c0, c1.c0, c0.c1, c1.c1, c0.c2, c1.c2).
//
//   struct fp12_config { using base = fp6; };
//   using fp12 = cuzk::fp12<fp12_config>;
//
// Besides field arithmetic it carries what the pairing needs: sparse products with Miller
// loop lines (mul_by_014 for M-type twists, mul_by_034 for D-type twists) and squaring in
// the cyclotomic subgroup (Granger-Scott).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/field/fp6.hpp"

namespace cuzk {

template <class Config>
struct fp12 {
    using config = Config;
    /// The cubic extension below (Fp6).
    using base = typename Config::base;
    using fp2_type = typename base::base;
    using prime_field = typename fp2_type::base;
    using frobenius_table = typename base::frobenius_table;
    static constexpr size_t degree = 12;

    base c0;  ///< coefficient of 1
    base c1;  ///< coefficient of w

    // ---- construction -------------------------------------------------------------------

    CUZK_HD static constexpr fp12 zero() { return fp12{}; }
    CUZK_HD static constexpr fp12 one() { return fp12{base::one(), base::zero()}; }

    template <class Rng>
    static fp12 random(Rng& rng) {
        base a = base::random(rng);
        base b = base::random(rng);
        return fp12{a, b};
    }

    // ---- predicates ----------------------------------------------------------------------

    CUZK_HD constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
    CUZK_HD constexpr bool is_one() const { return c0 == base::one() && c1.is_zero(); }
    CUZK_HD constexpr friend bool operator==(const fp12& a, const fp12& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
    CUZK_HD constexpr friend bool operator!=(const fp12& a, const fp12& b) { return !(a == b); }

    // ---- arithmetic ----------------------------------------------------------------------

    CUZK_HD constexpr friend fp12 operator+(const fp12& a, const fp12& b) { return fp12{a.c0 + b.c0, a.c1 + b.c1}; }
    CUZK_HD constexpr friend fp12 operator-(const fp12& a, const fp12& b) { return fp12{a.c0 - b.c0, a.c1 - b.c1}; }
    CUZK_HD constexpr fp12 operator-() const { return fp12{-c0, -c1}; }
    CUZK_HD constexpr fp12 dbl() const { return fp12{c0.dbl(), c1.dbl()}; }

    /// Karatsuba: 3 Fp6 multiplications (w^2 = v).
    CUZK_HD constexpr friend fp12 operator*(const fp12& a, const fp12& b) {
        base v0 = a.c0 * b.c0;
        base v1 = a.c1 * b.c1;
        base s = (a.c0 + a.c1) * (b.c0 + b.c1);
        return fp12{v0 + v1.mul_by_nonresidue(), s - v0 - v1};
    }

    /// Complex squaring: 2 Fp6 multiplications.
    CUZK_HD constexpr fp12 square() const {
        base ab = c0 * c1;
        base t = (c0 + c1) * (c0 + c1.mul_by_nonresidue());
        return fp12{t - ab - ab.mul_by_nonresidue(), ab.dbl()};
    }

    CUZK_HD constexpr fp12& operator+=(const fp12& b) { return *this = *this + b; }
    CUZK_HD constexpr fp12& operator-=(const fp12& b) { return *this = *this - b; }
    CUZK_HD constexpr fp12& operator*=(const fp12& b) { return *this = *this * b; }

    /// c0 - c1 w = this^(p^6). On the cyclotomic subgroup (after the easy part of the final
    /// exponentiation) this is the inverse.
    CUZK_HD constexpr fp12 conjugate() const { return fp12{c0, -c1}; }

    /// Inverse through the norm to Fp6: conj / (c0^2 - v c1^2); inverse(0) = 0.
    CUZK_HD constexpr fp12 inverse() const {
        base t = (c0.square() - c1.square().mul_by_nonresidue()).inverse();
        return fp12{c0 * t, -(c1 * t)};
    }

    /// this^(p^K) for a compile-time K: Fp6 Frobenius on both halves, w scaled by
    /// gamma[K] = xi^((p^K - 1)/6).
    template <unsigned K>
    CUZK_HD constexpr fp12 frobenius_map() const {
        constexpr fp2_type g = frobenius_table::gamma[K % 12];
        return fp12{c0.template frobenius_map<K % 6>(), c1.template frobenius_map<K % 6>().mul_by_base(g)};
    }
    /// this^(p^k) for a run-time k.
    CUZK_HD constexpr fp12 frobenius_map(unsigned k) const {
        switch (k % 12) {
            case 0: return *this;
            case 1: return frobenius_map<1>();
            case 2: return frobenius_map<2>();
            case 3: return frobenius_map<3>();
            case 4: return frobenius_map<4>();
            case 5: return frobenius_map<5>();
            case 6: return frobenius_map<6>();
            case 7: return frobenius_map<7>();
            case 8: return frobenius_map<8>();
            case 9: return frobenius_map<9>();
            case 10: return frobenius_map<10>();
            default: return frobenius_map<11>();
        }
    }

    /// this^e by square-and-multiply; time depends on the exponent (public exponents only).
    template <size_t M>
    CUZK_HD constexpr fp12 pow_vartime(const bigint<M>& e) const {
        fp12 acc = one();
        for (size_t i = e.num_bits(); i-- > 0;) {
            acc = acc.square();
            if (e.bit(i)) acc *= *this;
        }
        return acc;
    }
    CUZK_HD constexpr fp12 pow_vartime(uint64_t e) const { return pow_vartime(bigint<1>{{e}}); }

    // ---- pairing helpers -------------------------------------------------------------------

    /// this * (l0 + l3 w + l4 v w): a line of a D-type twist (BN254). 13 Fp2 multiplications.
    CUZK_HD constexpr fp12 mul_by_034(const fp2_type& l0, const fp2_type& l3, const fp2_type& l4) const {
        base t0 = c0.mul_by_base(l0);
        base t1 = c1.mul_by_01(l3, l4);
        base s = (c0 + c1).mul_by_01(l0 + l3, l4);
        return fp12{t0 + t1.mul_by_nonresidue(), s - t0 - t1};
    }
    /// this * (l0 + l1 v + l4 v w): a line of an M-type twist (BLS12-381). 13 Fp2 multiplications.
    CUZK_HD constexpr fp12 mul_by_014(const fp2_type& l0, const fp2_type& l1, const fp2_type& l4) const {
        base t0 = c0.mul_by_01(l0, l1);
        base t1 = c1.mul_by_1(l4);
        base s = (c0 + c1).mul_by_01(l0, l1 + l4);
        return fp12{t0 + t1.mul_by_nonresidue(), s - t0 - t1};
    }

    /// Squaring in the cyclotomic subgroup (elements with f^(p^4 - p^2 + 1) = 1, e.g. after
    /// the easy part of the final exponentiation); wrong for other elements.
    /// Granger and Scott, "Faster squaring in the cyclotomic subgroup of sixth degree
    /// extensions" (PKC 2010), over Fp4 = Fp2[s]/(s^2 - xi) with s = w^3 and f = A + B w + C w^2:
    /// A' = 3A^2 - 2 conj(A), B' = 3 s C^2 + 2 conj(B), C' = 3B^2 - 2 conj(C). 9 Fp2 squarings' worth.
    CUZK_HD constexpr fp12 cyclotomic_square() const {
        // Fp2 coordinates: A = (c0.c0, c1.c1), B = (c1.c0, c0.c2), C = (c0.c1, c1.c2).
        fp2_type t0{}, t1{}, t2{}, t3{}, t4{}, t5{};
        fp4_square(t0, t1, c0.c0, c1.c1);
        fp4_square(t2, t3, c0.c1, c1.c2);
        fp4_square(t4, t5, c1.c0, c0.c2);
        auto three = [](const fp2_type& x) { return x.dbl() + x; };
        fp12 r{};
        r.c0.c0 = three(t0) - c0.c0.dbl();
        r.c1.c1 = three(t1) + c1.c1.dbl();
        r.c1.c0 = three(base::mul_base_by_nonresidue(t3)) + c1.c0.dbl();
        r.c0.c2 = three(t2) - c0.c2.dbl();
        r.c0.c1 = three(t4) - c0.c1.dbl();
        r.c1.c2 = three(t5) + c1.c2.dbl();
        return r;
    }

    /// this^e with cyclotomic squarings (this must be in the cyclotomic subgroup); variable time.
    template <size_t M>
    CUZK_HD constexpr fp12 cyclotomic_pow_vartime(const bigint<M>& e) const {
        fp12 acc = one();
        for (size_t i = e.num_bits(); i-- > 0;) {
            acc = acc.cyclotomic_square();
            if (e.bit(i)) acc *= *this;
        }
        return acc;
    }
    CUZK_HD constexpr fp12 cyclotomic_pow_vartime(uint64_t e) const {
        return cyclotomic_pow_vartime(bigint<1>{{e}});
    }

private:
    /// (x + y s)^2 = (x^2 + xi y^2) + 2xy s in Fp4 = Fp2[s]/(s^2 - xi).
    CUZK_HD static constexpr void fp4_square(fp2_type& r0, fp2_type& r1, const fp2_type& x, const fp2_type& y) {
        fp2_type x2 = x.square();
        fp2_type y2 = y.square();
        r0 = x2 + base::mul_base_by_nonresidue(y2);
        r1 = (x + y).square() - x2 - y2;
    }
};

}  // namespace cuzk
