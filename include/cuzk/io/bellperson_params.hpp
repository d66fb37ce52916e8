// SPDX-License-Identifier: MIT OR Apache-2.0
// bellperson_params: Filecoin's Groth16 parameter files (bellperson `.params` and `.vk`, BLS12-381),
// read into groth16/ keys (counts and VK from a mapping, the point sections with parallel pread), and
// written from them; the digest parameters.json records.
//
// Layout (bellperson src/groth16/params.rs `Parameters::write` and verifying_key.rs
// `VerifyingKey::write`; the same walk in supraseal c2/cuda/groth16_srs.cuh `SRS_internal`). No
// header, magic or padding; counts are big-endian u32; points are zcash uncompressed encodings
// (G1 96 bytes x || y, G2 192 bytes x.c1 || x.c0 || y.c1 || y.c0, coordinates big-endian):
//
//   VK    alpha_g1 G1 | beta_g1 G1 | beta_g2 G2 | gamma_g2 G2 | delta_g1 G1 | delta_g2 G2   (864 bytes)
//         u32 n_ic | n_ic G1     (the constant one and each public input)
//   H     u32 n_h  | n_h G1      [tau^i Z(tau) / delta], i < n_h = domain - 1 (generator.rs)
//   L     u32 n_l  | n_l G1      one per auxiliary variable
//   A     u32 n_a  | n_a G1      only variables whose A column is not empty, inputs then aux
//   B_G1  u32 n_b  | n_b G1      likewise for B ("density": generator.rs drops the identities)
//   B_G2  u32 n_b  | n_b G2
//
// A `.vk` file is the VK block alone (rust-fil-proofs parameter_cache.rs writes `vk.write`).
//
// What the reader checks, and how that compares with bellperson (which decodes through blstrs,
// i.e. blst_p1_deserialize / blst_p2_deserialize, src/e1.c and e2.c):
// - Every count against the bytes left before anything is allocated, and the file size against
//   the end of B_G2 exactly (192-byte G2 points: supraseal's check adds B_G2 at 96 bytes a point,
//   so it accepts a file truncated inside B_G2; trailing bytes, which bellperson ignores, are an
//   error here).
// - Flags as blst: the compression bit must be clear (blst would decompress the first half of
//   the slot instead: stricter here), the sort bit clear, the infinity bit only with every
//   other bit zero. Coordinates below p, the point on the curve (always, as blst does even for
//   bellperson's unchecked reads), and x != 0 (blst: the points (0, +-sqrt(b)) have order 3).
// - Identities: rejected in IC, H, L, A, B_G1, B_G2 ("point at infinity", as params.rs and
//   verifying_key.rs do); accepted for the six VK points (VerifyingKey::read accepts them).
// - Subgroup: the VK block always (VerifyingKey::read uses from_uncompressed, which checks it);
//   the five big sections on request (bellperson's `checked`; about a scalar multiplication a
//   point, far slower than the read).
//
// To cuzk's keys: to_proving_key moves the sections into a groth16::proving_key tagged
// h_basis::monomial and ntt::domain_roots::bellperson (the file does not record its domain; every
// file bellperson's generator made is on bellperson's roots, powers of 7: docs/FILECOIN.md),
// appending the identity as H point n - 1 (cuzk's monomial prover computes n H scalars, the last
// always zero). A density-compressed file (fewer A or B points than variables, as every real
// Filecoin key) needs the caller's density bitmaps; the key then stays compressed (the host
// prover skips the absent columns; groth16::to_dense expands it for backends that need it).
#pragma once

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <future>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#if defined(CUZK_HAVE_OPENSSL)
#include <openssl/evp.h>
#endif

#include "cuzk/core/error.hpp"
#include "cuzk/ec/batch_normalize.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/ec/subgroup.hpp"
#include "cuzk/io/zcash_encoding.hpp"
#include "cuzk/groth16/curve.hpp"
#include "cuzk/groth16/density.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/io/atomic_file.hpp"
#include "cuzk/io/binfile.hpp"
#include "cuzk/io/mapped_file.hpp"
#include "cuzk/core/bulk_vector.hpp"
#include "cuzk/io/parallel_chunks.hpp"
#include "cuzk/io/point_check.hpp"
#include "cuzk/ntt/domain.hpp"

namespace cuzk::io {

/// The curve of every bellperson parameter file Filecoin ships.
using bellperson_curve = bls12_381::curve;
using bellperson_g1 = affine<bls12_381::g1>;
using bellperson_g2 = affine<bls12_381::g2>;

/// Bytes of the six verifying-key points at the start of a file (3 G1 + 3 G2).
inline constexpr uint64_t bellperson_vk_points_bytes = 3 * zcash::uncompressed_size<bls12_381::g1> +
                                                       3 * zcash::uncompressed_size<bls12_381::g2>;

/// One point section of a file: its u32 count and where its points are.
struct bellperson_section {
    const char* name = "";    ///< "IC", "H", "L", "A", "B_G1" or "B_G2"
    uint64_t offset = 0;      ///< file offset of the first point (just after the count)
    uint64_t count = 0;       ///< the count as the file gives it
    uint64_t point_size = 0;  ///< 96 (G1) or 192 (G2)

    uint64_t bytes() const { return count * point_size; }
    uint64_t end() const { return offset + bytes(); }
};

/// Where everything is in a .params (or .vk) file, from walking its counts.
struct bellperson_layout {
    uint64_t file_size = 0;
    bellperson_section ic, h, l, a, b_g1, b_g2;  ///< only ic for a .vk file

    /// Inputs including the constant one (the IC count).
    uint64_t num_inputs() const { return ic.count; }
    /// Auxiliary variables (the L count).
    uint64_t num_aux() const { return l.count; }
    uint64_t num_variables() const { return num_inputs() + num_aux(); }
    /// The proving domain: one more than the H points (generator.rs builds n - 1 of them).
    uint64_t domain_size() const { return h.count + 1; }
    /// Every variable has its A and B points (no column was empty, nothing was dropped).
    bool is_dense() const {
        return a.count == num_variables() && b_g1.count == num_variables() && b_g2.count == num_variables();
    }
    /// The five sections after the verifying key, in file order.
    std::array<const bellperson_section*, 5> big_sections() const { return {&h, &l, &a, &b_g1, &b_g2}; }
};

/// A batched subgroup check that the reader hands each decoded big section to, instead of testing
/// every point on its decoding thread: each function returns the index of the first point of its
/// span that is not in the prime-order subgroup, or the span's size (the points given are decoded:
/// on the curve, none the identity). io/subgroup_check_device.cuh's gpu_subgroup_check() runs them
/// on a GPU. Both must be set for the reader to use them.
struct subgroup_batch_check {
    std::function<uint64_t(std::span<const affine<bls12_381::g1>>)> g1;
    std::function<uint64_t(std::span<const affine<bls12_381::g2>>)> g2;
    explicit operator bool() const { return bool(g1) && bool(g2); }
};

/// Options for reading a parameter file.
struct bellperson_read_options {
    /// Also check that every H, L, A, B_G1, B_G2 point is in the prime-order subgroup
    /// (bellperson's `checked`). The verifying key block is always checked.
    bool check_subgroup = false;
    /// Where check_subgroup's tests of the five big sections run. Empty (the default): on the
    /// decoding threads, point by point. Set: each section is decoded without them and then handed
    /// to these functions on a thread of its own, so the next section decodes while this one is
    /// checked (with gpu_subgroup_check(), on the GPU). The verdicts and error messages are the
    /// host path's: the first bad point in file order, explained the same way. An exception the
    /// functions throw (a CUDA failure) leaves the reader as it is.
    subgroup_batch_check subgroup_batch{};
};

/// The verifying key as bellperson stores it: cuzk's verifying key plus beta_g1 and delta_g1
/// (which bellperson keeps in its VerifyingKey and cuzk in its proving_key).
struct bellperson_vk {
    groth16::verifying_key<bellperson_curve> key;  ///< alpha_g1, beta_g2, gamma_g2, delta_g2, ic
    bellperson_g1 beta_g1, delta_g1;
};

/// A decoded .params file: the sections exactly as the file holds them (A and B possibly
/// density-compressed). to_proving_key turns it into cuzk's key.
struct bellperson_params {
    bellperson_layout layout;
    bellperson_vk vk;
    std::vector<bellperson_g1> h;  ///< n - 1 points, capacity n (to_proving_key appends one)
    std::vector<bellperson_g1> l;
    std::vector<bellperson_g1> a;
    std::vector<bellperson_g1> b_g1;
    std::vector<bellperson_g2> b_g2;
};

namespace bellperson_detail {

inline uint32_t be32(const uint8_t* p) {
    return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | uint32_t(p[3]);
}
inline void put_be32(uint8_t* p, uint32_t v) {
    for (int i = 0; i < 4; ++i) p[i] = uint8_t(v >> (24 - 8 * i));
}

/// Why a point slot does not decode (none: it does; infinity: a valid identity encoding).
enum class point_status : uint8_t {
    none,
    infinity,
    compressed,
    sort_flag,
    bad_infinity,
    x_range,
    y_range,
    off_curve,
    order_three,
    subgroup
};

inline const char* to_string(point_status s) {
    switch (s) {
        case point_status::none: return "ok";
        case point_status::infinity: return "point at infinity (bellperson rejects it outside the verifying key)";
        case point_status::compressed: return "the compression flag is set (uncompressed points expected)";
        case point_status::sort_flag: return "the sort flag is set on an uncompressed point";
        case point_status::bad_infinity: return "infinity flag set but the encoding has non-zero bits";
        case point_status::x_range: return "x is not below the field modulus p";
        case point_status::y_range: return "y is not below the field modulus p";
        case point_status::off_curve: return "the point is not on the curve";
        case point_status::order_three: return "x = 0: a point of order 3, not in the prime-order subgroup";
        case point_status::subgroup: return "the point is not in the prime-order subgroup";
    }
    return "?";
}

/// 48 big-endian bytes to an Fp element; false if the value is >= p. `flag_byte` clears the three
/// flag bits of the encoding's first byte.
inline bool read_fp_be(const uint8_t* in, bool flag_byte, bls12_381::fp& out) {
    using fp = bls12_381::fp;
    fp::integer x{};
    for (size_t j = 0; j < 6; ++j) {
        uint64_t w = 0;
        for (size_t b = 0; b < 8; ++b) w = w << 8 | in[8 * j + b];
        x.limb[5 - j] = w;
    }
    if (flag_byte) x.limb[5] &= ~(uint64_t(0xe0) << 56);
    if (x >= fp::modulus) return false;
    out = fp::from_canonical_unchecked(x);
    return true;
}
inline bool read_coordinate(const uint8_t* in, bool flag_byte, bls12_381::fp& out) {
    return read_fp_be(in, flag_byte, out);
}
inline bool read_coordinate(const uint8_t* in, bool flag_byte, bls12_381::fp2& out) {
    return read_fp_be(in, flag_byte, out.c1) && read_fp_be(in + 48, false, out.c0);  // c1 first
}

/// Decodes one uncompressed zcash point with blst's rules (see the file comment). The same
/// accept/reject decisions as zcash::deserialize_uncompressed(_unchecked), except that x = 0
/// is rejected here and a valid identity is reported as point_status::infinity. Allocation-free:
/// this is the per-point loop of the reader; failures are explained afterwards. With check_curve
/// false the caller tests the curve equation itself (decode_points: 8 points at a time).
template <class G>
point_status decode_point_vartime(const uint8_t* in, affine<G>& out, bool check_subgroup, bool check_curve = true) {
    constexpr size_t half = zcash::compressed_size<G>;
    const uint8_t flags = in[0] & 0xe0;
    if (flags & zcash::flag_compressed) return point_status::compressed;
    if (flags & zcash::flag_infinity) {
        uint8_t rest = in[0] & 0x3f;  // the sort bit included, as blst_p1_deserialize
        for (size_t i = 1; i < 2 * half; ++i) rest |= in[i];
        if (rest) return point_status::bad_infinity;
        out = affine<G>::identity();
        return point_status::infinity;
    }
    if (flags & zcash::flag_sign) return point_status::sort_flag;
    if (!read_coordinate(in, true, out.x)) return point_status::x_range;
    if (!read_coordinate(in + half, false, out.y)) return point_status::y_range;
    if (out.is_identity() || (check_curve && !out.is_on_curve()))
        return point_status::off_curve;  // (0, 0) is not on it
    if (out.x.is_zero()) return point_status::order_three;
    if (check_subgroup && !is_in_subgroup(out)) return point_status::subgroup;
    return point_status::none;
}

/// Decodes the `count` points at `offset` of src into out[0..count), in parallel: each thread
/// reads chunks of points (pread for a file) into its own buffer and decodes them from there (on a
/// mapped file every 4 KiB page cost the decoding thread a page fault; pread copies from the page
/// cache without mapping anything). In each chunk the encodings are decoded first, then the curve
/// equation is tested 8 points at a time where the CPU has AVX-512 IFMA (io/point_check.hpp), then
/// the subgroup if asked. Returns the index of the first point that fails (identities fail), or
/// count; rethrows the first read error after the parallel region.
template <class G>
uint64_t decode_points(const byte_source& src, uint64_t offset, uint64_t count, affine<G>* out, bool check_subgroup) {
    constexpr size_t size = zcash::uncompressed_size<G>;
    // At most 4096 points (384 KiB of G1, 768 KiB of G2: in L2), and at least 64 chunks so that a
    // short section (IC, with its subgroup checks) still spreads over the threads.
    const uint64_t chunk = std::clamp<uint64_t>(count / 64, 1, uint64_t(1) << 12);
    return decode_chunks(
        count, chunk, size_t(std::min(count, chunk)) * size, {}, [] {},
        [&](uint64_t lo, uint64_t hi, uint8_t* buf) {
            src.read_at(offset + lo * size, buf, size_t(hi - lo) * size);
            uint64_t end = lo;  // the first bad encoding (later failures in this chunk cannot be first)
            while (end < hi &&
                   decode_point_vartime<G>(buf + (end - lo) * size, out[end], false, false) == point_status::none)
                ++end;
            end = lo + first_off_curve_vartime(out + lo, end - lo);
            if (check_subgroup)
                for (uint64_t i = lo; i < end; ++i)
                    if (!is_in_subgroup(out[i])) return i;
            return end;
        });
}

/// The whole file read-only in memory, as supraseal maps it (io/mapped_file.hpp). A file
/// truncated by someone else while mapped raises SIGBUS on access: the reader checks sizes
/// against fstat's, which is all it can do.
using mapped_params_file = io::mapped_file;

/// Walks the counts from `pos` on (IC first); throws decode_error naming the section.
inline void scan_sections(std::span<const uint8_t> file, const std::string& name, uint64_t pos,
                          std::span<bellperson_section* const> sections) {
    const uint64_t total = file.size();
    for (bellperson_section* s : sections) {
        if (total - pos < 4)
            throw decode_error(name + ": section " + s->name + ": truncated: its count at byte " + std::to_string(pos) +
                               " needs 4 bytes, " + std::to_string(total - pos) + " left");
        s->count = be32(file.data() + pos);
        s->offset = pos + 4;
        const uint64_t left = total - s->offset;
        if (s->count > left / s->point_size)
            throw decode_error(name + ": section " + s->name + ": count " + std::to_string(s->count) + " needs " +
                               std::to_string(s->bytes()) + " bytes of " + std::to_string(s->point_size) +
                               "-byte points, only " + std::to_string(left) +
                               " are left (truncated file or corrupt count)");
        pos = s->end();
    }
    if (pos != total)
        throw decode_error(name + ": " + std::to_string(total - pos) + " unexpected bytes after the end of section " +
                           sections.back()->name + " at byte " + std::to_string(pos));
}

inline void name_sections(bellperson_layout& l) {
    constexpr uint64_t g1 = zcash::uncompressed_size<bls12_381::g1>, g2 = zcash::uncompressed_size<bls12_381::g2>;
    l.ic = {"IC", 0, 0, g1};
    l.h = {"H", 0, 0, g1};
    l.l = {"L", 0, 0, g1};
    l.a = {"A", 0, 0, g1};
    l.b_g1 = {"B_G1", 0, 0, g1};
    l.b_g2 = {"B_G2", 0, 0, g2};
}

inline void require_vk_points(std::span<const uint8_t> file, const std::string& name) {
    if (file.size() < bellperson_vk_points_bytes)
        throw decode_error(name + ": truncated: the verifying key's six points need " +
                           std::to_string(bellperson_vk_points_bytes) + " bytes, the file has " +
                           std::to_string(file.size()));
}

template <class G>
[[noreturn]] void throw_bad_point(const std::string& name, const char* what, uint64_t index, uint64_t offset,
                                  point_status s) {
    throw decode_error(name + ": " + what + " point " + std::to_string(index) + " (" + G::name + ", byte " +
                       std::to_string(offset) + "): " + to_string(s));
}

/// One point of the VK block (identity allowed, subgroup always checked).
template <class G>
affine<G> read_vk_point(std::span<const uint8_t> file, const std::string& name, uint64_t& pos, const char* what) {
    affine<G> p{};
    const point_status s = decode_point_vartime<G>(file.data() + pos, p, true);
    if (s != point_status::none && s != point_status::infinity)
        throw decode_error(name + ": verifying key " + what + " (byte " + std::to_string(pos) + "): " + to_string(s));
    pos += zcash::uncompressed_size<G>;
    return p;
}

/// The VK block (six points, then IC) at the start of `file`; the layout's IC must be scanned.
inline bellperson_vk read_vk_block(std::span<const uint8_t> file, const std::string& name,
                                   const bellperson_section& ic) {
    using G1 = bls12_381::g1;
    using G2 = bls12_381::g2;
    bellperson_vk vk;
    uint64_t pos = 0;
    vk.key.alpha_g1 = read_vk_point<G1>(file, name, pos, "alpha_g1");
    vk.beta_g1 = read_vk_point<G1>(file, name, pos, "beta_g1");
    vk.key.beta_g2 = read_vk_point<G2>(file, name, pos, "beta_g2");
    vk.key.gamma_g2 = read_vk_point<G2>(file, name, pos, "gamma_g2");
    vk.delta_g1 = read_vk_point<G1>(file, name, pos, "delta_g1");
    vk.key.delta_g2 = read_vk_point<G2>(file, name, pos, "delta_g2");
    vk.key.ic.resize(size_t(ic.count));
    const uint64_t bad = decode_points<G1>(memory_source(file, name), ic.offset, ic.count, vk.key.ic.data(), true);
    if (bad < ic.count) {
        affine<G1> p{};
        const uint64_t at = ic.offset + bad * ic.point_size;
        throw_bad_point<G1>(name, "IC", bad, at, decode_point_vartime<G1>(file.data() + at, p, true));
    }
    return vk;
}

/// Sizes `out` for section s (zero-filled: std::vector value-initialises) on its own thread, so
/// that the five sections are zeroed concurrently and later ones while earlier ones decode. With
/// the huge-page hint: in 4 KiB pages the faults of the zeroing were most of the read.
template <class G>
std::future<void> allocate_section(const bellperson_section& s, std::vector<affine<G>>& out, size_t extra_capacity) {
    return std::async(std::launch::async, [&out, count = size_t(s.count), extra_capacity] {
        resize_for_bulk_read(out, count, count + extra_capacity);
    });
}

/// Decodes section s into out (sized already) from `points` (the bytes `file`, or the file behind
/// that mapping); a bad point is explained from `file`.
template <class G>
void decode_big_section(std::span<const uint8_t> file, const std::string& name, const bellperson_section& s,
                        std::vector<affine<G>>& out, bool check_subgroup, const byte_source& points) {
    const uint64_t bad = decode_points<G>(points, s.offset, s.count, out.data(), check_subgroup);
    if (bad < s.count) {
        affine<G> p{};
        const uint64_t at = s.offset + bad * s.point_size;
        throw_bad_point<G>(name, s.name, bad, at, decode_point_vartime<G>(file.data() + at, p, check_subgroup));
    }
}

/// The subgroup check of section s (decoded into out[0, count)) by the batch function `check`,
/// on a thread of its own; the future throws the host path's decode_error for the first point
/// outside the subgroup. `out` must outlive the future (a future of std::async waits for its
/// thread when destroyed).
template <class G, class Check>
std::future<void> start_batch_check(std::span<const uint8_t> file, const std::string& name,
                                    const bellperson_section& s, const std::vector<affine<G>>& out, uint64_t count,
                                    const Check& check) {
    return std::async(std::launch::async, [file, &name, &s, &out, count, &check] {
        const uint64_t bad = check(std::span<const affine<G>>(out.data(), size_t(count)));
        if (bad < count) {
            const uint64_t at = s.offset + bad * s.point_size;
            throw_bad_point<G>(name, s.name, bad, at, point_status::subgroup);
        }
    });
}

/// decode_big_section with the subgroup tests done by `check` (subgroup_batch_check): the section
/// decodes without them, then its check starts on another thread and goes into `pending`. A
/// decoding failure is reported only after the checks of every earlier section and of this
/// section's points before it, so that the error is the first bad point in file order, as on the
/// host path.
template <class G, class Check>
void decode_big_section_batched(std::span<const uint8_t> file, const std::string& name, const bellperson_section& s,
                                std::vector<affine<G>>& out, const byte_source& points, const Check& check,
                                std::vector<std::future<void>>& pending) {
    const uint64_t bad = decode_points<G>(points, s.offset, s.count, out.data(), false);
    pending.push_back(start_batch_check<G>(file, name, s, out, bad, check));
    if (bad < s.count) {
        for (auto& f : pending) f.get();  // an earlier subgroup failure is the first error
        affine<G> p{};
        const uint64_t at = s.offset + bad * s.point_size;
        throw_bad_point<G>(name, s.name, bad, at, decode_point_vartime<G>(file.data() + at, p, false));
    }
}

}  // namespace bellperson_detail

// ---- reading --------------------------------------------------------------------------------

/// Walks the counts of a .params file: each count checked against the bytes left before the next
/// is read, and the file size against the end of B_G2 (192-byte points). Decodes nothing.
inline bellperson_layout scan_bellperson_params(std::span<const uint8_t> file, const std::string& name = "<memory>") {
    bellperson_detail::require_vk_points(file, name);
    bellperson_layout l;
    l.file_size = file.size();
    bellperson_detail::name_sections(l);
    bellperson_section* sections[] = {&l.ic, &l.h, &l.l, &l.a, &l.b_g1, &l.b_g2};
    bellperson_detail::scan_sections(file, name, bellperson_vk_points_bytes, sections);
    return l;
}

/// Maps the file and walks its counts.
inline bellperson_layout scan_bellperson_params(const std::string& path) {
    const bellperson_detail::mapped_params_file m(path);
    return scan_bellperson_params(m.bytes(), path);
}

/// Walks a .vk file: the six points, the IC count, and exactly its IC points.
inline bellperson_layout scan_bellperson_vk(std::span<const uint8_t> file, const std::string& name = "<memory>") {
    bellperson_detail::require_vk_points(file, name);
    bellperson_layout l;
    l.file_size = file.size();
    bellperson_detail::name_sections(l);
    bellperson_section* sections[] = {&l.ic};
    bellperson_detail::scan_sections(file, name, bellperson_vk_points_bytes, sections);
    return l;
}

namespace bellperson_detail {

/// read_bellperson_params over the bytes `file`; the five point sections read through `points`.
inline bellperson_params read_params(std::span<const uint8_t> file, const std::string& name,
                                     const bellperson_read_options& opt, const byte_source& points) {
    bellperson_params p;
    p.layout = scan_bellperson_params(file, name);  // every count checked before any allocation
    const auto& l = p.layout;
    p.vk = bellperson_detail::read_vk_block(file, name, l.ic);
    // A future's destructor waits for its thread, so an exception below leaves no thread behind.
    auto h = bellperson_detail::allocate_section(l.h, p.h, 1);  // room for the point to_proving_key appends
    auto lq = bellperson_detail::allocate_section(l.l, p.l, 0);
    auto a = bellperson_detail::allocate_section(l.a, p.a, 0);
    auto b1 = bellperson_detail::allocate_section(l.b_g1, p.b_g1, 0);
    auto b2 = bellperson_detail::allocate_section(l.b_g2, p.b_g2, 0);
    if (opt.check_subgroup && opt.subgroup_batch) {
        // Declared after p: destroyed first, so every check has finished before the vectors go.
        std::vector<std::future<void>> pending;
        const auto& g1 = opt.subgroup_batch.g1;
        const auto& g2 = opt.subgroup_batch.g2;
        h.get();
        bellperson_detail::decode_big_section_batched(file, name, l.h, p.h, points, g1, pending);
        lq.get();
        bellperson_detail::decode_big_section_batched(file, name, l.l, p.l, points, g1, pending);
        a.get();
        bellperson_detail::decode_big_section_batched(file, name, l.a, p.a, points, g1, pending);
        b1.get();
        bellperson_detail::decode_big_section_batched(file, name, l.b_g1, p.b_g1, points, g1, pending);
        b2.get();
        bellperson_detail::decode_big_section_batched(file, name, l.b_g2, p.b_g2, points, g2, pending);
        for (auto& f : pending) f.get();  // in file order: the first failure is the one reported
        return p;
    }
    h.get();
    bellperson_detail::decode_big_section(file, name, l.h, p.h, opt.check_subgroup, points);
    lq.get();
    bellperson_detail::decode_big_section(file, name, l.l, p.l, opt.check_subgroup, points);
    a.get();
    bellperson_detail::decode_big_section(file, name, l.a, p.a, opt.check_subgroup, points);
    b1.get();
    bellperson_detail::decode_big_section(file, name, l.b_g1, p.b_g1, opt.check_subgroup, points);
    b2.get();
    bellperson_detail::decode_big_section(file, name, l.b_g2, p.b_g2, opt.check_subgroup, points);
    return p;
}

}  // namespace bellperson_detail

/// Decodes a .params file held in memory (see the file comment for every check). Throws
/// decode_error naming the file, the section, the point and the byte offset of what is wrong.
inline bellperson_params read_bellperson_params(std::span<const uint8_t> file, const std::string& name = "<memory>",
                                                const bellperson_read_options& opt = {}) {
    return bellperson_detail::read_params(file, name, opt, memory_source(file, name));
}

/// Reads and decodes the file: the counts and the VK from a mapping, the five big sections in
/// parallel chunks with pread (one copy: from the page cache into per-thread buffers, decoded
/// from there into the vectors).
inline bellperson_params read_bellperson_params(const std::string& path, const bellperson_read_options& opt = {}) {
    const bellperson_detail::mapped_params_file m(path);
    const file_source src(path);
    if (src.size() != m.bytes().size()) throw decode_error(path + ": the file changed size while it was opened");
    return bellperson_detail::read_params(m.bytes(), path, opt, src);
}

/// Maps a .vk file and walks it.
inline bellperson_layout scan_bellperson_vk(const std::string& path) {
    const bellperson_detail::mapped_params_file m(path);
    return scan_bellperson_vk(m.bytes(), path);
}

/// Decodes a .vk file (or any bytes holding exactly a VK block).
inline bellperson_vk read_bellperson_vk(std::span<const uint8_t> file, const std::string& name = "<memory>") {
    const bellperson_layout l = scan_bellperson_vk(file, name);
    return bellperson_detail::read_vk_block(file, name, l.ic);
}
inline bellperson_vk read_bellperson_vk(const std::string& path) {
    const bellperson_detail::mapped_params_file m(path);
    return read_bellperson_vk(m.bytes(), path);
}

// ---- to cuzk's proving key --------------------------------------------------------------------

namespace bellperson_detail {

inline void check_key_shape(const bellperson_layout& l) {
    const uint64_t n = l.domain_size();
    if (l.num_inputs() == 0) throw invalid_argument("to_proving_key: no IC point (the constant one is an input)");
    if (!std::has_single_bit(n) || std::countr_zero(n) > int(bls12_381::fr::two_adicity) || n < 2)
        throw invalid_argument("to_proving_key: H has " + std::to_string(l.h.count) +
                               " points; a domain of a power of two (H count + 1) is needed");
}

inline groth16::proving_key<bellperson_curve> move_into_key(bellperson_params&& p, ntt::domain_roots roots) {
    groth16::proving_key<bellperson_curve> pk;
    pk.vk = std::move(p.vk.key);
    pk.beta_g1 = p.vk.beta_g1;
    pk.delta_g1 = p.vk.delta_g1;
    pk.h = std::move(p.h);
    pk.h.push_back(bellperson_g1::identity());  // capacity reserved by the reader: no reallocation
    pk.l = std::move(p.l);
    pk.a = std::move(p.a);
    pk.b_g1 = std::move(p.b_g1);
    pk.b_g2 = std::move(p.b_g2);
    pk.h_convention = groth16::h_basis::monomial;
    pk.roots = roots;
    return pk;
}

}  // namespace bellperson_detail

/// Moves a dense file's sections into cuzk's proving key (no copies): H tagged monomial, with the
/// identity appended as point n - 1 (its scalar is always zero), on the domain `roots` (bellperson's
/// for every file bellperson made; snarkjs for a file cuzk wrote from a key on cuzk's default
/// domain). Throws invalid_argument for a density-compressed file (use the overload with
/// densities) or a domain that is not a power of two.
inline groth16::proving_key<bellperson_curve> to_proving_key(bellperson_params&& p,
                                                             ntt::domain_roots roots = ntt::domain_roots::bellperson) {
    bellperson_detail::check_key_shape(p.layout);
    if (!p.layout.is_dense())
        throw invalid_argument("to_proving_key: the key is density-compressed (A " + std::to_string(p.layout.a.count) +
                               ", B " + std::to_string(p.layout.b_g1.count) + " points for " +
                               std::to_string(p.layout.num_variables()) +
                               " variables): pass the circuit's A and B densities");
    return bellperson_detail::move_into_key(std::move(p), roots);
}

/// As above for a density-compressed file (or a dense one): a_density (b_density) marks the
/// variables (inputs first, then aux, as bellperson's density trackers) with a non-empty A (B)
/// column, i.e. a point in the file. The key keeps the compressed vectors (moved, not copied) and
/// the maps; the host prover skips the absent columns. Throws invalid_argument if a map's length
/// is not the number of variables or its set bits are not the file's count.
inline groth16::proving_key<bellperson_curve> to_proving_key(bellperson_params&& p, groth16::density_map a_density,
                                                             groth16::density_map b_density,
                                                             ntt::domain_roots roots = ntt::domain_roots::bellperson) {
    bellperson_detail::check_key_shape(p.layout);
    const uint64_t nv = p.layout.num_variables();
    if (a_density.size() != nv || b_density.size() != nv)
        throw invalid_argument("to_proving_key: density bitmaps have " + std::to_string(a_density.size()) + " and " +
                               std::to_string(b_density.size()) + " bits, the key has " + std::to_string(nv) +
                               " variables");
    auto check_count = [](const groth16::density_map& d, uint64_t count, const char* what) {
        if (d.count() != count)
            throw invalid_argument(std::string("to_proving_key: the ") + what + " density has " +
                                   std::to_string(d.count()) + " set bits, the file has " + std::to_string(count) +
                                   " points");
    };
    check_count(a_density, p.layout.a.count, "A");
    check_count(b_density, p.layout.b_g1.count, "B (G1)");
    check_count(b_density, p.layout.b_g2.count, "B (G2)");
    auto pk = bellperson_detail::move_into_key(std::move(p), roots);
    pk.a_density = std::move(a_density);
    pk.b_density = std::move(b_density);
    return pk;
}

/// The bitmaps as std::vector<bool> (one bool a variable).
inline groth16::proving_key<bellperson_curve> to_proving_key(bellperson_params&& p, const std::vector<bool>& a_density,
                                                             const std::vector<bool>& b_density,
                                                             ntt::domain_roots roots = ntt::domain_roots::bellperson) {
    return to_proving_key(std::move(p), groth16::density_map::from_bools(a_density),
                          groth16::density_map::from_bools(b_density), roots);
}

/// Maps, decodes and converts a dense .params file.
inline groth16::proving_key<bellperson_curve> read_bellperson_proving_key(const std::string& path,
                                                                          const bellperson_read_options& opt = {}) {
    return to_proving_key(read_bellperson_params(path, opt));
}

// ---- H basis conversion -------------------------------------------------------------------------

/// Rewrites a lagrange_odd_coset key's H points ([L'_{2i+1}(tau)/delta], cuzk's setup and snarkjs)
/// in the monomial basis [tau^k Z(tau)/delta] that bellperson files hold; a monomial key is left
/// as it is. With x_i = w_2n^(2i+1), L'_{2i+1}(X) = -Z(X)/(2n) sum_k x_i^-k X^k, whose inverse is
///   M_k = -2 x_0^k sum_i w_n^(ik) H_i,
/// a DFT of the points: (n/2) log n scalar multiplications by roots plus n scalings (variable
/// time; seconds at 2^12, minutes at 2^20 on a few cores). The roots are the key's (pk.roots); the
/// monomial points do not depend on them.
/// Throws invalid_argument unless H has a power-of-two size.
inline void to_monomial_h(groth16::proving_key<bellperson_curve>& pk) {
    using G1 = bls12_381::g1;
    using fr = bls12_381::fr;
    if (pk.h_convention == groth16::h_basis::monomial) return;
    const size_t n = pk.h.size();
    if (!std::has_single_bit(n) || std::countr_zero(n) >= int(fr::two_adicity))
        throw invalid_argument("to_monomial_h: H must hold a power of two of points, has " + std::to_string(n));
    const unsigned log_n = unsigned(std::countr_zero(n));
    const fr w = ntt::domain<fr>::root_of_unity(log_n, pk.roots);
    std::vector<fr> roots(std::max<size_t>(n / 2, 1));  // w^j, j < n/2
    roots[0] = fr::one();
    for (size_t j = 1; j < roots.size(); ++j) roots[j] = roots[j - 1] * w;

    // Iterative radix-2 DIT: bit-reversed input, natural output F_k = sum_i w^(ik) H_i.
    std::vector<jacobian<G1>> v(n);
    for (size_t i = 0; i < n; ++i) v[ntt::bit_reverse(i, log_n)] = jacobian<G1>::from_affine(pk.h[i]);
    for (size_t len = 2; len <= n; len <<= 1) {
        const size_t half = len / 2, stride = n / len;
        const int64_t butterflies = int64_t(n / 2);
#pragma omp parallel for schedule(static)
        for (int64_t b = 0; b < butterflies; ++b) {
            const size_t j = size_t(b) % half, at = size_t(b) / half * len + j;
            const jacobian<G1> t = j == 0 ? v[at + half] : mul_vartime(v[at + half], roots[j * stride]);
            const jacobian<G1> u = v[at];
            v[at] = u + t;
            v[at + half] = u - t;
        }
    }
    // M_k = [-2 x_0^k] F_k with x_0 = w_2n.
    const fr x0 = ntt::domain<fr>::root_of_unity(log_n + 1, pk.roots);
    std::vector<fr> scale(n);
    scale[0] = -fr::from_u64(2);
    for (size_t k = 1; k < n; ++k) scale[k] = scale[k - 1] * x0;
#pragma omp parallel for schedule(static)
    for (int64_t k = 0; k < int64_t(n); ++k) v[size_t(k)] = mul_vartime(v[size_t(k)], scale[size_t(k)]);
    batch_normalize<jacobian<G1>>(v, pk.h.owned());
    pk.h_convention = groth16::h_basis::monomial;
}

// ---- writing ------------------------------------------------------------------------------------

namespace bellperson_detail {

template <class G, class Sink>
void write_point(Sink& sink, const affine<G>& p) {
    const auto e = zcash::serialize_uncompressed(p);
    sink(e.data(), e.size());
}

/// u32 count, then the points (identities dropped when `drop_identity`), encoded in parallel
/// chunks.
template <class G, class Sink>
void write_section(Sink& sink, std::span<const affine<G>> pts, bool drop_identity) {
    constexpr size_t size = zcash::uncompressed_size<G>;
    const size_t count = drop_identity ? size_t(std::count_if(pts.begin(), pts.end(),
                                                              [](const affine<G>& p) { return !p.is_identity(); }))
                                       : pts.size();
    uint8_t c[4];
    put_be32(c, uint32_t(count));
    sink(c, 4);
    constexpr size_t chunk = size_t(1) << 13;
    std::vector<size_t> idx;
    std::vector<uint8_t> buf;
    for (size_t begin = 0; begin < pts.size(); begin += chunk) {
        const size_t end = std::min(pts.size(), begin + chunk);
        idx.clear();
        for (size_t i = begin; i < end; ++i)
            if (!drop_identity || !pts[i].is_identity()) idx.push_back(i);
        buf.resize(idx.size() * size);
#pragma omp parallel for schedule(static)
        for (int64_t k = 0; k < int64_t(idx.size()); ++k) {
            const auto e = zcash::serialize_uncompressed(pts[idx[size_t(k)]]);
            std::memcpy(buf.data() + size_t(k) * size, e.data(), size);
        }
        sink(buf.data(), buf.size());
    }
}

/// Throws invalid_argument unless pk can be written as bellperson would write it.
inline void check_writable(const groth16::proving_key<bellperson_curve>& pk) {
    auto bad = [](const std::string& what) { return invalid_argument("write_bellperson_params: " + what); };
    if (pk.h_convention != groth16::h_basis::monomial)
        throw bad(
            "the key's H points are in the lagrange_odd_coset basis; bellperson files hold [tau^i Z(tau)/delta] "
            "(convert with io::to_monomial_h)");
    const size_t n = pk.h.size(), nv = pk.num_variables(), ni = pk.vk.ic.size();
    if (n < 2 || !std::has_single_bit(n))
        throw bad("H must hold a power of two (>= 2) of points, has " + std::to_string(n));
    if (ni == 0) throw bad("no IC point");
    if (pk.is_dense() && (pk.b_g1.size() != nv || pk.b_g2.size() != nv || ni + pk.l.size() != nv))
        throw bad("the vectors disagree: A " + std::to_string(nv) + ", B_G1 " + std::to_string(pk.b_g1.size()) +
                  ", B_G2 " + std::to_string(pk.b_g2.size()) + ", IC + L " + std::to_string(ni + pk.l.size()));
    if (!pk.is_dense()) {
        groth16::check_key_vectors(pk, "write_bellperson_params");
        // A compressed key's points are written as they are: an identity would be dropped by
        // bellperson's generator and rejected by its reader.
        auto no_identity_at = [&](const auto& v, const char* what) {
            for (size_t i = 0; i < v.size(); ++i)
                if (v[i].is_identity())
                    throw bad(std::string(what) + " point " + std::to_string(i) +
                              " of the density-compressed key is the identity (a marked variable with an empty column)");
        };
        no_identity_at(pk.a, "A");
        no_identity_at(pk.b_g1, "B_G1");
        no_identity_at(pk.b_g2, "B_G2");
    }
    if (nv > UINT32_MAX || n - 1 > UINT32_MAX) throw bad("more than 2^32 - 1 points in a section");
    auto no_identity = [&](std::span<const bellperson_g1> v, const char* what, const char* why) {
        for (size_t i = 0; i < v.size(); ++i)
            if (v[i].is_identity())
                throw bad(std::string(what) + " point " + std::to_string(i) + " is the identity, which bellperson's " +
                          "reader rejects (" + why + ")");
    };
    no_identity(pk.vk.ic, "IC", "an input that no constraint uses");
    no_identity(pk.l, "L", "an unconstrained auxiliary variable; bellperson's generator refuses it");
    no_identity(std::span(pk.h).first(n - 1), "H", "not a valid key");
}

template <class Sink>
void write_params_to(Sink& sink, const groth16::proving_key<bellperson_curve>& pk) {
    using G1 = bls12_381::g1;
    using G2 = bls12_381::g2;
    check_writable(pk);
    write_point(sink, pk.vk.alpha_g1);
    write_point(sink, pk.beta_g1);
    write_point(sink, pk.vk.beta_g2);
    write_point(sink, pk.vk.gamma_g2);
    write_point(sink, pk.delta_g1);
    write_point(sink, pk.vk.delta_g2);
    write_section<G1>(sink, std::span<const bellperson_g1>(pk.vk.ic), false);
    write_section<G1>(sink, std::span<const bellperson_g1>(pk.h).first(pk.h.size() - 1), false);  // H_{n-1}: scalar 0
    write_section<G1>(sink, std::span<const bellperson_g1>(pk.l), false);
    const bool drop = pk.is_dense();  // density, as generator.rs; a compressed key is already
    write_section<G1>(sink, std::span<const bellperson_g1>(pk.a), drop);
    write_section<G1>(sink, std::span<const bellperson_g1>(pk.b_g1), drop);
    write_section<G2>(sink, std::span<const bellperson_g2>(pk.b_g2), drop);
}

}  // namespace bellperson_detail

/// The .params bytes bellperson's Parameters::write produces for pk: its H points except the
/// last (monomial basis required), A and B without their identity points (density-compressed
/// whenever a column is empty, as bellperson's generator drops them; a compressed key's vectors
/// as they are). The file does not record the key's domain (pk.roots): only a key on
/// bellperson's roots proves with bellperson. Throws invalid_argument
/// for a key bellperson could not read back (identity in IC, L or H; inconsistent sizes).
inline std::vector<uint8_t> bellperson_params_bytes(const groth16::proving_key<bellperson_curve>& pk) {
    std::vector<uint8_t> out;
    auto sink = [&](const uint8_t* p, size_t n) { out.insert(out.end(), p, p + n); };
    bellperson_detail::write_params_to(sink, pk);
    return out;
}

/// As bellperson_params_bytes, written to `path` atomically (io/atomic_file.hpp: the file
/// appears complete or not at all, replacing an old one). cuzk::error on I/O failure.
inline void write_bellperson_params(const std::string& path, const groth16::proving_key<bellperson_curve>& pk) {
    bellperson_detail::check_writable(pk);  // before the file is created
    atomic_file f(path);
    auto sink = [&](const uint8_t* p, size_t n) { f.write(p, n); };
    bellperson_detail::write_params_to(sink, pk);
    f.commit();
}

/// The .vk bytes (bellperson VerifyingKey::write) of pk's verifying key.
inline std::vector<uint8_t> bellperson_vk_bytes(const groth16::proving_key<bellperson_curve>& pk) {
    std::vector<uint8_t> out;
    auto sink = [&](const uint8_t* p, size_t n) { out.insert(out.end(), p, p + n); };
    bellperson_detail::write_point(sink, pk.vk.alpha_g1);
    bellperson_detail::write_point(sink, pk.beta_g1);
    bellperson_detail::write_point(sink, pk.vk.beta_g2);
    bellperson_detail::write_point(sink, pk.vk.gamma_g2);
    bellperson_detail::write_point(sink, pk.delta_g1);
    bellperson_detail::write_point(sink, pk.vk.delta_g2);
    bellperson_detail::write_section<bls12_381::g1>(sink, std::span<const bellperson_g1>(pk.vk.ic), false);
    return out;
}

// ---- digest ---------------------------------------------------------------------------------------

#if defined(CUZK_HAVE_OPENSSL)
/// BLAKE2b-512 of a file as 128 lowercase hex characters (OpenSSL EVP_blake2b512; the build
/// defines CUZK_HAVE_OPENSSL when it links OpenSSL::Crypto). Throws cuzk::error on I/O failure.
inline std::string blake2b512_file_hex(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw error(path + ": cannot open: " + std::strerror(errno));
    std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    auto fail = [&](const std::string& what) {
        ::close(fd);
        return error(path + ": " + what);
    };
    if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_blake2b512(), nullptr) != 1) throw fail("EVP_blake2b512 unavailable");
    std::vector<uint8_t> buf(size_t(1) << 22);
    for (;;) {
        const ssize_t got = ::read(fd, buf.data(), buf.size());
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) throw fail(std::string("read failed: ") + std::strerror(errno));
        if (got == 0) break;
        if (EVP_DigestUpdate(ctx.get(), buf.data(), size_t(got)) != 1) throw fail("EVP_DigestUpdate failed");
    }
    ::close(fd);
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (EVP_DigestFinal_ex(ctx.get(), md, &len) != 1 || len != 64) throw error(path + ": EVP_DigestFinal_ex failed");
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    for (unsigned i = 0; i < len; ++i) (out += hex[md[i] >> 4]) += hex[md[i] & 15];
    return out;
}

/// The `digest` that Filecoin's parameters.json records for a .params or .vk file: the first 32
/// hex characters of its BLAKE2b-512 (rust-fil-proofs parameter_cache.rs `to_hex()[..32]`,
/// fil-proofs-param/scripts/verify-parameters-json.sh `b2sum | head --bytes 32`).
inline std::string filecoin_params_digest(const std::string& path) { return blake2b512_file_hex(path).substr(0, 32); }
#endif

}  // namespace cuzk::io
