// SPDX-License-Identifier: MIT OR Apache-2.0
// Reading field elements and points out of iden3 sections, validated and converted in place.
//
// cuzk's field elements store their Montgomery form x*R mod p in 64-bit little-endian limbs,
// with R = 2^(64*limbs). snarkjs's n8-byte encodings use R = 2^(8*n8), and n8 = 8*limbs for
// every field here, so a zkey coordinate ("LEM": little-endian Montgomery) is byte for byte a
// cuzk field element: arrays are read straight into their final vectors and only checked.
// Canonical values (.r1cs, .wtns) are read the same way and converted in place, so no reader
// holds two copies of a large array.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cuzk/core/bigint.hpp"
#include "cuzk/ec/subgroup.hpp"
#include "cuzk/io/binfile.hpp"
#include "cuzk/core/bulk_vector.hpp"
#include "cuzk/io/parallel_chunks.hpp"
#include "cuzk/io/point_check.hpp"
#include "cuzk/io/snarkjs_curve.hpp"

namespace cuzk::io {

/// Bytes of one encoded element of F in iden3 files (n8).
template <class F>
inline constexpr size_t n8_of = sizeof(typename F::integer);

/// True if the integer is below F's modulus.
template <class F>
constexpr bool below_modulus(const typename F::integer& x) {
    return x < F::modulus;
}

/// Reads `u32 n8` then `prime[n8]` and checks both against field F (the wrong curve's prime, or a
/// field size that does not match, is an error naming `what`).
template <class F>
void read_field_header(section_reader& r, std::string_view what) {
    const uint32_t n8 = r.u32();
    if (n8 != n8_of<F>)
        throw r.fail(std::string(what) + " size n8 = " + std::to_string(n8) + ", expected " + std::to_string(n8_of<F>) +
                     " for " + F::config::name);
    typename F::integer p{};
    r.read(&p, n8);
    if (p != F::modulus)
        throw r.fail(std::string(what) + " prime is not the modulus of " + F::config::name + " (wrong curve?)");
}

/// Reads one canonical little-endian element (n8 bytes); throws if it is >= p.
template <class F>
F read_canonical(section_reader& r, std::string_view what) {
    typename F::integer x{};
    r.read(&x, n8_of<F>);
    if (!below_modulus<F>(x)) throw r.fail(std::string(what) + ": value is not below the modulus");
    return F::from_canonical_unchecked(x);
}

/// Reads `count` canonical elements into out (resized), converting them to Montgomery form, in
/// parallel chunks (OpenMP), each converted while it is in its thread's cache (a 2^18-value witness
/// took ~8 ms serially on one core of the 2-core machine). The section must hold count * n8 bytes
/// (checked before allocating). The first value not below the modulus is the one reported ("<what>
/// <index>: value is not below the modulus"); an I/O error is carried out of the parallel region.
template <class F>
void read_canonical_array(section_reader& r, uint64_t count, std::vector<F>& out, std::string_view what) {
    static_assert(sizeof(F) == n8_of<F>, "field elements must be exactly their limbs");
    if (count > r.remaining() / n8_of<F>)
        throw r.fail(std::string(what) + ": count " + std::to_string(count) + " needs more bytes than the section has");
    resize_for_bulk_read(out, size_t(count));
    const byte_source& src = r.source();
    const uint64_t at = r.take(count * n8_of<F>);
    constexpr int64_t chunk = int64_t(1) << 12;
    const int64_t n = int64_t(count), chunks = (n + chunk - 1) / chunk;
    int64_t first_bad = n;
    std::exception_ptr io_error;
#pragma omp parallel for reduction(min : first_bad) schedule(dynamic, 2) if (chunks > 1)
    for (int64_t c = 0; c < chunks; ++c) {
        const int64_t lo = c * chunk, hi = std::min(n, lo + chunk);
        try {
            src.read_at(at + uint64_t(lo) * n8_of<F>, &out[size_t(lo)], size_t(hi - lo) * n8_of<F>);
        } catch (...) {
#pragma omp critical(cuzk_read_canonical_array)
            if (!io_error) io_error = std::current_exception();
            continue;
        }
        for (int64_t i = lo; i < hi; ++i) {
            const auto x = out[size_t(i)].mont;  // holds the canonical integer as read
            if (!below_modulus<F>(x)) {
                first_bad = std::min(first_bad, i);
                break;  // later ones in this chunk cannot be first
            }
            out[size_t(i)] = F::from_canonical_unchecked(x);
        }
    }
    if (io_error) std::rethrow_exception(io_error);
    if (first_bad < n)
        throw r.fail(std::string(what) + " " + std::to_string(first_bad) + ": value is not below the modulus");
}

namespace detail {

/// Every base-field coordinate of an element (1 for Fq, 2 for Fq2) is below the modulus.
template <class F>
bool coordinates_canonical(const F& v) {
    if constexpr (requires { v.c1; }) {
        return coordinates_canonical(v.c0) && coordinates_canonical(v.c1);
    } else {
        return below_modulus<F>(v.mont);
    }
}

}  // namespace detail

/// Points per chunk of the parallel point reads, for a section of `count` points: at most 4096 (a
/// thread reads its chunk from the source straight into the point vector and checks it while it
/// is in its cache: 256 KiB of BN254 G1, 768 KiB of BLS12-381 G2); sections shorter than 64 such
/// chunks get smaller ones, down to 256 points, so that they still spread over the threads.
constexpr uint64_t point_chunk_for(uint64_t count) {
    return std::clamp<uint64_t>(count / 64, uint64_t(1) << 8, uint64_t(1) << 12);
}

namespace detail {

/// decode_chunks over `count` points at pts, `load(lo, hi)` first bringing points [lo, hi) there;
/// throws r.fail naming the first bad point (see read_points_at).
template <class Point, class Prepare, class Load>
void check_point_chunks(const Point* pts, uint64_t count, const section_reader& r, bool check_on_curve,
                        bool check_subgroup, std::string_view what, std::initializer_list<fresh_pages> touch,
                        Prepare&& prepare, Load&& load) {
    static_assert(sizeof(Point) == 2 * sizeof(typename Point::field), "points must be two packed coordinates");
    auto bad = [check_on_curve, check_subgroup](const Point& p) -> const char* {
        if (!coordinates_canonical(p.x) || !coordinates_canonical(p.y)) return "coordinate is not below the modulus q";
        if ((check_on_curve || check_subgroup) && !p.is_on_curve()) return "point is not on the curve";
        if (check_subgroup && !is_in_subgroup(p)) return "point is not in the prime-order subgroup";
        return nullptr;
    };
    // A chunk's first bad point: the first with a coordinate not below q, unless an earlier one is
    // off the curve (8 at a time, io/point_check.hpp) or outside the subgroup; bad() says why.
    auto first_bad_in = [&](uint64_t lo, uint64_t hi) {
        uint64_t end = hi;
        for (uint64_t i = lo; i < hi; ++i)
            if (!coordinates_canonical(pts[i].x) || !coordinates_canonical(pts[i].y)) {
                end = i;
                break;
            }
        if (check_on_curve || check_subgroup) end = lo + first_off_curve_vartime(pts + lo, end - lo);
        if (check_subgroup)
            for (uint64_t i = lo; i < end; ++i)
                if (!is_in_subgroup(pts[i])) return i;
        return end;
    };
    const uint64_t first_bad = decode_chunks(count, point_chunk_for(count), 0, touch, std::forward<Prepare>(prepare),
                                             [&](uint64_t lo, uint64_t hi, uint8_t*) {
                                                 load(lo, hi);
                                                 return first_bad_in(lo, hi);
                                             });
    if (first_bad < count)
        throw r.fail(std::string(what) + " " + std::to_string(first_bad) + ": " + bad(pts[first_bad]));
}

}  // namespace detail

/// Reads the vec.size() points stored as snarkjs does in zkeys (x then y, each little-endian
/// Montgomery; Fq2 as c0 then c1; infinity as all-zero bytes) at offset `at` of src straight into
/// vec, in parallel chunks, and checks every coordinate is below q and, if check_on_curve, that
/// every point is on the curve y^2 = x^3 + b, and if check_subgroup that every point is in the
/// order-r subgroup (snarkjs checks neither; the subgroup test costs about a scalar multiplication
/// per point). Meanwhile the team populates `touch` and one thread runs `prepare` (decode_chunks).
/// Throws r.fail naming the first bad point.
template <class Point, class Prepare>
void read_points_at(const byte_source& src, const section_reader& r, uint64_t at, std::vector<Point>& vec,
                    bool check_on_curve, bool check_subgroup, std::string_view what,
                    std::initializer_list<fresh_pages> touch, Prepare&& prepare) {
    Point* out = vec.data();
    detail::check_point_chunks(out, vec.size(), r, check_on_curve, check_subgroup, what, touch,
                               std::forward<Prepare>(prepare), [&](uint64_t lo, uint64_t hi) {
                                   src.read_at(at + lo * sizeof(Point), out + lo, size_t(hi - lo) * sizeof(Point));
                               });
}

/// The checks of read_points_at on `count` points that are already in memory where they will stay
/// (a mapped file's bytes, byte_source::stable_bytes): nothing is copied. pts must be aligned for
/// Point. Throws r.fail naming the first bad point, with read_points_at's messages.
template <class Point, class Prepare>
void check_points_in_place(const Point* pts, uint64_t count, const section_reader& r, bool check_on_curve,
                           bool check_subgroup, std::string_view what, std::initializer_list<fresh_pages> touch,
                           Prepare&& prepare) {
    detail::check_point_chunks(pts, count, r, check_on_curve, check_subgroup, what, touch,
                               std::forward<Prepare>(prepare), [](uint64_t, uint64_t) {});
}

/// Reads `count` points from r (see read_points_at) into out, sized here.
template <class Point>
void read_point_array(section_reader& r, uint64_t count, std::vector<Point>& out, bool check_on_curve,
                      std::string_view what, bool check_subgroup = false) {
    if (count > r.remaining() / sizeof(Point))
        throw r.fail(std::string(what) + ": " + std::to_string(count) + " points need more bytes than the section has");
    resize_for_bulk_read(out, size_t(count));
    const uint64_t at = r.take(count * sizeof(Point));
    read_points_at(r.source(), r, at, out, check_on_curve, check_subgroup, what, {}, [] {});
}

/// Reads one point (see read_point_array).
template <class Point>
Point read_point(section_reader& r, bool check_on_curve, std::string_view what, bool check_subgroup = false) {
    std::vector<Point> one;
    read_point_array(r, 1, one, check_on_curve, what, check_subgroup);
    return one[0];
}

}  // namespace cuzk::io

/// The zkey point reader for group G: see cuzk/instances.hpp.
#define CUZK_HOST_IO_INSTANCES(prefix, G)                                                                 \
    prefix template void cuzk::io::read_point_array<::cuzk::affine<G>>(                                   \
        ::cuzk::io::section_reader&, uint64_t, std::vector<::cuzk::affine<G>>&, bool, std::string_view, bool);

#if defined(CUZK_HOST_PRECOMPILED)
#include "cuzk/instances.hpp"
CUZK_FOR_EACH_INSTANCE_GROUP(CUZK_HOST_IO_INSTANCES, extern)
#endif
