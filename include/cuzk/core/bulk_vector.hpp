// SPDX-License-Identifier: MIT OR Apache-2.0
// Large vectors that a reader fills at once: sized with a transparent-huge-page hint, their fresh
// pages optionally first touched by several threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuzk/core/huge_pages.hpp"

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace cuzk::io {

/// Who first touches the fresh pages of a vector sized by resize_for_bulk_read.
enum class first_touch {
    /// The calling thread (while it zeroes the elements).
    caller,
    /// The OpenMP team, before the caller zeroes the elements: the kernel's page zeroing, and
    /// in a VM the host's backing of fresh guest memory (~1 s per GB when cold on the 2-core
    /// development VM), then run on every core. Inside a parallel region this is `caller`.
    team,
};

/// Empties v and reserves storage for `capacity` elements (at least n), asking the kernel for huge
/// pages over the first n when they span one: a 500 MB key section otherwise takes ~120k page
/// faults to populate (a third of its read time on 2 cores; a 4 KiB fault costs 5-10 us in the VMs
/// measured), and a 2^16 key's 4 MB sections ~1000 each. The hint covers the whole pages of the
/// storage, not only its 2 MiB-aligned middle: advising part of a mapping splits it, and the kernel
/// then will not use a huge page across the split (a 33 MB vector populated in 11 ms advised in the
/// middle, 5.5 ms advised whole, 95 ms not advised; a 4.2 MB one 5.2 ms not advised, 1.7 ms advised
/// whole, on a 2-core development VM). Only a hint (madvise; ignored where transparent
/// huge pages are off).
template <class T>
void reserve_for_bulk_read(std::vector<T>& v, size_t n, size_t capacity = 0) {
    v.clear();
    v.reserve(capacity > n ? capacity : n);
    advise_huge_pages(v.data(), n * sizeof(T));
}

/// Writes a zero byte into every 4 KiB page of [p, p + bytes), so that the kernel populates them
/// now, on the calling thread. For storage reserved (allocated, no elements in it yet) by
/// reserve_for_bulk_read: resizing the vector afterwards overwrites these bytes with its elements.
inline void touch_pages(void* p, size_t bytes) {
    volatile unsigned char* b = static_cast<unsigned char*>(p);
    for (size_t at = 0; at < bytes; at += 4096) b[at] = 0;
}

/// Sizes v to n value-initialised elements (capacity at least `capacity`) with
/// reserve_for_bulk_read's huge-page hint; with first_touch::team the fresh pages of a large
/// vector are first touched by the OpenMP team.
template <class T>
void resize_for_bulk_read(std::vector<T>& v, size_t n, size_t capacity = 0, first_touch touch = first_touch::caller) {
    reserve_for_bulk_read(v, n, capacity);
#if defined(_OPENMP)
    const size_t bytes = n * sizeof(T);
    if (touch == first_touch::team && bytes >= (size_t(8) << 20) && !omp_in_parallel()) {
        auto* p = reinterpret_cast<unsigned char*>(v.data());
        constexpr size_t step = size_t(2) << 20;  // a huge page at a time
        const int64_t steps = int64_t((bytes + step - 1) / step);
#pragma omp parallel for schedule(dynamic, 1)
        for (int64_t i = 0; i < steps; ++i) {
            const size_t lo = size_t(i) * step;
            touch_pages(p + lo, (bytes - lo < step ? bytes - lo : step));
        }
    }
#else
    (void)touch;
#endif
    v.resize(n);
}

}  // namespace cuzk::io
