// SPDX-License-Identifier: MIT OR Apache-2.0
// Owning RAII device allocation of n elements of T, allocated and freed in stream order.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "cuzk/gpu/cuda_error.hpp"
#include "cuzk/gpu/stream.hpp"

namespace cuzk::gpu {

/// n elements of T in device memory. Allocated with cudaMallocAsync on the given stream and
/// freed on the same stream, so it never synchronises the device. Contents are uninitialised.
template <class T>
class device_buffer {
public:
    device_buffer() = default;
    /// From `pool` (a gpu::memory_pool) or, when null, the device's default pool.
    device_buffer(size_t n, cudaStream_t s, cudaMemPool_t pool = nullptr) : n_(n), s_(s) {
        if (n == 0) return;
        if (pool == nullptr) CUZK_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&p_), n * sizeof(T), s));
        else CUZK_CUDA_CHECK(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&p_), n * sizeof(T), pool, s));
    }
    ~device_buffer() { reset(); }
    device_buffer(const device_buffer&) = delete;
    device_buffer& operator=(const device_buffer&) = delete;
    device_buffer(device_buffer&& o) noexcept
        : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)), s_(o.s_) {}
    device_buffer& operator=(device_buffer&& o) noexcept {
        std::swap(p_, o.p_);
        std::swap(n_, o.n_);
        std::swap(s_, o.s_);
        return *this;
    }

    /// Frees the allocation (stream-ordered on the stream it was allocated on).
    void reset() noexcept {
        if (p_ != nullptr) cudaFreeAsync(p_, s_);
        p_ = nullptr;
        n_ = 0;
    }

    T* data() noexcept { return p_; }
    const T* data() const noexcept { return p_; }
    size_t size() const noexcept { return n_; }
    size_t bytes() const noexcept { return n_ * sizeof(T); }
    cudaStream_t stream() const noexcept { return s_; }

    /// Asynchronous copy of size() elements from host memory (pinned for real overlap).
    void upload(const T* host, cudaStream_t s) {
        CUZK_CUDA_CHECK(cudaMemcpyAsync(p_, host, bytes(), cudaMemcpyHostToDevice, s));
    }
    /// Copy of size() elements to host memory, queued on s. Into pageable memory it returns once
    /// done and counts as a host wait (download_blocking); into page-locked memory it does not wait.
    void download(T* host, cudaStream_t s) const {
        cudaPointerAttributes a{};
        const cudaError_t e = cudaPointerGetAttributes(&a, host);
        if (e != cudaSuccess) (void)cudaGetLastError();  // that error is this query's own
        if (e != cudaSuccess || a.type != cudaMemoryTypeHost) {
            download_blocking(host, p_, bytes(), s);
            return;
        }
        CUZK_CUDA_CHECK(cudaMemcpyAsync(host, p_, bytes(), cudaMemcpyDeviceToHost, s));
    }

private:
    T* p_ = nullptr;
    size_t n_ = 0;
    cudaStream_t s_ = nullptr;
};

}  // namespace cuzk::gpu
