// zkey: a snarkjs Groth16 proving key (iden3/snarkjs src/zkey_new.js, src/zkey_utils.js).
//
//   magic "zkey", version 1
//   1  u32 protocol (1 = Groth16)
//   2  u32 n8q, q[n8q], u32 n8r, r[n8r], u32 nVars, u32 nPublic, u32 domainSize,
//      then G1 alpha, G1 beta, G2 beta, G2 gamma, G1 delta, G2 delta (this order: the comment in
//      zkey_utils.js lists another; the code is what counts)
//   3  IC: nPublic + 1 G1 points
//   4  u32 nCoeffs, then nCoeffs * (u32 matrix (0 = A, 1 = B), u32 constraint, u32 signal, value[n8r])
//      with value = c * R^2 mod r, R = 2^256 (only A and B; C is folded into IC and the C points;
//      one A row per public signal incl. ONE is appended after the r1cs constraints)
//   5  A: nVars G1     6  B1: nVars G1     7  B2: nVars G2
//   8  C: nVars - nPublic - 1 G1 (the private signals)
//   9  H: domainSize G1, H_i = [L_{2i+1}(tau) / delta]_1 over the doubled domain (not tau^i Z(tau))
//   10 MPC transcript (ignored)
// Points are affine, coordinates little-endian in Montgomery form w.r.t. 2^(8*n8q), G2 as c0
// then c1, infinity all-zero bytes: exactly cuzk's in-memory layout, so point sections are read
// straight into their vectors (one copy of a large key in memory) and then validated.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cuzk/io/binfile.hpp"
#include "cuzk/io/field_io.hpp"
#include "cuzk/io/snarkjs_curve.hpp"

namespace cuzk::io {

/// Which sparse matrix a zkey coefficient belongs to.
enum class zkey_matrix : uint32_t { a = 0, b = 1 };

/// One entry of section 4: matrix[constraint][signal] = value.
template <class Fr>
struct zkey_coefficient {
    zkey_matrix matrix;
    uint32_t constraint;
    uint32_t signal;
    /// The coefficient c as a field element. The file stores c*R^2 mod r; the reader undoes
    /// the extra factor, so value * w is simply c * w in Fr.
    Fr value;
};

/// Groth16 verification key as it sits in a zkey (and in verification_key.json).
template <class Curve>
struct groth16_vk {
    using g1 = typename Curve::g1_point;
    using g2 = typename Curve::g2_point;
    g1 alpha1;
    g1 beta1;
    g2 beta2;
    g2 gamma2;
    g1 delta1;
    g2 delta2;
    /// IC_0 .. IC_nPublic.
    std::vector<g1> ic;
    /// Number of public signals, excluding the constant ONE.
    uint32_t n_public() const { return ic.empty() ? 0 : uint32_t(ic.size() - 1); }
};

/// Options for zkey::read.
struct zkey_read_options {
    /// Check that every point is on its curve (cheap next to the read: a few multiplications
    /// per point, in parallel). Coordinates are always checked to be below q.
    bool check_points = true;
    /// Also check that every point is in the prime-order subgroup (ec/subgroup.hpp; about a
    /// scalar multiplication per point, far slower than the read; snarkjs never checks).
    bool check_subgroup = false;
};

/// A parsed snarkjs Groth16 .zkey: everything a prover needs, resident in memory.
template <class Curve>
struct zkey {
    using curve = Curve;
    using fq = typename Curve::fq;
    using fr = typename Curve::fr;
    using g1 = typename Curve::g1_point;
    using g2 = typename Curve::g2_point;

    uint32_t n_vars = 0;       ///< all signals incl. ONE (= r1cs nWires = wtns length)
    uint32_t n_public = 0;     ///< public signals excl. ONE
    uint32_t domain_size = 0;  ///< power of two >= nConstraints + nPublic + 1

    groth16_vk<Curve> vk;                     ///< alpha1, beta1, beta2, gamma2, delta1, delta2, IC
    std::vector<zkey_coefficient<fr>> coeffs;  ///< A and B entries (section 4)
    std::vector<g1> a;                         ///< [A_s(tau)]_1, s < n_vars
    std::vector<g1> b1;                        ///< [B_s(tau)]_1
    std::vector<g2> b2;                        ///< [B_s(tau)]_2
    std::vector<g1> c;                         ///< private signals' L points, s = n_public+1 ..
    std::vector<g1> h;                         ///< H_i, i < domain_size (snarkjs's odd-coset basis)

    /// log2(domain_size).
    uint32_t domain_log2() const {
        uint32_t k = 0;
        while ((uint32_t(1) << k) < domain_size) ++k;
        return k;
    }

    /// Section names for error messages.
    static std::string section_name(uint32_t id) {
        static const char* const names[] = {"",          "protocol",  "Groth16 header", "IC points", "coefficients",
                                            "A points",  "B1 points", "B2 points",      "C points",  "H points",
                                            "contributions"};
        return id < 11 ? names[id] : "";
    }

    /// Reads and validates a .zkey file.
    static zkey read(const std::string& path, zkey_read_options opt = {}) {
        return read(std::make_shared<file_source>(path), opt);
    }

    /// Reads and validates .zkey bytes from any source.
    static zkey read(std::shared_ptr<const byte_source> src, zkey_read_options opt = {}) {
        binfile f(std::move(src), "zkey", 1, &section_name);
        {
            auto r = f.reader(1);
            const uint32_t protocol = r.u32();
            r.expect_end();
            if (protocol != 1)
                throw r.fail("protocol " + std::to_string(protocol) +
                             (protocol == 2 ? " (PLONK)" : protocol == 10 ? " (FFLONK)" : "") +
                             " is not supported, only 1 (Groth16)");
        }
        f.require_known_sections({1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
        for (uint32_t id = 2; id <= 9; ++id) (void)f.section(id);  // all present, before reading any
        const bool chk = opt.check_points;
        const bool sub = opt.check_subgroup;
        zkey out;

        {
            auto r = f.reader(2);
            read_field_header<fq>(r, "base field (q)");
            read_field_header<fr>(r, "scalar field (r)");
            out.n_vars = r.u32();
            out.n_public = r.u32();
            out.domain_size = r.u32();
            if (uint64_t(out.n_public) + 1 > out.n_vars)
                throw r.fail("nPublic = " + std::to_string(out.n_public) + " leaves no room for ONE in nVars = " +
                             std::to_string(out.n_vars));
            const uint32_t d = out.domain_size;
            if (d == 0 || (d & (d - 1)) != 0)
                throw r.fail("domainSize = " + std::to_string(d) + " is not a power of two");
            if (out.domain_log2() > fr::two_adicity)
                throw r.fail("domainSize = 2^" + std::to_string(out.domain_log2()) + " exceeds the 2-adicity " +
                             std::to_string(fr::two_adicity) + " of Fr");
            if (uint64_t(out.n_public) + 1 > d)
                throw r.fail("domainSize = " + std::to_string(d) + " is smaller than nPublic + 1 = " +
                             std::to_string(uint64_t(out.n_public) + 1));
            out.vk.alpha1 = read_point<g1>(r, chk, "alpha1", sub);
            out.vk.beta1 = read_point<g1>(r, chk, "beta1", sub);
            out.vk.beta2 = read_point<g2>(r, chk, "beta2", sub);
            out.vk.gamma2 = read_point<g2>(r, chk, "gamma2", sub);
            out.vk.delta1 = read_point<g1>(r, chk, "delta1", sub);
            out.vk.delta2 = read_point<g2>(r, chk, "delta2", sub);
            r.expect_end();
        }

        // Every point section's size is fixed by the header: check it before allocating.
        auto point_section = [&](uint32_t id, uint64_t count, auto& vec, std::string_view what) {
            using point = typename std::remove_reference_t<decltype(vec)>::value_type;
            auto r = f.reader(id);
            if (r.remaining() != count * sizeof(point))
                throw r.fail("size " + std::to_string(r.remaining()) + " disagrees with the header: expected " +
                             std::to_string(count) + " points of " + std::to_string(sizeof(point)) + " bytes");
            read_point_array(r, count, vec, chk, what, sub);
            r.expect_end();
        };
        point_section(3, uint64_t(out.n_public) + 1, out.vk.ic, "IC point");
        point_section(5, out.n_vars, out.a, "A point");
        point_section(6, out.n_vars, out.b1, "B1 point");
        point_section(7, out.n_vars, out.b2, "B2 point");
        point_section(8, uint64_t(out.n_vars) - out.n_public - 1, out.c, "C point");
        point_section(9, out.domain_size, out.h, "H point");

        {
            auto r = f.reader(4);
            const uint32_t n = r.u32();
            constexpr uint64_t entry = 12 + n8_of<fr>;
            if (r.remaining() != uint64_t(n) * entry)
                throw r.fail("size disagrees with nCoeffs = " + std::to_string(n) + " (expected " +
                             std::to_string(uint64_t(n) * entry + 4) + " bytes)");
            out.coeffs.resize(n);
            // The file holds s = c*R^2 mod r. Read as a Montgomery form, s is the element c*R,
            // whose canonical integer c*R is the Montgomery form of c: one reduction undoes it.
            for (uint32_t i = 0; i < n; ++i) {
                auto& e = out.coeffs[i];
                const uint32_t m = r.u32();
                e.constraint = r.u32();
                e.signal = r.u32();
                typename fr::integer stored{};
                r.read(&stored, n8_of<fr>);
                auto at = [i] { return "coefficient " + std::to_string(i); };
                if (m > 1) throw r.fail(at() + ": matrix " + std::to_string(m) + " is neither 0 (A) nor 1 (B)");
                if (e.constraint >= out.domain_size)
                    throw r.fail(at() + ": constraint " + std::to_string(e.constraint) + " is not below domainSize");
                if (e.signal >= out.n_vars)
                    throw r.fail(at() + ": signal " + std::to_string(e.signal) + " is not below nVars");
                if (!below_modulus<fr>(stored)) throw r.fail(at() + ": value is not below the modulus r");
                e.matrix = zkey_matrix(m);
                e.value = fr::from_montgomery_unchecked(fr::from_montgomery_unchecked(stored).to_canonical());
            }
            r.expect_end();
        }
        return out;
    }
};

}  // namespace cuzk::io

namespace cuzk::io {

/// snarkjs's name of the curve a .zkey is for ("bn128" or "bls12381"), from the base-field
/// prime in its header; throws decode_error for any other prime or a malformed header.
inline std::string zkey_curve_name(const std::string& path) {
    binfile f(std::make_shared<file_source>(path), "zkey", 1, &zkey<bn128>::section_name);
    auto r = f.reader(2);
    const uint32_t n8q = r.u32();
    if (n8q != 32 && n8q != 48) throw r.fail("base field of " + std::to_string(n8q) + " bytes is neither BN254's nor BLS12-381's");
    std::vector<uint8_t> q = r.bytes(n8q);
    auto equals = [&](const auto& modulus) {
        for (size_t i = 0; i < n8q; ++i)
            if (q[i] != uint8_t(modulus.limb[i / 8] >> (8 * (i % 8)))) return false;
        return true;
    };
    if (n8q == 32 && equals(bn254::fq::modulus)) return "bn128";
    if (n8q == 48 && equals(bls12_381::fp::modulus)) return "bls12381";
    throw r.fail("base field prime is neither BN254's nor BLS12-381's");
}

}  // namespace cuzk::io
