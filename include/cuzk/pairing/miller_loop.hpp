// SPDX-License-Identifier: MIT OR Apache-2.0
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
#include <string>
#include <vector>

#include "cuzk/core/bigint.hpp"
#include "cuzk/core/error.hpp"
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

/// The events of the optimal ate Miller loop, in order; the same for every (P, Q) pair.
enum class miller_step { square, dbl, add, sub, frob1, frob2_neg };

/// Calls visit(miller_step) in Miller loop order for the config's loop parameter:
/// BLS12: double-and-add over the bits of |x| below the top one;
/// BN: double-and-add/subtract over the NAF of 6u + 2, then the lines through pi(Q) and -pi^2(Q).
template <class Config, class Visit>
inline void miller_schedule(Visit&& visit) {
    if constexpr (Config::bls12_family) {
        constexpr uint64_t x = Config::loop_param;
        int top = 63;
        while (!((x >> top) & 1)) --top;
        for (int i = top - 1; i >= 0; --i) {
            visit(miller_step::square);
            visit(miller_step::dbl);
            if ((x >> i) & 1) visit(miller_step::add);
        }
    } else {
        static_assert(!Config::loop_param_negative, "BN curves with u < 0 are not supported yet");
        constexpr auto naf = naf_of(u128(6) * Config::loop_param + 2);
        for (size_t i = naf.length - 1; i-- > 0;) {
            visit(miller_step::square);
            visit(miller_step::dbl);
            if (naf.digit[i] == 1) visit(miller_step::add);
            if (naf.digit[i] == -1) visit(miller_step::sub);
        }
        visit(miller_step::frob1);
        visit(miller_step::frob2_neg);
    }
}

}  // namespace cuzk::pairing_detail

namespace cuzk {

/// A G2 point prepared for Miller loops: the line coefficients of every step, computed once.
/// Worth it for points used in many pairings (a Groth16 verifying key's beta, gamma, delta);
/// evaluating prepared lines skips all G2 arithmetic.
template <class Config>
struct g2_prepared {
    using fp2 = typename Config::g2::field;
    /// Lines in Miller loop order; empty for the identity.
    std::vector<pairing_detail::line_coeffs<fp2>> lines;

    bool is_identity() const { return lines.empty(); }

    /// Runs the G2 side of the Miller loop for Q (affine, assumed in G2).
    static g2_prepared prepare(const affine<typename Config::g2>& q) {
        g2_prepared out;
        if (q.is_identity()) return out;
        pairing_detail::g2_projective<fp2> t{q.x, q.y, fp2::one()};
        pairing_detail::miller_schedule<Config>([&](pairing_detail::miller_step s) {
            using pairing_detail::miller_step;
            switch (s) {
                case miller_step::square:
                    break;
                case miller_step::dbl:
                    out.lines.push_back(pairing_detail::doubling_step<Config>(t));
                    break;
                case miller_step::add:
                    out.lines.push_back(pairing_detail::addition_step(t, q.x, q.y));
                    break;
                case miller_step::sub:
                    out.lines.push_back(pairing_detail::addition_step(t, q.x, -q.y));
                    break;
                case miller_step::frob1: {
                    // pi (untwist - Frobenius - twist) on a D-type twist:
                    // (x, y) -> (conj(x) g^2, conj(y) g^3), g = xi^((p-1)/6).
                    constexpr fp2 g = Config::gt_field::frobenius_table::gamma[1];
                    const fp2 gx = g.square();
                    out.lines.push_back(pairing_detail::addition_step(t, q.x.conjugate() * gx, q.y.conjugate() * (gx * g)));
                    break;
                }
                case miller_step::frob2_neg: {
                    // -pi^2: (x, y) -> (x g2^2, -y g2^3), g2 = xi^((p^2-1)/6).
                    constexpr fp2 g = Config::gt_field::frobenius_table::gamma[2];
                    const fp2 gx = g.square();
                    out.lines.push_back(pairing_detail::addition_step(t, q.x * gx, -(q.y * (gx * g))));
                    break;
                }
            }
        });
        return out;
    }
};

/// The product over i of the Miller functions f_{loop, Q_i}(P_i) for prepared Q_i (one shared
/// squaring chain). Pairs with an identity point contribute 1; meaningful only after
/// final_exponentiation. Throws invalid_argument when the spans differ in length.
template <class Config>
typename Config::gt_field miller_loop_prepared_vartime(std::span<const affine<typename Config::g1>> ps,
                                                       std::span<const g2_prepared<Config>* const> qs) {
    using fp12 = typename Config::gt_field;
    if (ps.size() != qs.size())
        throw invalid_argument("miller_loop_prepared_vartime: " + std::to_string(ps.size()) + " G1 points but " +
                               std::to_string(qs.size()) + " G2 points");
    struct active {
        typename Config::g1::field xp, yp;
        const g2_prepared<Config>* q;
    };
    std::vector<active> work;
    work.reserve(ps.size());
    for (size_t i = 0; i < ps.size(); ++i) {
        if (ps[i].is_identity() || qs[i]->is_identity()) continue;
        work.push_back(active{ps[i].x, ps[i].y, qs[i]});
    }
    fp12 f = fp12::one();
    if (work.empty()) return f;
    size_t line = 0;
    bool first = true;
    pairing_detail::miller_schedule<Config>([&](pairing_detail::miller_step s) {
        if (s == pairing_detail::miller_step::square) {
            if (!first) f = f.square();  // 1^2 = 1
            first = false;
            return;
        }
        for (const auto& a : work) pairing_detail::mul_by_line<Config>(f, a.q->lines[line], a.xp, a.yp);
        ++line;
    });
    // x < 0 (BLS12): f_{x,Q} = 1 / f_{|x|,Q} up to a vertical line (killed by the final
    // exponentiation), and 1/f equals conj(f) after it.
    if constexpr (Config::loop_param_negative) f = f.conjugate();
    return f;
}

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
    std::vector<affine<typename Config::g1>> ps;
    std::vector<g2_prepared<Config>> prepared;
    ps.reserve(inputs.size());
    prepared.reserve(inputs.size());
    for (const auto& in : inputs) {
        if (in.p.is_identity() || in.q.is_identity()) continue;
        ps.push_back(in.p);
        prepared.push_back(g2_prepared<Config>::prepare(in.q));
    }
    std::vector<const g2_prepared<Config>*> qs;
    qs.reserve(prepared.size());
    for (const auto& q : prepared) qs.push_back(&q);
    return miller_loop_prepared_vartime<Config>(ps, qs);
}

}  // namespace cuzk
