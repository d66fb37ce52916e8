// SPDX-License-Identifier: MIT OR Apache-2.0
// Page-locked host memory where queued device-to-host copies land: enqueued GPU work leaves its
// small results here (an MSM's window sums, a count, a flag) and the host reads them after one
// wait on the stream, where a copy into pageable memory would block once per result.
//
//   gpu::result_area area;                                     // one per worker, kept
//   const uint32_t* n = area.download(d_count, 1, stream);     // queued, returns at once
//   gpu::wait(stream);                                         // the one wait
//   use(*n);
//   area.reset();                                              // before the next proof's results
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "cuzk/gpu/cuda_error.hpp"

namespace cuzk::gpu {

class result_area {
public:
    result_area() = default;
    ~result_area() {
        for (const chunk& c : chunks_) cudaFreeHost(c.p);
    }
    result_area(const result_area&) = delete;
    result_area& operator=(const result_area&) = delete;

    /// `bytes` of page-locked memory (64-byte aligned), valid until reset() or destruction. Grows
    /// by a chunk when full (a page-locked allocation: only the first proofs of a worker pay it);
    /// what was handed out never moves.
    void* take(size_t bytes) {
        bytes = (bytes + align - 1) / align * align;
        while (chunk_ < chunks_.size() && used_ + bytes > chunks_[chunk_].bytes) ++chunk_, used_ = 0;
        if (chunk_ == chunks_.size()) {
            chunk c{nullptr, std::max(bytes, min_chunk)};
            CUZK_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&c.p), c.bytes, cudaHostAllocPortable));
            chunks_.push_back(c);
            used_ = 0;
        }
        char* p = chunks_[chunk_].p + used_;
        used_ += bytes;
        return p;
    }
    template <class T>
    T* take(size_t count) {
        return static_cast<T*>(take(count * sizeof(T)));
    }

    /// Queues a copy of `count` elements of device memory into the area on s and returns where
    /// they will be once s has passed it (read them only after a wait that covers it).
    template <class T>
    const T* download(const T* device, size_t count, cudaStream_t s) {
        T* host = take<T>(count);
        CUZK_CUDA_CHECK(cudaMemcpyAsync(host, device, count * sizeof(T), cudaMemcpyDeviceToHost, s));
        return host;
    }

    /// Everything taken is free again (no copy into it may still be queued).
    void reset() noexcept { chunk_ = 0, used_ = 0; }

private:
    static constexpr size_t align = 64;
    static constexpr size_t min_chunk = size_t(64) << 10;
    struct chunk {
        char* p;
        size_t bytes;
    };
    std::vector<chunk> chunks_;
    size_t chunk_ = 0, used_ = 0;
};

/// The calling thread's own area, for the blocking entry points of msm/ (each resets it, takes
/// what it needs, waits, and reads it before it returns, so no result in it outlives the call).
inline result_area& thread_result_area() {
    thread_local result_area area;
    return area;
}

}  // namespace cuzk::gpu
