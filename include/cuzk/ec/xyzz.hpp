// SPDX-License-Identifier: MIT OR Apache-2.0
// xyzz<G>: extended Jacobian coordinates (X : Y : ZZ : ZZZ) = (X/ZZ, Y/ZZZ), ZZ^3 = ZZZ^2.
//
// The bucket representation for MSM: mixed addition of an affine point costs 8M + 2S (Jacobian:
// 7M + 4S, but XYZZ has no squaring of Z and cheaper doubling-free accumulation), and the
// formulas need no Z^2/Z^3 recomputation. Identity: ZZ = 0 (canonical: all zero bytes, so a
// zero-filled bucket array is all identities). Exceptional inputs are handled by branches on
// public values, identically on host and device.
#pragma once

#include "cuzk/core/hd.hpp"
#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/jacobian.hpp"

namespace cuzk {

template <class G>
struct xyzz {
    using group = G;
    using field = typename G::field;
    using scalar = typename G::scalar;

    field x;
    field y;
    field zz;
    field zzz;

    /// The identity (all zero).
    CUZK_HD static constexpr xyzz identity() { return xyzz{}; }
    CUZK_HD static constexpr xyzz generator() { return from_affine(affine<G>::generator()); }
    /// (x, y) -> (x : y : 1 : 1); the affine identity (0, 0) -> the identity.
    CUZK_HD static constexpr xyzz from_affine(const affine<G>& a) {
        if (a.is_identity()) return identity();
        return xyzz{a.x, a.y, field::one(), field::one()};
    }
    /// (X : Y : Z) -> (X : Y : Z^2 : Z^3): 1M + 1S.
    CUZK_HD static constexpr xyzz from_jacobian(const jacobian<G>& p) {
        if (p.is_identity()) return identity();
        field z2 = p.z.square();
        return xyzz{p.x, p.y, z2, z2 * p.z};
    }

    CUZK_HD constexpr bool is_identity() const { return zz.is_zero(); }

    /// Y^2 == X^3 + b ZZ^3 and ZZ^3 == ZZZ^2, or the identity.
    CUZK_HD constexpr bool is_on_curve() const {
        if (is_identity()) return true;
        constexpr field b = G::b;
        field zz3 = zz.square() * zz;
        return zzz.square() == zz3 && y.square() == x.square() * x + b * zz3;
    }

    /// (X : -Y : ZZ : ZZZ).
    CUZK_HD constexpr xyzz operator-() const { return xyzz{x, -y, zz, zzz}; }

    /// 2P. dbl-2008-s-1 (a = 0): 6M + 3S. Identity in, identity out (ZZ3 = V ZZ1 = 0).
    CUZK_HD constexpr xyzz dbl() const {
        field u = y.dbl();                        // U = 2 Y1
        field v = u.square();                     // V = U^2
        field w = u * v;                          // W = U V
        field s = x * v;                          // S = X1 V
        field x2 = x.square();
        field m = x2.dbl() + x2;                  // M = 3 X1^2 (a = 0)
        xyzz r{};
        r.x = m.square() - s.dbl();               // X3 = M^2 - 2S
        r.y = m * (s - r.x) - w * y;              // Y3 = M (S - X3) - W Y1
        r.zz = v * zz;                            // ZZ3 = V ZZ1
        r.zzz = w * zzz;                          // ZZZ3 = W ZZZ1
        return r;
    }

    /// 2Q for affine Q, into XYZZ. mdbl-2008-s-1 (a = 0): 2M + 3S (affine identity -> identity).
    CUZK_HD static constexpr xyzz dbl(const affine<G>& q) {
        if (q.is_identity()) return identity();
        field u = q.y.dbl();                      // U = 2 Y1
        field v = u.square();                     // V = U^2
        field w = u * v;                          // W = U V
        field s = q.x * v;                        // S = X1 V
        field x2 = q.x.square();
        field m = x2.dbl() + x2;                  // M = 3 X1^2
        xyzz r{};
        r.x = m.square() - s.dbl();               // X3 = M^2 - 2S
        r.y = m * (s - r.x) - w * q.y;            // Y3 = M (S - X3) - W Y1
        r.zz = v;                                 // ZZ3 = V
        r.zzz = w;                                // ZZZ3 = W
        return r;
    }

    /// P + Q. add-2008-s: 12M + 2S, plus the exceptional cases (identity, P == Q, P == -Q).
    CUZK_HD constexpr friend xyzz operator+(const xyzz& p, const xyzz& q) {
        if (p.is_identity()) return q;
        if (q.is_identity()) return p;
        field u1 = p.x * q.zz;                    // U1 = X1 ZZ2
        field u2 = q.x * p.zz;                    // U2 = X2 ZZ1
        field s1 = p.y * q.zzz;                   // S1 = Y1 ZZZ2
        field s2 = q.y * p.zzz;                   // S2 = Y2 ZZZ1
        field pp_ = u2 - u1;                      // P = U2 - U1
        field rr = s2 - s1;                       // R = S2 - S1
        if (pp_.is_zero()) {
            if (rr.is_zero()) return p.dbl();     // same point: the add formula would give 0/0
            return identity();                    // P + (-P)
        }
        field pp = pp_.square();                  // PP = P^2
        field ppp = pp_ * pp;                     // PPP = P PP
        field qq = u1 * pp;                       // Q = U1 PP
        xyzz r{};
        r.x = rr.square() - ppp - qq.dbl();       // X3 = R^2 - PPP - 2Q
        r.y = rr * (qq - r.x) - s1 * ppp;         // Y3 = R (Q - X3) - S1 PPP
        r.zz = p.zz * q.zz * pp;                  // ZZ3 = ZZ1 ZZ2 PP
        r.zzz = p.zzz * q.zzz * ppp;              // ZZZ3 = ZZZ1 ZZZ2 PPP
        return r;
    }

    /// P + Q with Q affine. madd-2008-s: 8M + 2S, plus the exceptional cases. The MSM bucket step.
    CUZK_HD constexpr friend xyzz operator+(const xyzz& p, const affine<G>& q) {
        if (q.is_identity()) return p;
        if (p.is_identity()) return from_affine(q);
        field u2 = q.x * p.zz;                    // U2 = X2 ZZ1
        field s2 = q.y * p.zzz;                   // S2 = Y2 ZZZ1
        field pp_ = u2 - p.x;                     // P = U2 - X1
        field rr = s2 - p.y;                      // R = S2 - Y1
        if (pp_.is_zero()) {
            if (rr.is_zero()) return dbl(q);      // same point: double the affine input (2M + 3S)
            return identity();
        }
        field pp = pp_.square();                  // PP = P^2
        field ppp = pp_ * pp;                     // PPP = P PP
        field qq = p.x * pp;                      // Q = X1 PP
        xyzz r{};
        r.x = rr.square() - ppp - qq.dbl();       // X3 = R^2 - PPP - 2Q
        r.y = rr * (qq - r.x) - p.y * ppp;        // Y3 = R (Q - X3) - Y1 PPP
        r.zz = p.zz * pp;                         // ZZ3 = ZZ1 PP
        r.zzz = p.zzz * ppp;                      // ZZZ3 = ZZZ1 PPP
        return r;
    }
    CUZK_HD constexpr friend xyzz operator+(const affine<G>& q, const xyzz& p) { return p + q; }

    CUZK_HD constexpr friend xyzz operator-(const xyzz& p, const xyzz& q) { return p + (-q); }
    CUZK_HD constexpr friend xyzz operator-(const xyzz& p, const affine<G>& q) { return p + (-q); }
    CUZK_HD constexpr xyzz& operator+=(const xyzz& q) { return *this = *this + q; }
    CUZK_HD constexpr xyzz& operator+=(const affine<G>& q) { return *this = *this + q; }
    CUZK_HD constexpr xyzz& operator-=(const xyzz& q) { return *this = *this - q; }
    CUZK_HD constexpr xyzz& operator-=(const affine<G>& q) { return *this = *this - q; }

    /// Same point: X1 ZZ2 == X2 ZZ1 and Y1 ZZZ2 == Y2 ZZZ1 (or both identity).
    CUZK_HD constexpr friend bool operator==(const xyzz& p, const xyzz& q) {
        if (p.is_identity() || q.is_identity()) return p.is_identity() && q.is_identity();
        return p.x * q.zz == q.x * p.zz && p.y * q.zzz == q.y * p.zzz;
    }
    CUZK_HD constexpr friend bool operator==(const xyzz& p, const affine<G>& q) {
        if (p.is_identity() || q.is_identity()) return p.is_identity() && q.is_identity();
        return p.x == q.x * p.zz && p.y == q.y * p.zzz;
    }
    /// Same point as a Jacobian one: X1 Z2^2 == X2 ZZ1 and Y1 Z2^3 == Y2 ZZZ1.
    CUZK_HD constexpr friend bool operator==(const xyzz& p, const jacobian<G>& q) {
        if (p.is_identity() || q.is_identity()) return p.is_identity() && q.is_identity();
        field z2 = q.z.square();
        return p.x * z2 == q.x * p.zz && p.y * z2 * q.z == q.y * p.zzz;
    }
};

/// (X/ZZ, Y/ZZZ) with one inversion: 1/ZZZ, then 1/ZZ = (ZZ/ZZZ)^2 (as ZZ^3 = ZZZ^2). 3M + 1S + I.
template <class G>
CUZK_HD constexpr affine<G> to_affine(const xyzz<G>& p) {
    using field = typename G::field;
    if (p.is_identity()) return affine<G>::identity();
    field izzz = p.zzz.inverse();                 // Z^-3
    field iz = izzz * p.zz;                       // Z^-1
    return affine<G>{p.x * iz.square(), p.y * izzz};
}

/// XYZZ -> Jacobian without inversion: Z = ZZ ZZZ, X = X ZZ ZZZ^2, Y = Y ZZ^3 ZZZ^2 (5M + 2S).
/// Correct for any ZZ, ZZZ != 0 with X/ZZ, Y/ZZZ on the curve (not only ZZ^3 = ZZZ^2).
template <class G>
CUZK_HD constexpr jacobian<G> to_jacobian(const xyzz<G>& p) {
    using field = typename G::field;
    if (p.is_identity()) return jacobian<G>::identity();
    field zzz2 = p.zzz.square();
    field t = p.zz * zzz2;                        // ZZ ZZZ^2
    return jacobian<G>{p.x * t, p.y * p.zz.square() * t, p.zz * p.zzz};
}

/// Explicit conversions into XYZZ.
template <class G>
CUZK_HD constexpr xyzz<G> to_xyzz(const affine<G>& a) {
    return xyzz<G>::from_affine(a);
}
template <class G>
CUZK_HD constexpr xyzz<G> to_xyzz(const jacobian<G>& p) {
    return xyzz<G>::from_jacobian(p);
}

}  // namespace cuzk
