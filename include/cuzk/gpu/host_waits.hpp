// SPDX-License-Identifier: MIT OR Apache-2.0
// Counts of the calls that block the host on the GPU, per thread: every stream or event wait and
// every device-to-host copy into pageable memory (which returns only once the copy is done,
// CUDA Runtime API, "API synchronization behavior"). A stall is a wait that found work still
// queued: from then until the host enqueues again the GPU idles. The counted calls are the
// wrappers of gpu/stream.hpp and gpu/event.hpp; outside gpu/ no header of include/cuzk calls
// cudaStreamSynchronize, cudaEventSynchronize or a device-to-host cudaMemcpyAsync itself
// (tests/host_waits_test.sh checks it), so the counts are every wait there is.
// Plain C++: stage_timer.hpp and the engine read the counts without the CUDA headers.
#pragma once

#include <cstdint>

namespace cuzk::gpu {

struct host_wait_count {
    uint64_t waits = 0;   ///< blocking calls
    uint64_t stalls = 0;  ///< of which found the GPU still busy
    host_wait_count operator-(const host_wait_count& o) const { return {waits - o.waits, stalls - o.stalls}; }
};

namespace detail {
inline host_wait_count& host_waits_of_this_thread() noexcept {
    thread_local host_wait_count c;
    return c;
}
}  // namespace detail

/// The calling thread's counts since it started (take the difference around a proof).
inline host_wait_count host_waits() noexcept { return detail::host_waits_of_this_thread(); }

/// Counts one blocking call; `busy`: the GPU had work queued when it was made.
inline void count_host_wait(bool busy) noexcept {
    host_wait_count& c = detail::host_waits_of_this_thread();
    ++c.waits;
    if (busy) ++c.stalls;
}

}  // namespace cuzk::gpu
