// Miller loop of the optimal ate pairing (host), written once for the BLS12 and BN models.
//
// A pairing config (curves/<curve>.hpp, `pairing_config`) names G1, G2, the Fp12 of GT, the
// family (BLS12 or BN), the twist type (M or D) and the loop parameter (|x| or |u| and its
// sign). G2 points are on the sextic twist E2: y^2 = x^3 + b2 over Fp2; the loop keeps
// T in homogeneous projective coordinates (x = X/Z, y = Y/Z) and evaluates each line at P.
//
// Lines (derivations: Costello, Lange, Naehrig, "Faster pairing computations on curves with
// high-degree twists", PKC 2010). Untwisting maps (x', y') to (x' w^2, y' w^3) for a D-type
// twist and to (x' / w^2, y' / w^3) for an M-type twist (w^6 = xi), so a line through T with
// twist slope L, evaluated at P = (xP, yP), is
//   D-type:        yP - L xP w + (L xT - yT) w^3            -> fp12::mul_by_034
//   M-type (w^3):  (L xT - yT) - L xP w^2 + yP w^3          -> fp12::mul_by_014
// Lines are scaled by Fp2 factors (and by w^3 for M-type twists); those lie in proper subfields
// of Fp12 and vanish in the final exponentiation.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/core/bigint.hpp"
#include "cuzk/ec/affine.hpp"

namespace cuzk::pairing_detail {

/// A G2 point in homogeneous projective coordinates, private to the Miller loop.
template <class Fp2>
struct g2_projective {
    Fp2 x, y, z;
};

/// The three non-zero Fp2 coefficients of a line before it is evaluated at P: the constant
/// (`c`), the coefficient of xP (`cx`) and the coefficient of yP (`cy`).
template <class Fp2>
struct line_coeffs {
    Fp2 c, cx, cy;
};

/// Multiplies f by the line evaluated at P = (xp, yp), placing the coefficients by twist type.
template <class Config, class Fp12, class Fp2, class Fp>
inline void mul_by_line(Fp12& f, const line_coeffs<Fp2>& l, const Fp& xp, const Fp& yp) {
    if constexpr (Config::twist_m_type) {
        // c + (cx xP) w^2 + (cy yP) w^3  (w^2 = v: index 1; w^3 = v w: index 4)
        f = f.mul_by_014(l.c, l.cx.mul_by_base(xp), l.cy.mul_by_base(yp));
    } else {
        // (cy yP) + (cx xP) w + c w^3  (w: index 3; w^3: index 4)
        f = f.mul_by_034(l.cy.mul_by_base(yp), l.cx.mul_by_base(xp), l.c);
    }
}

/// T <- 2T; returns the tangent line at T. Homogeneous doubling for y^2 = x^3 + b (a = 0):
/// with B = Y^2, C = Z^2, E = 3b C, F = 3E, H = 2YZ, I = E - B, J = X^2:
///   X3 = XY/2 (B - F), Y3 = ((B + F)/2)^2 - 3E^2, Z3 = B H;
///   line (negated, times 2YZ): I + 3J xP (w or w^2 term) - H yP. Cost about 3M + 7S.
template <class Config, class Fp2>
inline line_coeffs<Fp2> doubling_step(g2_projective<Fp2>& t) {
    using fp = typename Fp2::base;
    constexpr Fp2 b2 = Config::g2::b;
    constexpr fp two_inv = fp::from_u64(2).inverse();
    Fp2 a = (t.x * t.y).mul_by_base(two_inv);
    Fp2 b = t.y.square();
    Fp2 c = t.z.square();
    Fp2 e = (c.dbl() + c) * b2;  // 3 b C
    Fp2 f = e.dbl() + e;         // 9 b C
    Fp2 g = (b + f).mul_by_base(two_inv);
    Fp2 h = (t.y + t.z).square() - (b + c);  // 2 Y Z
    Fp2 i = e - b;
    Fp2 j = t.x.square();
    Fp2 e2 = e.square();
    t.x = a * (b - f);
    t.y = g.square() - (e2.dbl() + e2);
    t.z = b * h;
    return line_coeffs<Fp2>{i, j.dbl() + j, -h};
}

/// T <- T + Q for affine Q; returns the line through T and Q. With theta = Y - y2 Z and
/// lambda = X - x2 Z (slope theta / lambda): C = theta^2, D = lambda^2, E = lambda D, F = Z C,
/// G = X D, H = E + F - 2G: X3 = lambda H, Y3 = theta (G - H) - Y E, Z3 = Z E;
/// line (times lambda): (theta x2 - lambda y2) - theta xP (w or w^2 term) + lambda yP. About 11M + 2S.
template <class Fp2>
inline line_coeffs<Fp2> addition_step(g2_projective<Fp2>& t, const Fp2& x2, const Fp2& y2) {
    Fp2 theta = t.y - y2 * t.z;
    Fp2 lambda = t.x - x2 * t.z;
    Fp2 c = theta.square();
    Fp2 d = lambda.square();
    Fp2 e = lambda * d;
    Fp2 f = t.z * c;
    Fp2 g = t.x * d;
    Fp2 h = e + f - g.dbl();
    Fp2 j = theta * x2 - lambda * y2;
    t.x = lambda * h;
    t.y = theta * (g - h) - t.y * e;
    t.z = t.z * e;
    return line_coeffs<Fp2>{j, -theta, lambda};
}

/// Non-adjacent form of a small non-negative integer, least significant digit first.
struct naf_digits {
    std::array<int8_t, 130> digit{};
    size_t length = 0;
};
constexpr naf_digits naf_of(u128 k) {
    naf_digits r{};
    while (k != 0) {
        int8_t d = 0;
        if (k & 1) {
            d = (k & 3) == 3 ? -1 : 1;
            if (d == 1) k -= 1; else k += 1;
        }
        r.digit[r.length++] = d;
        k >>= 1;
    }
    return r;
}

}  // namespace cuzk::pairing_detail

namespace cuzk {

/// One (P, Q) input of a Miller loop: P in G1 (over Fp), Q in G2 (over Fp2), both affine.
/// The caller is responsible for subgroup membership (pairing_check validates nothing).
template <class Config>
struct pairing_input {
    affine<typename Config::g1> p;
    affine<typename Config::g2> q;
};

/// The product over all inputs of the Miller functions f_{loop, Q}(P) of the optimal ate
/// pairing (one shared squaring chain). Pairs with an identity point contribute 1. The result
/// is meaningful only after final_exponentiation. Variable time (public inputs only).
template <class Config>
typename Config::gt_field miller_loop_vartime(std::span<const pairing_input<Config>> inputs) {
    using fp12 = typename Config::gt_field;
    using fp2 = typename Config::g2::field;
    using proj = pairing_detail::g2_projective<fp2>;

    struct active {
        typename Config::g1::field xp, yp;
        fp2 qx, qy;
        proj t;
    };
    std::vector<active> work;
    work.reserve(inputs.size());
    for (const auto& in : inputs) {
        if (in.p.is_identity() || in.q.is_identity()) continue;
        work.push_back(active{in.p.x, in.p.y, in.q.x, in.q.y, proj{in.q.x, in.q.y, fp2::one()}});
    }
    fp12 f = fp12::one();
    if (work.empty()) return f;

    auto dbl_all = [&] {
        f = f.square();
        for (auto& a : work) {
            auto l = pairing_detail::doubling_step<Config>(a.t);
            pairing_detail::mul_by_line<Config>(f, l, a.xp, a.yp);
        }
    };
    auto add_all = [&](bool negate) {
        for (auto& a : work) {
            auto l = pairing_detail::addition_step(a.t, a.qx, negate ? -a.qy : a.qy);
            pairing_detail::mul_by_line<Config>(f, l, a.xp, a.yp);
        }
    };

    if constexpr (Config::bls12_family) {
        // f_{|x|, Q}: double-and-add over the bits of |x| below the top one.
        constexpr uint64_t x = Config::loop_param;
        int top = 63;
        while (!((x >> top) & 1)) --top;
        for (int i = top - 1; i >= 0; --i) {
            dbl_all();
            if ((x >> i) & 1) add_all(false);
        }
        // x < 0: f_{x,Q} = 1 / f_{|x|,Q} up to a vertical line (killed by the final
        // exponentiation), and 1/f equals conj(f) after it.
        if constexpr (Config::loop_param_negative) f = f.conjugate();
    } else {
        // BN: f_{6u+2, Q} over the NAF of 6u + 2, then the lines through pi(Q) and -pi^2(Q).
        static_assert(!Config::loop_param_negative, "BN curves with u < 0 are not supported yet");
        constexpr auto naf = pairing_detail::naf_of(u128(6) * Config::loop_param + 2);
        for (size_t i = naf.length - 1; i-- > 0;) {
            dbl_all();
            if (naf.digit[i] == 1) add_all(false);
            if (naf.digit[i] == -1) add_all(true);
        }
        // pi (untwist - Frobenius - twist) on a D-type twist: (x, y) -> (conj(x) g^2, conj(y) g^3)
        // with g = xi^((p-1)/6); pi^2: (x, y) -> (x g2^2, y g2^3) with g2 = xi^((p^2-1)/6).
        using table = typename fp12::frobenius_table;
        constexpr fp2 g1 = table::gamma[1];
        constexpr fp2 g2 = table::gamma[2];
        const fp2 g1x = g1.square(), g1y = g1x * g1;
        const fp2 g2x = g2.square(), g2y = g2x * g2;
        for (auto& a : work) {
            fp2 q1x = a.qx.conjugate() * g1x, q1y = a.qy.conjugate() * g1y;
            fp2 q2x = a.qx * g2x, q2y = -(a.qy * g2y);
            auto l1 = pairing_detail::addition_step(a.t, q1x, q1y);
            pairing_detail::mul_by_line<Config>(f, l1, a.xp, a.yp);
            auto l2 = pairing_detail::addition_step(a.t, q2x, q2y);
            pairing_detail::mul_by_line<Config>(f, l2, a.xp, a.yp);
        }
    }
    return f;
}

}  // namespace cuzk
