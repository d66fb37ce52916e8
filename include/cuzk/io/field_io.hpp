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
#include <exception>
#include <span>
#include <string>
#include <vector>

#include "cuzk/core/bigint.hpp"
#include "cuzk/ec/subgroup.hpp"
#include "cuzk/io/binfile.hpp"
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

/// Reads `count` affine points stored as snarkjs does in zkeys (x then y, each little-endian
/// Montgomery; Fq2 as c0 then c1; infinity as all-zero bytes) straight into out, then checks
/// every coordinate is below q and, if check_on_curve, that every point is on the curve
/// y^2 = x^3 + b, and if check_subgroup that every point is in the order-r subgroup (snarkjs
/// checks neither; the subgroup test costs about a scalar multiplication per point).
template <class Point>
void read_point_array(section_reader& r, uint64_t count, std::vector<Point>& out, bool check_on_curve,
                      std::string_view what, bool check_subgroup = false) {
    static_assert(sizeof(Point) == 2 * sizeof(typename Point::field), "points must be two packed coordinates");
    constexpr size_t bytes = sizeof(Point);
    if (count > r.remaining() / bytes)
        throw r.fail(std::string(what) + ": " + std::to_string(count) + " points need more bytes than the section has");
    resize_for_bulk_read(out, size_t(count));
    const byte_source& src = r.source();
    const uint64_t at = r.take(count * bytes);
    // Chunks read and checked by one thread each, while the chunk is still in its cache: the
    // copies out of the page cache run in parallel too. The first bad index (or n) is a min
    // reduction, and an I/O error is carried out of the region (exceptions must not leave it).
    constexpr int64_t chunk = int64_t(1) << 13;
    const int64_t n = int64_t(out.size()), chunks = (n + chunk - 1) / chunk;
    int64_t first_bad = n;
    std::exception_ptr io_error;
#pragma omp parallel for reduction(min : first_bad) schedule(dynamic, 4)
    for (int64_t c = 0; c < chunks; ++c) {
        const int64_t lo = c * chunk, hi = std::min(n, lo + chunk);
        try {
            src.read_at(at + uint64_t(lo) * bytes, &out[size_t(lo)], size_t(hi - lo) * bytes);
        } catch (...) {
#pragma omp critical(cuzk_read_point_array)
            if (!io_error) io_error = std::current_exception();
            continue;
        }
        for (int64_t i = lo; i < hi; ++i) {
            const Point& p = out[size_t(i)];
            bool ok = detail::coordinates_canonical(p.x) && detail::coordinates_canonical(p.y);
            if (ok && (check_on_curve || check_subgroup)) ok = p.is_on_curve();
            if (ok && check_subgroup) ok = is_in_subgroup(p);
            if (!ok) {
                first_bad = std::min(first_bad, i);
                break;  // later ones in this chunk cannot be first
            }
        }
    }
    if (io_error) std::rethrow_exception(io_error);
    if (first_bad < n) {
        const Point& p = out[size_t(first_bad)];
        const bool canonical = detail::coordinates_canonical(p.x) && detail::coordinates_canonical(p.y);
        throw r.fail(std::string(what) + " " + std::to_string(first_bad) + ": " +
                     (!canonical         ? "coordinate is not below the modulus q"
                      : !p.is_on_curve() ? "point is not on the curve"
                                         : "point is not in the prime-order subgroup"));
    }
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
