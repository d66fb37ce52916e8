// SPDX-License-Identifier: MIT OR Apache-2.0
// CUDA runtime failures as typed host errors that name the failing call and where it was made.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <iterator>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "cuzk/core/error.hpp"

namespace cuzk {

/// A CUDA runtime call failed. what() names the call, the CUDA error and the source location.
class cuda_error : public error {
public:
    cuda_error(cudaError_t code, const char* call, const char* file, int line)
        : error(std::string(call) + " failed: " + cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ") at " +
                file + ":" + std::to_string(line)),
          code_(code) {}

    /// The CUDA error code that was returned.
    cudaError_t code() const noexcept { return code_; }

private:
    cudaError_t code_;
};

namespace gpu {
/// Throws cuda_error when code is not cudaSuccess (use through CUZK_CUDA_CHECK).
/// Clears the runtime's last-error slot first, so that a failure reported here is not reported
/// again by the next launch check (a non-sticky error such as a failed registration).
inline void check(cudaError_t code, const char* call, const char* file, int line) {
    if (code != cudaSuccess) {
        (void)cudaGetLastError();
        throw cuda_error(code, call, file, line);
    }
}
}  // namespace gpu

/// Device fault injection for tests (docs/RELIABILITY.md): every CUZK_CUDA_CHECK and
/// CUZK_CUDA_CHECK_LAUNCH is a fault point. It is off until a test calls reset() or arm(): then
/// every point reached is counted, and the one that arm(k) names fails instead of making its call
/// (an allocation then leaves nothing allocated) and the check throws the cuda_error a real failure
/// of that call would (naming it). Off, a point costs one relaxed atomic load. The state is
/// process-wide on purpose: faults must reach code that takes no test parameter, cuzk::instances'
/// precompiled kernels' launchers included (every build has the hook, so a test of the injected
/// failures runs the code users link). Nothing but a test should turn it on.
namespace gpu::fault_injection {

/// What a fault point does, from the text of its call.
enum class kind { alloc, copy, launch, other };
inline constexpr int kinds = 4;

/// alloc: cudaMalloc*, cudaHostAlloc; copy: cudaMemcpy* and cudaMemset* (transfers and fills);
/// launch: a launch check, or a cub:: device algorithm (its size queries included); other: the
/// rest (events, streams, synchronisation, device and pointer queries, host registration).
constexpr kind classify(std::string_view call) {
    if (call.starts_with("cudaMalloc") || call.starts_with("cudaHostAlloc")) return kind::alloc;
    if (call.starts_with("cudaMemcpy") || call.starts_with("cudaMemset")) return kind::copy;
    if (call.starts_with("cub::")) return kind::launch;
    return kind::other;
}

constexpr const char* name(kind k) {
    constexpr const char* names[kinds] = {"alloc", "copy", "launch", "other"};
    return names[int(k)];
}

/// A fault point as it was reached.
struct point {
    kind what = kind::other;
    const char* call = "";
    const char* file = "";
    int line = 0;
};

/// Whether fault points are counted (and may fail): set by reset() and arm().
inline std::atomic<bool>& active() {
    static std::atomic<bool> on{false};
    return on;
}

/// The counters; every thread's fault points count.
struct state {
    std::mutex m;
    uint64_t reached = 0;  ///< fault points reached since reset()
    uint64_t by_kind[kinds] = {};
    uint64_t fail_at = 0;         ///< 1-based number of the point to fail, 0: none
    std::optional<point> failed;  ///< the point that was made to fail
};

inline state& current() {
    static state s;
    return s;
}

/// Zeroes the counters and disarms; fault points are counted from now on.
inline void reset() {
    state& s = current();
    std::lock_guard lock(s.m);
    s.reached = 0;
    std::fill(std::begin(s.by_kind), std::end(s.by_kind), 0);
    s.fail_at = 0;
    s.failed.reset();
    active().store(true);
}

/// reset(), then the k-th fault point from now (k >= 1) fails.
inline void arm(uint64_t k) {
    reset();
    std::lock_guard lock(current().m);
    current().fail_at = k;
}

inline uint64_t reached() {
    std::lock_guard lock(current().m);
    return current().reached;
}

inline uint64_t reached(kind k) {
    std::lock_guard lock(current().m);
    return current().by_kind[int(k)];
}

/// The point that failed since the last arm(), if one did.
inline std::optional<point> failed() {
    std::lock_guard lock(current().m);
    return current().failed;
}

/// Counts a fault point and, when it is the armed one, throws what a real failure of that kind
/// of call would (non-sticky errors, so the next call works) without making the call.
inline void reach(kind k, const char* call, const char* file, int line) {
    constexpr cudaError_t codes[kinds] = {cudaErrorMemoryAllocation, cudaErrorInvalidValue,
                                          cudaErrorLaunchOutOfResources, cudaErrorInvalidValue};
    {
        state& s = current();
        std::lock_guard lock(s.m);
        ++s.by_kind[int(k)];
        if (++s.reached != s.fail_at) return;
        s.failed = point{k, call, file, line};
    }
    check(codes[int(k)], call, file, line);
}

/// The fault point of a checked call (CUZK_CUDA_CHECK): nothing unless a test turned counting on.
inline void at(const char* call, const char* file, int line) {
    if (active().load(std::memory_order_relaxed)) reach(classify(call), call, file, line);
}

/// The fault point of a launch check (CUZK_CUDA_CHECK_LAUNCH).
inline void at_launch(const char* what, const char* file, int line) {
    if (active().load(std::memory_order_relaxed)) reach(kind::launch, what, file, line);
}

}  // namespace gpu::fault_injection

}  // namespace cuzk

/// CUZK_CUDA_CHECK(call): evaluates a CUDA runtime call and throws cuzk::cuda_error naming it if
/// it fails. CUZK_CUDA_CHECK_LAUNCH(what): after a kernel launch, reports a launch-configuration
/// error as a cuda_error naming `what`. Each is a fault point first (gpu::fault_injection, off
/// unless a test turns it on).
#define CUZK_CUDA_CHECK(call) \
    (::cuzk::gpu::fault_injection::at(#call, __FILE__, __LINE__), ::cuzk::gpu::check((call), #call, __FILE__, __LINE__))
#define CUZK_CUDA_CHECK_LAUNCH(what)                                    \
    (::cuzk::gpu::fault_injection::at_launch(what, __FILE__, __LINE__), \
     ::cuzk::gpu::check(cudaGetLastError(), what, __FILE__, __LINE__))
