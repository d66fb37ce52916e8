// SPDX-License-Identifier: MIT OR Apache-2.0
// The readers' one parallel loop: decode [0, count) in chunks on the OpenMP team, find the first
// bad item, carry an exception out of the parallel region, and populate fresh storage beside it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <initializer_list>
#include <vector>

#include "cuzk/core/bulk_vector.hpp"

namespace cuzk::io {

/// Reserved storage (allocated, not yet holding elements) whose pages decode_chunks populates.
struct fresh_pages {
    void* data = nullptr;
    size_t bytes = 0;
};

/// Runs decode(lo, hi, buffer) over [0, count) in chunks of `chunk` items on the OpenMP team;
/// each call returns the first bad index in [lo, hi), or hi. Each thread gets a buffer of
/// buffer_bytes of its own (none when 0). Beside the chunks the team
/// touches every page of `touch` (2 MiB per work item, before the chunks; spans under 8 MiB are
/// left to the caller's memset), and one thread runs `prepare` first and then joins the chunks
/// (dynamic schedule: the others have taken more meanwhile). Returns the first bad index, or
/// count; the first exception (none may leave a parallel region) is rethrown afterwards.
template <class Prepare, class Decode>
uint64_t decode_chunks(uint64_t count, uint64_t chunk, size_t buffer_bytes, std::initializer_list<fresh_pages> touch,
                       Prepare&& prepare, Decode&& decode) {
    constexpr size_t touch_step = size_t(2) << 20;
    std::vector<fresh_pages> touches;  // one work item each
    for (const fresh_pages& t : touch)
        for (size_t at = 0; t.bytes >= 4 * touch_step && at < t.bytes; at += touch_step)  // small: the memset does it
            touches.push_back({static_cast<unsigned char*>(t.data) + at, std::min(touch_step, t.bytes - at)});
    const int64_t n = int64_t(count), step = int64_t(chunk), chunks = (n + step - 1) / step;
    const int64_t n_touch = int64_t(touches.size()), items = n_touch + chunks;
    int64_t first_bad = n;
    std::exception_ptr error;
    auto keep = [&error] {
#pragma omp critical(cuzk_io_decode_chunks)
        if (!error) error = std::current_exception();
    };
#pragma omp parallel reduction(min : first_bad) if (items > 1)  // a team costs more than one chunk
    {
#pragma omp single nowait
        try {
            prepare();
        } catch (...) {
            keep();
        }
        std::vector<uint8_t> buffer;
        bool have_buffer = true;
        try {
            buffer.resize(buffer_bytes);
        } catch (...) {
            keep();
            have_buffer = false;
        }
#pragma omp for schedule(dynamic, 1)
        for (int64_t item = 0; item < items; ++item) {
            if (item < n_touch) {
                touch_pages(touches[size_t(item)].data, touches[size_t(item)].bytes);
                continue;
            }
            if (!have_buffer) continue;
            const int64_t lo = (item - n_touch) * step, hi = std::min(n, lo + step);
            try {
                const int64_t bad = int64_t(decode(uint64_t(lo), uint64_t(hi), buffer.data()));
                if (bad < hi) first_bad = std::min(first_bad, bad);
            } catch (...) {
                keep();
            }
        }
    }
    if (error) std::rethrow_exception(error);
    return uint64_t(first_bad);
}

}  // namespace cuzk::io
