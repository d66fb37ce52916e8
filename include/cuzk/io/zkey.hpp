// SPDX-License-Identifier: MIT OR Apache-2.0
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
//   10 MPC transcript: csHash[64], u32 nContributions, contributions (read by `snarkjs zkey
//      contribute/verify/beacon`, never by the prover; the reader ignores it)
// Points are affine, coordinates little-endian in Montgomery form w.r.t. 2^(8*n8q), G2 as c0
// then c1, infinity all-zero bytes: exactly cuzk's in-memory layout (affine<G> is its two
// coordinates, no flag or padding: static_asserts in io/field_io.hpp), so point sections are read
// straight into their vectors (one copy of a large key in memory) and then validated. From a
// mapped file (io/mapped_file.hpp) they are not read at all: every point is checked where it lies
// in the page cache and the key's vectors are views of the mapping (groth16/key_points.hpp),
// where the section's offset in the file is aligned for the point type. Sections alternate in
// alignment (each section header is 12 bytes): an unaligned one is copied as from any other
// source, since the arithmetic (and the compiler's vectorised loops) may assume aligned limbs.
//
// write_zkey is the exact inverse of zkey::read: sections 1..10 in order, the same encodings,
// and a section 10 with no contributions (see write_zkey).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/groth16/key_points.hpp"
#include "cuzk/io/binfile.hpp"
#include "cuzk/io/mapped_file.hpp"
#include "cuzk/core/bulk_vector.hpp"
#include "cuzk/io/parallel_chunks.hpp"
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
    /// From a source whose bytes are stable (a mapped file, byte_source::stable_bytes), leave the
    /// aligned point sections where they are: checked in place, the key's vectors views of them.
    /// Off: every point copied into the key's own memory, as from any source.
    bool zero_copy = true;
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
    // Owned, or views of the mapped file the key was read from (zkey_read_options::zero_copy).
    groth16::key_points<g1> a;                 ///< [A_s(tau)]_1, s < n_vars
    groth16::key_points<g1> b1;                ///< [B_s(tau)]_1
    groth16::key_points<g2> b2;                ///< [B_s(tau)]_2
    groth16::key_points<g1> c;                 ///< private signals' L points, s = n_public+1 ..
    groth16::key_points<g1> h;                 ///< H_i, i < domain_size (snarkjs's odd-coset basis)

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

    /// Coefficients per chunk: a thread reads its chunk into a buffer of its own (180 KiB for
    /// BN254) and parses it from there into the coefficient vector.
    static constexpr uint64_t coefficient_chunk = uint64_t(1) << 12;
    /// Bytes of one section 4 entry: matrix, constraint, signal (u32 each), value.
    static constexpr uint64_t coefficient_bytes = 12 + n8_of<fr>;

    /// Reads and validates a .zkey file, mapped (io/mapped_source: with zero_copy, the key's
    /// aligned point sections stay in the page cache).
    static zkey read(const std::string& path, zkey_read_options opt = {}) {
        return read(std::make_shared<mapped_source>(path), opt);
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

        // Every section's size is fixed by the header: all are checked before anything is allocated.
        auto point_section = [&](uint32_t id, uint64_t count, auto& vec) {
            using point = typename std::remove_reference_t<decltype(vec)>::value_type;
            auto r = f.reader(id);
            if (r.remaining() != count * sizeof(point))
                throw r.fail("size " + std::to_string(r.remaining()) + " disagrees with the header: expected " +
                             std::to_string(count) + " points of " + std::to_string(sizeof(point)) + " bytes");
            return std::pair{r, r.take(count * sizeof(point))};
        };
        const uint64_t nv = out.n_vars, n_ic = uint64_t(out.n_public) + 1;
        auto [ic_r, ic_at] = point_section(3, n_ic, out.vk.ic);
        auto [a_r, a_at] = point_section(5, nv, out.a);
        auto [b1_r, b1_at] = point_section(6, nv, out.b1);
        auto [b2_r, b2_at] = point_section(7, nv, out.b2);
        auto [c_r, c_at] = point_section(8, nv - n_ic, out.c);
        auto [h_r, h_at] = point_section(9, out.domain_size, out.h);
        auto coef_r = f.reader(4);
        const uint32_t n_coeffs = coef_r.u32();
        if (coef_r.remaining() != uint64_t(n_coeffs) * coefficient_bytes)
            throw coef_r.fail("size disagrees with nCoeffs = " + std::to_string(n_coeffs) + " (expected " +
                              std::to_string(uint64_t(n_coeffs) * coefficient_bytes + 4) + " bytes)");
        const uint64_t coef_at = coef_r.take(uint64_t(n_coeffs) * coefficient_bytes);

        // Sections are read one after the other, each by the whole team. Fresh memory costs as
        // much as checking the points in it (the kernel zeroes it; in a VM the host backs it
        // first, ~1 s per GB on one core of the 2-core development VM): all storage is reserved
        // up front, and while the team reads section k it also populates the pages of section
        // k + 2, and one thread of it sizes section k + 1 (populated already: a memset). A section
        // left in a mapping (zero_copy) has no storage: it is only checked.
        const byte_source& bytes = f.source();
        const std::span<const uint8_t> stable = opt.zero_copy ? bytes.stable_bytes() : std::span<const uint8_t>{};
        auto in_place = [&](uint64_t at, size_t align) {
            return stable.size() == bytes.size() && !stable.empty() &&
                   reinterpret_cast<uintptr_t>(stable.data() + at) % align == 0;
        };
        const bool view_a = in_place(a_at, alignof(g1)), view_b1 = in_place(b1_at, alignof(g1)),
                   view_b2 = in_place(b2_at, alignof(g2)), view_c = in_place(c_at, alignof(g1)),
                   view_h = in_place(h_at, alignof(g1));
        const uint64_t n_c = nv - n_ic, n_h = out.domain_size;
        auto& a = out.a.owned();
        auto& b1 = out.b1.owned();
        auto& b2 = out.b2.owned();
        auto& c = out.c.owned();
        auto& h = out.h.owned();
        resize_for_bulk_read(out.vk.ic, n_ic);
        if (!view_a) reserve_for_bulk_read(a, nv);
        if (!view_b1) reserve_for_bulk_read(b1, nv);
        if (!view_b2) reserve_for_bulk_read(b2, nv);
        if (!view_c) reserve_for_bulk_read(c, n_c);
        if (!view_h) reserve_for_bulk_read(h, n_h);
        reserve_for_bulk_read(out.coeffs, n_coeffs);
        auto storage = [](auto& v) { return fresh_pages{v.data(), v.capacity() * sizeof(v[0])}; };
        auto size = [](auto& v, uint64_t n, bool view) {
            return [&v, n, view] {
                if (!view) v.resize(n);
            };
        };
        // The points of one section: read into v, or (view) checked in the mapping and viewed.
        auto section = [&](const section_reader& r, uint64_t at, auto& v, groth16::key_points<typename
                           std::remove_reference_t<decltype(v)>::value_type>& dst, uint64_t n, bool view,
                           const char* what, std::initializer_list<fresh_pages> touch, auto&& prepare) {
            using point = typename std::remove_reference_t<decltype(v)>::value_type;
            if (!view) return read_points_at(bytes, r, at, v, chk, sub, what, touch, prepare);
            const auto* pts = reinterpret_cast<const point*>(stable.data() + at);
            check_points_in_place(pts, n, r, chk, sub, what, touch, prepare);
            dst = groth16::key_points<point>::view({pts, size_t(n)}, f.shared_source());
        };
        read_points_at(bytes, ic_r, ic_at, out.vk.ic, chk, sub, "IC point", {storage(a), storage(b1)}, [] {});
        if (!view_a) a.resize(nv);
        section(a_r, a_at, a, out.a, nv, view_a, "A point", {storage(b2)}, size(b1, nv, view_b1));
        section(b1_r, b1_at, b1, out.b1, nv, view_b1, "B1 point", {storage(c)}, size(b2, nv, view_b2));
        section(b2_r, b2_at, b2, out.b2, nv, view_b2, "B2 point", {storage(h)}, size(c, n_c, view_c));
        section(c_r, c_at, c, out.c, n_c, view_c, "C point", {storage(out.coeffs)}, size(h, n_h, view_h));
        section(h_r, h_at, h, out.h, n_h, view_h, "H point", {}, [&] { out.coeffs.resize(n_coeffs); });
        read_coefficients(bytes, coef_r, coef_at, out);
        return out;
    }

private:
    /// Section 4's entries at `at` into out.coeffs (sized already), in parallel chunks; throws
    /// r.fail naming the first bad entry.
    static void read_coefficients(const byte_source& src, const section_reader& r, uint64_t at, zkey& out) {
        const uint32_t domain = out.domain_size, vars = out.n_vars;
        // One entry: matrix, constraint, signal (u32 each), then s = c*R^2 mod r. Read as a
        // Montgomery form, s is the element c*R, whose canonical integer c*R is the Montgomery
        // form of c: one reduction undoes it. Returns why it is bad, or nullptr.
        auto parse = [domain, vars](const uint8_t* b, zkey_coefficient<fr>& e) -> const char* {
            const uint32_t m = binfile::le32(b);
            e.constraint = binfile::le32(b + 4);
            e.signal = binfile::le32(b + 8);
            typename fr::integer stored{};
            std::memcpy(&stored, b + 12, n8_of<fr>);
            if (m > 1) return "matrix is neither 0 (A) nor 1 (B)";
            if (e.constraint >= domain) return "constraint is not below domainSize";
            if (e.signal >= vars) return "signal is not below nVars";
            if (!below_modulus<fr>(stored)) return "value is not below the modulus r";
            e.matrix = zkey_matrix(m);
            e.value = fr::from_montgomery_unchecked(fr::from_montgomery_unchecked(stored).to_canonical());
            return nullptr;
        };
        zkey_coefficient<fr>* coeffs = out.coeffs.data();
        const uint64_t count = out.coeffs.size();
        const uint64_t first_bad = decode_chunks(
            count, coefficient_chunk, size_t(coefficient_chunk * coefficient_bytes), {}, [] {},
            [&](uint64_t lo, uint64_t hi, uint8_t* buf) {
                src.read_at(at + lo * coefficient_bytes, buf, size_t(hi - lo) * coefficient_bytes);
                for (uint64_t i = lo; i < hi; ++i)
                    if (parse(buf + (i - lo) * coefficient_bytes, coeffs[i]) != nullptr) return i;
                return hi;
            });
        if (first_bad < count) {
            uint8_t b[coefficient_bytes];
            src.read_at(at + first_bad * coefficient_bytes, b, coefficient_bytes);
            zkey_coefficient<fr> e{};
            const char* why = parse(b, e);
            const uint32_t m = binfile::le32(b);
            std::string detail = why;
            if (m > 1) detail = "matrix " + std::to_string(m) + " is neither 0 (A) nor 1 (B)";
            else if (e.constraint >= domain) detail = "constraint " + std::to_string(e.constraint) + " is not below domainSize";
            else if (e.signal >= vars) detail = "signal " + std::to_string(e.signal) + " is not below nVars";
            throw r.fail("coefficient " + std::to_string(first_bad) + ": " + detail);
        }
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

namespace cuzk::io {

/// Options for write_zkey.
struct zkey_write_options {
    /// Section 10's csHash: snarkjs puts a BLAKE2b-512 of the initial key there and uses it
    /// only to chain later contributions (`snarkjs zkey contribute`, `zkey verify`). A key that
    /// did not come from a snarkjs ceremony has no such hash; all zeros by default.
    std::array<uint8_t, 64> cs_hash{};
};

/// Writes `key` as a snarkjs Groth16 .zkey (version 1, sections 1..10 in order): the exact
/// inverse of zkey::read (reading the file back gives `key` again). Coefficients are written
/// as c*R^2 mod r, points as they sit in memory (affine, Montgomery, identity all zeros), and
/// section 10 as csHash followed by zero contributions. Throws invalid_argument if the vectors
/// disagree with the counts (or the counts with each other), cuzk::error on I/O failure.
template <class Curve>
void write_zkey(const std::string& path, const zkey<Curve>& key, const zkey_write_options& opt = {}) {
    using fq = typename Curve::fq;
    using fr = typename Curve::fr;
    using g1 = typename Curve::g1_point;
    using g2 = typename Curve::g2_point;
    static_assert(sizeof(g1) == 2 * n8_of<fq> && sizeof(g2) == 4 * n8_of<fq>, "points must be their coordinates");
    auto bad = [&](const std::string& what) { return invalid_argument(path + ": write_zkey: " + what); };
    const uint64_t nv = key.n_vars, np = key.n_public, d = key.domain_size;
    if (np + 1 > nv) throw bad("n_public + 1 > n_vars");
    if (d == 0 || (d & (d - 1)) != 0 || key.domain_log2() > fr::two_adicity)
        throw bad("domain_size " + std::to_string(d) + " is not a power of two within Fr's 2-adicity");
    if (np + 1 > d) throw bad("domain_size is smaller than n_public + 1");
    auto count = [&](const char* name, size_t have, uint64_t want) {
        if (have != want)
            throw bad(std::string(name) + " has " + std::to_string(have) + " entries, expected " + std::to_string(want));
    };
    count("vk.ic", key.vk.ic.size(), np + 1);
    count("a", key.a.size(), nv);
    count("b1", key.b1.size(), nv);
    count("b2", key.b2.size(), nv);
    count("c", key.c.size(), nv - np - 1);
    count("h", key.h.size(), d);
    if (key.coeffs.size() > UINT32_MAX) throw bad("more than 2^32 - 1 coefficients");
    for (size_t i = 0; i < key.coeffs.size(); ++i) {
        const auto& e = key.coeffs[i];
        if ((e.matrix != zkey_matrix::a && e.matrix != zkey_matrix::b) || e.constraint >= d || e.signal >= nv)
            throw bad("coefficient " + std::to_string(i) + " has a bad matrix, constraint or signal");
    }

    binfile_writer w(path, "zkey", 1, 10);
    w.begin_section(1);
    w.u32(1);  // Groth16
    w.end_section();

    w.begin_section(2);
    w.u32(uint32_t(n8_of<fq>));
    w.write(&fq::modulus, n8_of<fq>);
    w.u32(uint32_t(n8_of<fr>));
    w.write(&fr::modulus, n8_of<fr>);
    w.u32(key.n_vars);
    w.u32(key.n_public);
    w.u32(key.domain_size);
    w.write(&key.vk.alpha1, sizeof(g1));
    w.write(&key.vk.beta1, sizeof(g1));
    w.write(&key.vk.beta2, sizeof(g2));
    w.write(&key.vk.gamma2, sizeof(g2));
    w.write(&key.vk.delta1, sizeof(g1));
    w.write(&key.vk.delta2, sizeof(g2));
    w.end_section();

    auto points = [&](uint32_t id, const auto& vec) {
        w.begin_section(id);
        w.write(vec.data(), vec.size() * sizeof(vec[0]));
        w.end_section();
    };
    points(3, key.vk.ic);

    // c*R^2 mod r: c.mont is the integer c*R; as a canonical value its Montgomery form is c*R^2.
    w.begin_section(4);
    w.u32(uint32_t(key.coeffs.size()));
    std::vector<uint8_t> buf;
    constexpr size_t entry = 12 + n8_of<fr>;
    constexpr size_t chunk = size_t(1) << 14;
    buf.reserve(chunk * entry);
    for (size_t i = 0; i < key.coeffs.size(); ++i) {
        const auto& e = key.coeffs[i];
        const typename fr::integer stored = fr::from_canonical_unchecked(e.value.mont).mont;
        for (uint32_t v : {uint32_t(e.matrix), e.constraint, e.signal})
            for (int k = 0; k < 4; ++k) buf.push_back(uint8_t(v >> (8 * k)));
        const auto* p = reinterpret_cast<const uint8_t*>(&stored);
        buf.insert(buf.end(), p, p + n8_of<fr>);
        if (buf.size() >= chunk * entry) w.write(buf.data(), buf.size()), buf.clear();
    }
    w.write(buf.data(), buf.size());
    w.end_section();

    points(5, key.a);
    points(6, key.b1);
    points(7, key.b2);
    points(8, key.c);
    points(9, key.h);

    w.begin_section(10);
    w.write(opt.cs_hash.data(), opt.cs_hash.size());
    w.u32(0);  // no contributions
    w.end_section();
    w.close();
}

/// The curve of a zkey from the base-field prime of its header; throws decode_error for a
/// malformed file or another prime.
inline curve_id zkey_curve(const binfile& f) {
    auto r = f.reader(2);
    const uint32_t n8q = r.u32();
    if (n8q != 32 && n8q != 48)
        throw r.fail("base field of " + std::to_string(n8q) + " bytes is neither BN254's nor BLS12-381's");
    const std::vector<uint8_t> q = r.bytes(n8q);
    if (is_modulus<bn254::fq>(q)) return curve_id::bn254;
    if (is_modulus<bls12_381::fp>(q)) return curve_id::bls12_381;
    throw r.fail("base field prime is neither BN254's nor BLS12-381's");
}

/// nPublic from a zkey's header (sections 1 and 2 only, as rapidsnark's size queries read).
template <class IoCurve>
uint32_t zkey_n_public(const binfile& f) {
    {
        auto r = f.reader(1);
        if (const uint32_t protocol = r.u32(); protocol != 1)
            throw r.fail("protocol " + std::to_string(protocol) + " is not supported, only 1 (Groth16)");
    }
    auto r = f.reader(2);
    read_field_header<typename IoCurve::fq>(r, "base field (q)");
    read_field_header<typename IoCurve::fr>(r, "scalar field (r)");
    (void)r.u32();  // nVars
    return r.u32();
}

}  // namespace cuzk::io
