// Large vectors that a reader fills at once: sized with a transparent-huge-page hint.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace cuzk::io {

/// Who first touches the fresh pages of a vector sized by resize_for_bulk_read.
enum class first_touch {
    /// The calling thread (while it zeroes the elements).
    caller,
    /// The OpenMP team, one page per thread at a time, before the caller zeroes the elements: the
    /// kernel's page zeroing, and in a VM the host's backing of fresh guest memory (~1 s per GB
    /// when cold on the 2-core development VM, 1.7x faster on both cores), then run on every core.
    /// Inside a parallel region this is `caller`.
    team,
};

/// Sizes v to n elements (capacity at least `capacity`), asking the kernel for huge pages first
/// when the vector is large: a 500 MB key section otherwise takes ~120k page faults to populate
/// (a third of its read time on 2 cores; a 4 KiB fault costs ~10 us in the VMs measured). Only a
/// hint (madvise; ignored where transparent huge pages are off).
template <class T>
void resize_for_bulk_read(std::vector<T>& v, size_t n, size_t capacity = 0, first_touch touch = first_touch::caller) {
    v.clear();
    v.reserve(capacity > n ? capacity : n);
    constexpr uintptr_t huge = uintptr_t(1) << 21;
    const size_t bytes = n * sizeof(T);
#if defined(MADV_HUGEPAGE)
    if (bytes >= 4 * huge) {
        const uintptr_t lo = (reinterpret_cast<uintptr_t>(v.data()) + huge - 1) & ~(huge - 1);
        const uintptr_t hi = (reinterpret_cast<uintptr_t>(v.data()) + bytes) & ~(huge - 1);
        if (hi > lo) (void)::madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);
    }
#endif
#if defined(_OPENMP)
    // One byte per 4 KiB page of the reserved (allocated, not yet constructed) storage; resize
    // below overwrites it with the value-initialised elements.
    if (touch == first_touch::team && bytes >= 4 * huge && !omp_in_parallel()) {
        volatile unsigned char* p = reinterpret_cast<unsigned char*>(v.data());
        const int64_t pages = int64_t(bytes >> 12);
#pragma omp parallel for schedule(dynamic, 64)
        for (int64_t i = 0; i < pages; ++i) p[size_t(i) << 12] = 0;
    }
#else
    (void)touch;
#endif
    v.resize(n);
}

}  // namespace cuzk::io
