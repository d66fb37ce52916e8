// SPDX-License-Identifier: MIT OR Apache-2.0
// Owning RAII wrapper of a non-blocking CUDA stream.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <exception>
#include <utility>

#include "cuzk/gpu/cuda_error.hpp"
#include "cuzk/gpu/host_waits.hpp"

namespace cuzk::gpu {

/// Whether stream s still has work queued (the query's not-ready answer is no error; it is taken
/// out of the last-error slot so that the next launch check does not see it).
inline bool stream_busy(cudaStream_t s) noexcept {
    const cudaError_t q = cudaStreamQuery(s);
    if (q == cudaErrorNotReady && cudaPeekAtLastError() == cudaErrorNotReady) (void)cudaGetLastError();
    return q == cudaErrorNotReady;
}

/// Blocks until all work queued on s is done: a counted host wait (host_waits.hpp).
inline void wait(cudaStream_t s) {
    count_host_wait(stream_busy(s));
    CUZK_CUDA_CHECK(cudaStreamSynchronize(s));
}

/// wait() for destructors and cleanups: errors are dropped and the last-error slot cleared, so
/// that a cleanup does not fail the next launch check. False when the wait failed.
inline bool wait_noexcept(cudaStream_t s) noexcept {
    count_host_wait(stream_busy(s));
    if (cudaStreamSynchronize(s) == cudaSuccess) return true;
    (void)cudaGetLastError();
    return false;
}

/// Copies `bytes` from device memory into pageable host memory, queued on s: the call returns
/// once the copy is done, so it is a counted host wait.
inline void download_blocking(void* host, const void* device, size_t bytes, cudaStream_t s) {
    count_host_wait(stream_busy(s));
    CUZK_CUDA_CHECK(cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, s));
}

/// A cudaStream_t created non-blocking (it never synchronises with the legacy default stream).
class stream {
public:
    stream() { CUZK_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
    ~stream() {
        if (s_ != nullptr) cudaStreamDestroy(s_);
    }
    stream(const stream&) = delete;
    stream& operator=(const stream&) = delete;
    stream(stream&& o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
    stream& operator=(stream&& o) noexcept {
        std::swap(s_, o.s_);
        return *this;
    }

    cudaStream_t get() const noexcept { return s_; }
    operator cudaStream_t() const noexcept { return s_; }
    /// Blocks the calling thread until all work queued on this stream is done.
    void synchronize() const { wait(s_); }

private:
    cudaStream_t s_ = nullptr;
};

/// Waits for a stream when destroyed during an exception's unwinding (only then), so that the
/// work a failed proof left queued on it has run before what that work uses is freed or given
/// back; the success path orders its own frees. Errors are dropped and the last-error slot
/// cleared: a cleanup must not fail the next launch check.
class wait_on_unwind {
public:
    explicit wait_on_unwind(cudaStream_t s) : s_(s), exceptions_(std::uncaught_exceptions()) {}
    ~wait_on_unwind() {
        if (std::uncaught_exceptions() > exceptions_) (void)wait_noexcept(s_);
    }
    wait_on_unwind(const wait_on_unwind&) = delete;
    wait_on_unwind& operator=(const wait_on_unwind&) = delete;

private:
    cudaStream_t s_;
    int exceptions_;
};

}  // namespace cuzk::gpu
