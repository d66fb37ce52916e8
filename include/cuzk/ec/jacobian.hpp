// SPDX-License-Identifier: MIT OR Apache-2.0
// jacobian<G>: a point in Jacobian coordinates (X : Y : Z) = (X/Z^2, Y/Z^3), y^2 = x^3 + b.
//
// Identity: any Z = 0 (the canonical identity is all zero bytes, so memset(0) is identity).
// Every operation handles every exceptional input (identity either side, P + P through the
// add path, P + (-P)) by branching on public values: fine for public points, on host and
// device. Constant-time users (secret scalars) go through ec/scalar_mul.hpp, which selects
// the exceptional results without branches.
#pragma once

#include "cuzk/core/hd.hpp"
#include "cuzk/ec/affine.hpp"

namespace cuzk {

template <class G>
struct jacobian {
    using group = G;
    using field = typename G::field;
    using scalar = typename G::scalar;

    field x;
    field y;
    field z;

    /// The identity (all zero).
    CUZK_HD static constexpr jacobian identity() { return jacobian{}; }
    CUZK_HD static constexpr jacobian generator() { return from_affine(affine<G>::generator()); }
    /// (x, y) -> (x : y : 1); the affine identity (0, 0) -> the identity.
    CUZK_HD static constexpr jacobian from_affine(const affine<G>& a) {
        if (a.is_identity()) return identity();
        return jacobian{a.x, a.y, field::one()};
    }

    CUZK_HD constexpr bool is_identity() const { return z.is_zero(); }

    /// Y^2 == X^3 + b Z^6, or the identity.
    CUZK_HD constexpr bool is_on_curve() const {
        if (is_identity()) return true;
        constexpr field b = G::b;
        field z2 = z.square();
        field z6 = z2.square() * z2;
        return y.square() == x.square() * x + b * z6;
    }

    /// (X : -Y : Z).
    CUZK_HD constexpr jacobian operator-() const { return jacobian{x, -y, z}; }

    /// 2P. dbl-2009-l (a = 0): 2M + 5S. Identity in, identity out (Z3 = 2YZ = 0), no branch.
    CUZK_HD constexpr jacobian dbl() const {
        field a = x.square();                            // A = X1^2
        field b = y.square();                            // B = Y1^2
        field c = b.square();                            // C = B^2
        field d = ((x + b).square() - a - c).dbl();      // D = 2((X1 + B)^2 - A - C) = 4 X1 Y1^2
        field e = a.dbl() + a;                           // E = 3A (the slope numerator)
        field f = e.square();                            // F = E^2
        jacobian r{};
        r.x = f - d.dbl();                               // X3 = F - 2D
        r.y = e * (d - r.x) - c.dbl().dbl().dbl();       // Y3 = E (D - X3) - 8C
        r.z = (y * z).dbl();                             // Z3 = 2 Y1 Z1
        return r;
    }

    /// P + Q. add-2007-bl: 11M + 5S, plus the exceptional cases (identity, P == Q, P == -Q).
    CUZK_HD constexpr friend jacobian operator+(const jacobian& p, const jacobian& q) {
        if (p.is_identity()) return q;
        if (q.is_identity()) return p;
        field z1z1 = p.z.square();                       // Z1Z1 = Z1^2
        field z2z2 = q.z.square();                       // Z2Z2 = Z2^2
        field u1 = p.x * z2z2;                           // U1 = X1 Z2^2
        field u2 = q.x * z1z1;                           // U2 = X2 Z1^2
        field s1 = p.y * q.z * z2z2;                     // S1 = Y1 Z2^3
        field s2 = q.y * p.z * z1z1;                     // S2 = Y2 Z1^3
        field h = u2 - u1;                               // H = U2 - U1
        field rr = (s2 - s1).dbl();                      // r = 2 (S2 - S1)
        if (h.is_zero()) {
            if (rr.is_zero()) return p.dbl();            // same point: the add formula would give 0/0
            return identity();                           // P + (-P)
        }
        field i = h.dbl().square();                      // I = (2H)^2
        field j = h * i;                                 // J = H I
        field v = u1 * i;                                // V = U1 I
        jacobian r{};
        r.x = rr.square() - j - v.dbl();                 // X3 = r^2 - J - 2V
        r.y = rr * (v - r.x) - (s1 * j).dbl();           // Y3 = r (V - X3) - 2 S1 J
        r.z = ((p.z + q.z).square() - z1z1 - z2z2) * h;  // Z3 = ((Z1 + Z2)^2 - Z1Z1 - Z2Z2) H
        return r;
    }

    /// P + Q with Q affine (mixed addition). madd-2007-bl: 7M + 4S, plus the exceptional cases.
    CUZK_HD constexpr friend jacobian operator+(const jacobian& p, const affine<G>& q) {
        if (q.is_identity()) return p;
        if (p.is_identity()) return from_affine(q);
        field z1z1 = p.z.square();                       // Z1Z1 = Z1^2
        field u2 = q.x * z1z1;                           // U2 = X2 Z1^2
        field s2 = q.y * p.z * z1z1;                     // S2 = Y2 Z1^3
        field h = u2 - p.x;                              // H = U2 - X1
        field rr = (s2 - p.y).dbl();                     // r = 2 (S2 - Y1)
        if (h.is_zero()) {
            if (rr.is_zero()) return p.dbl();
            return identity();
        }
        field hh = h.square();                           // HH = H^2
        field i = hh.dbl().dbl();                        // I = 4 HH
        field j = h * i;                                 // J = H I
        field v = p.x * i;                               // V = X1 I
        jacobian r{};
        r.x = rr.square() - j - v.dbl();                 // X3 = r^2 - J - 2V
        r.y = rr * (v - r.x) - (p.y * j).dbl();          // Y3 = r (V - X3) - 2 Y1 J
        r.z = (p.z + h).square() - z1z1 - hh;            // Z3 = (Z1 + H)^2 - Z1Z1 - HH
        return r;
    }
    CUZK_HD constexpr friend jacobian operator+(const affine<G>& q, const jacobian& p) { return p + q; }

    CUZK_HD constexpr friend jacobian operator-(const jacobian& p, const jacobian& q) { return p + (-q); }
    CUZK_HD constexpr friend jacobian operator-(const jacobian& p, const affine<G>& q) { return p + (-q); }
    CUZK_HD constexpr jacobian& operator+=(const jacobian& q) { return *this = *this + q; }
    CUZK_HD constexpr jacobian& operator+=(const affine<G>& q) { return *this = *this + q; }
    CUZK_HD constexpr jacobian& operator-=(const jacobian& q) { return *this = *this - q; }
    CUZK_HD constexpr jacobian& operator-=(const affine<G>& q) { return *this = *this - q; }

    /// Same point: X1 Z2^2 == X2 Z1^2 and Y1 Z2^3 == Y2 Z1^3 (or both identity).
    CUZK_HD constexpr friend bool operator==(const jacobian& p, const jacobian& q) {
        if (p.is_identity() || q.is_identity()) return p.is_identity() && q.is_identity();
        field z1z1 = p.z.square();
        field z2z2 = q.z.square();
        return p.x * z2z2 == q.x * z1z1 && p.y * q.z * z2z2 == q.y * p.z * z1z1;
    }
    /// Same point as an affine one: X == x Z^2 and Y == y Z^3.
    CUZK_HD constexpr friend bool operator==(const jacobian& p, const affine<G>& q) {
        if (p.is_identity() || q.is_identity()) return p.is_identity() && q.is_identity();
        field zz = p.z.square();
        return p.x == q.x * zz && p.y == q.y * zz * p.z;
    }
};

/// (X/Z^2, Y/Z^3) with one inversion; the identity -> (0, 0). For many points use
/// batch_normalize (ec/batch_normalize.hpp), which shares one inversion among all of them.
template <class G>
CUZK_HD constexpr affine<G> to_affine(const jacobian<G>& p) {
    using field = typename G::field;
    if (p.is_identity()) return affine<G>::identity();
    field zi = p.z.inverse();
    field zi2 = zi.square();
    return affine<G>{p.x * zi2, p.y * zi2 * zi};
}

/// Explicit conversion affine -> Jacobian (Z = 1).
template <class G>
CUZK_HD constexpr jacobian<G> to_jacobian(const affine<G>& a) {
    return jacobian<G>::from_affine(a);
}

}  // namespace cuzk
