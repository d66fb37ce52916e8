// Owning RAII wrapper of a non-blocking CUDA stream.
#pragma once

#include <cuda_runtime.h>

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

}  // namespace cuzk::gpu
