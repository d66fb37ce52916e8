// SPDX-License-Identifier: MIT OR Apache-2.0
// The transparent-huge-page hint for large host buffers that are about to be filled at once.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>

namespace cuzk {

/// Asks the kernel for huge pages over the whole 4 KiB pages of [p, p + bytes) when they span at
/// least one huge page (2 MiB): a fresh 4 KiB page costs a 5-10 us fault in the VMs measured
/// (docs/log/2026-12.md, "Reading a 2^16 key: the huge-page hint for every section"). The whole
/// storage is advised, not only its 2 MiB-aligned middle: advising part of a mapping splits it, and
/// the kernel then will not use a huge page across the split. Only a hint (ignored where
/// transparent huge pages are off or madvise lacks MADV_HUGEPAGE).
inline void advise_huge_pages(const void* p, size_t bytes) {
#if defined(MADV_HUGEPAGE)
    constexpr uintptr_t huge = uintptr_t(1) << 21, page = 4096;
    if (p == nullptr || bytes < huge) return;
    const uintptr_t lo = reinterpret_cast<uintptr_t>(p) & ~(page - 1);
    const uintptr_t hi = (reinterpret_cast<uintptr_t>(p) + bytes + page - 1) & ~(page - 1);
    (void)::madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

}  // namespace cuzk
