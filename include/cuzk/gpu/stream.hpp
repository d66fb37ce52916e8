// Owning RAII wrapper of a non-blocking CUDA stream.
#pragma once

#include <cuda_runtime.h>

#include <exception>
#include <utility>

#include "cuzk/gpu/cuda_error.hpp"

namespace cuzk::gpu {

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
    void synchronize() const { CUZK_CUDA_CHECK(cudaStreamSynchronize(s_)); }

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
        if (std::uncaught_exceptions() > exceptions_ && cudaStreamSynchronize(s_) != cudaSuccess)
            (void)cudaGetLastError();
    }
    wait_on_unwind(const wait_on_unwind&) = delete;
    wait_on_unwind& operator=(const wait_on_unwind&) = delete;

private:
    cudaStream_t s_;
    int exceptions_;
};

}  // namespace cuzk::gpu
