// SPDX-License-Identifier: MIT OR Apache-2.0
// Helpers for the io/ tests: writers of small synthetic iden3 files (written here from the
// format notes, independently of the readers) and mutation utilities.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cuzk/io/binfile.hpp"
#include "cuzk/ec/subgroup.hpp"
#include "cuzk/io/snarkjs_curve.hpp"

namespace cuzk::io::iotest {

using bytes = std::vector<uint8_t>;

/// Little-endian byte writer.
struct writer {
    bytes b;
    writer& u32(uint32_t v) {
        for (int i = 0; i < 4; ++i) b.push_back(uint8_t(v >> (8 * i)));
        return *this;
    }
    writer& u64(uint64_t v) {
        for (int i = 0; i < 8; ++i) b.push_back(uint8_t(v >> (8 * i)));
        return *this;
    }
    writer& raw(const void* p, size_t n) {
        auto* c = static_cast<const uint8_t*>(p);
        b.insert(b.end(), c, c + n);
        return *this;
    }
    template <size_t N>
    writer& integer(const bigint<N>& x) {
        for (size_t i = 0; i < 8 * N; ++i) b.push_back(uint8_t(x.limb[i / 8] >> (8 * (i % 8))));
        return *this;
    }
    /// Canonical little-endian value (.r1cs, .wtns).
    template <class F>
    writer& canonical(const F& v) {
        return integer(v.to_canonical());
    }
    /// Little-endian Montgomery form w.r.t. 2^(64 limbs) (zkey coordinates).
    template <class F>
    writer& mont(const F& v) {
        if constexpr (requires { v.c1; }) {
            mont(v.c0);
            return mont(v.c1);
        } else {
            return integer(v.mont);
        }
    }
    template <class P>
    writer& point(const P& p) {
        mont(p.x);
        return mont(p.y);
    }
};

/// An iden3 container: magic, version, then the sections in the given order.
struct container {
    std::string magic;
    uint32_t version;
    std::vector<std::pair<uint32_t, bytes>> sections;

    bytes build() const {
        writer w;
        w.raw(magic.data(), 4).u32(version).u32(uint32_t(sections.size()));
        for (const auto& [id, data] : sections) {
            w.u32(id).u64(data.size());
            w.raw(data.data(), data.size());
        }
        return w.b;
    }
    /// Byte offsets of each section's 12-byte header, in file order.
    std::vector<size_t> header_offsets() const {
        std::vector<size_t> out;
        size_t pos = 12;
        for (const auto& s : sections) {
            out.push_back(pos);
            pos += 12 + s.second.size();
        }
        return out;
    }
};

inline std::shared_ptr<const byte_source> source_of(const bytes& b, std::string name) {
    // The source refers to the caller's bytes; keep a copy alive with it.
    struct owning : byte_source {
        bytes data;
        owning(bytes d, std::string n) : byte_source(std::move(n)), data(std::move(d)) {}
        uint64_t size() const override { return data.size(); }
        void read_at(uint64_t off, void* dst, size_t n) const override {
            memory_source(data, name()).read_at(off, dst, n);
        }
    };
    return std::make_shared<owning>(b, std::move(name));
}

/// A point on y^2 = x^3 + b with random x (not necessarily in the prime-order subgroup:
/// the readers check only the curve equation, as snarkjs does).
template <class P, class F, class Rng>
P random_on_curve(const F& b, Rng& rng) {
    for (;;) {
        F x = F::random(rng);
        auto y = (x.square() * x + b).sqrt();
        if (y) return P{x, *y};
    }
}

/// A random point of the prime-order subgroup: a random curve point times the cofactor.
template <class P, class Rng>
P random_in_subgroup(Rng& rng) {
    using G = typename P::group;
    return to_affine(clear_cofactor(random_on_curve<P>(G::b, rng)));
}

/// A small circuit with its witness, in r1cs terms: wires 0 = ONE, 1 = out, 2 = x (public in),
/// 3 = y (private), 4 = t.  Constraints: x*y = t;  t*(t+1) = out - 3;  (x + y)*1 = x + y  (linear).
template <class Curve>
struct toy_circuit {
    using fr = typename Curve::fr;
    static constexpr uint32_t n_wires = 5, n_pub_out = 1, n_pub_in = 1, n_prv_in = 1, n_constraints = 3;
    struct term {
        uint32_t wire;
        fr value;
    };
    using lc = std::vector<term>;
    std::vector<std::array<lc, 3>> constraints;
    std::vector<fr> witness;

    toy_circuit() {
        const fr one = fr::one(), minus_one = -fr::one();
        constraints.push_back({lc{{2, one}}, lc{{3, one}}, lc{{4, one}}});
        constraints.push_back({lc{{4, one}}, lc{{4, one}, {0, one}}, lc{{1, one}, {0, -fr::from_u64(3)}}});
        constraints.push_back({lc{}, lc{}, lc{{2, one}, {3, one}, {2, minus_one}, {3, minus_one}}});
        const fr x = fr::from_u64(7), y = fr::from_u64(1000003);
        const fr t = x * y;
        witness = {one, t * (t + one) + fr::from_u64(3), x, y, t};
    }

    bytes r1cs_header() const {
        writer w;
        w.u32(32).integer(fr::modulus).u32(n_wires).u32(n_pub_out).u32(n_pub_in).u32(n_prv_in).u64(n_wires).u32(
            n_constraints);
        return w.b;
    }
    bytes r1cs_constraints() const {
        writer w;
        for (const auto& c : constraints)
            for (const auto& l : c) {
                w.u32(uint32_t(l.size()));
                for (const auto& t : l) w.u32(t.wire).canonical(t.value);
            }
        return w.b;
    }
    bytes r1cs_labels() const {
        writer w;
        for (uint32_t i = 0; i < n_wires; ++i) w.u64(i);
        return w.b;
    }
    /// The .r1cs, sections in circom's order 2, 1, 3.
    container r1cs() const {
        return {"r1cs", 1, {{2, r1cs_constraints()}, {1, r1cs_header()}, {3, r1cs_labels()}}};
    }
    container wtns() const {
        writer h, v;
        h.u32(32).integer(fr::modulus).u32(uint32_t(witness.size()));
        for (const auto& x : witness) v.canonical(x);
        return {"wtns", 2, {{1, h.b}, {2, v.b}}};
    }
};

/// A structurally valid synthetic Groth16 zkey: random on-curve points, known coefficients.
template <class Curve>
struct toy_zkey {
    using fq = typename Curve::fq;
    using fr = typename Curve::fr;
    using g1 = typename Curve::g1_point;
    using g2 = typename Curve::g2_point;
    static constexpr uint32_t n_vars = 6, n_public = 2, domain_size = 8;
    struct coef {
        uint32_t matrix, constraint, signal;
        fr value;
    };
    std::vector<g1> header_g1;  // alpha1, beta1, delta1
    std::vector<g2> header_g2;  // beta2, gamma2, delta2
    std::vector<g1> ic, a, b1, c, h;
    std::vector<g2> b2;
    std::vector<coef> coeffs;

    explicit toy_zkey(uint64_t seed = 1) {
        std::mt19937_64 rng(seed);
        auto p1 = [&] { return random_on_curve<g1>(Curve::g1_b(), rng); };
        auto p2 = [&] { return random_on_curve<g2>(Curve::g2_b(), rng); };
        for (int i = 0; i < 3; ++i) header_g1.push_back(p1()), header_g2.push_back(p2());
        for (uint32_t i = 0; i <= n_public; ++i) ic.push_back(p1());
        for (uint32_t i = 0; i < n_vars; ++i) {
            a.push_back(p1()), b1.push_back(p1()), b2.push_back(p2());
        }
        a[4] = g1{};  // an unused signal: infinity, all-zero bytes
        b2[5] = g2{};
        for (uint32_t i = 0; i < n_vars - n_public - 1; ++i) c.push_back(p1());
        for (uint32_t i = 0; i < domain_size; ++i) h.push_back(p1());
        for (uint32_t i = 0; i < 7; ++i) coeffs.push_back({i % 2, i % 5, (3 * i) % n_vars, fr::random(rng)});
        coeffs.push_back({0, 3, 0, -fr::one()});
    }

    /// R^2 mod r as a field element whose canonical value is 2^512 mod r (for c*R^2).
    static fr r_squared() {
        fr two64 = fr::from_u64(1u << 16).square().square();  // 2^64
        fr r = fr::one();
        for (int i = 0; i < 8; ++i) r *= two64;  // 2^512
        return r;
    }

    container build() const {
        writer s1, s2, s3, s4, s5, s6, s7, s8, s9, s10;
        s1.u32(1);
        s2.u32(uint32_t(sizeof(typename fq::integer))).integer(fq::modulus).u32(32).integer(fr::modulus);
        s2.u32(n_vars).u32(n_public).u32(domain_size);
        s2.point(header_g1[0]).point(header_g1[1]).point(header_g2[0]).point(header_g2[1]).point(header_g1[2]).point(
            header_g2[2]);
        for (const auto& p : ic) s3.point(p);
        s4.u32(uint32_t(coeffs.size()));
        const fr r2 = r_squared();
        for (const auto& e : coeffs) s4.u32(e.matrix).u32(e.constraint).u32(e.signal).canonical(e.value * r2);
        for (const auto& p : a) s5.point(p);
        for (const auto& p : b1) s6.point(p);
        for (const auto& p : b2) s7.point(p);
        for (const auto& p : c) s8.point(p);
        for (const auto& p : h) s9.point(p);
        s10.raw("transcript", 10);
        return {"zkey", 1, {{1, s1.b}, {2, s2.b}, {4, s4.b}, {3, s3.b}, {5, s5.b}, {6, s6.b}, {7, s7.b},
                            {8, s8.b}, {9, s9.b}, {10, s10.b}}};
    }
};

}  // namespace cuzk::io::iotest
