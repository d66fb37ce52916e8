// SPDX-License-Identifier: MIT OR Apache-2.0
// Host-to-device copies from pageable memory at page-locked speed: the bytes go through a
// small ring of page-locked slots, the host's copy into one slot overlapping the DMA out of
// the other.
//
//   gpu::upload_staging staging;                        // two 32 MiB page-locked slots, reused
//   staging.upload(d_dst, src, bytes, stream);          // src may be reused when it returns
//
// Why: cudaMemcpyAsync from pageable memory is staged by the driver one small buffer at a time
// (a 512 MiB witness took ~85 ms on the H200 machine, ~6 GB/s); from page-locked memory the
// copy engine runs at PCIe speed. Page-locking the caller's memory per call costs as much as
// the copy, so the ring is allocated once and reused. A source that is already page-locked is
// copied directly (then, as with any cudaMemcpyAsync, it must stay valid until `stream` has
// passed the copy). Calls from several threads are serialised (they share one PCIe link).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstring>
#include <mutex>

#include "cuzk/gpu/cuda_error.hpp"

namespace cuzk::gpu {

class upload_staging {
  public:
    static constexpr size_t default_slot_bytes = size_t(32) << 20;

    explicit upload_staging(size_t slot_bytes = default_slot_bytes) : slot_bytes_(slot_bytes) {}
    ~upload_staging() { release(); }
    upload_staging(const upload_staging&) = delete;
    upload_staging& operator=(const upload_staging&) = delete;

    /// Enqueues the copy of `bytes` bytes from host `src` to device `dst` on `stream`. For a
    /// pageable source it returns once every byte is in a slot (src may then be freed); the
    /// device copy completes in stream order.
    void upload(void* dst, const void* src, size_t bytes, cudaStream_t stream) {
        if (bytes == 0) return;
        cudaPointerAttributes attr{};
        CUZK_CUDA_CHECK(cudaPointerGetAttributes(&attr, src));
        if (attr.type == cudaMemoryTypeHost) {  // already page-locked
            CUZK_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream));
            return;
        }
        std::lock_guard lock(mutex_);
        allocate();
        auto* d = static_cast<char*>(dst);
        const auto* h = static_cast<const char*>(src);
        for (size_t off = 0, k = 0; off < bytes; off += slot_bytes_, ++k) {
            const int s = int(k % 2);
            const size_t len = bytes - off < slot_bytes_ ? bytes - off : slot_bytes_;
            CUZK_CUDA_CHECK(cudaEventSynchronize(done_[s]));  // the slot's previous DMA is done
            copy_in(static_cast<char*>(slot_[s]), h + off, len);
            CUZK_CUDA_CHECK(cudaMemcpyAsync(d + off, slot_[s], len, cudaMemcpyHostToDevice, stream));
            CUZK_CUDA_CHECK(cudaEventRecord(done_[s], stream));
        }
    }

    size_t slot_bytes() const { return slot_bytes_; }

  private:
    // Complete or nothing: a failure part-way leaves no slot behind, so the next call starts over.
    void allocate() {
        if (done_[1] != nullptr) return;
        try {
            for (int s = 0; s < 2; ++s) {
                // Portable: usable from every device, whichever the caller's stream belongs to.
                CUZK_CUDA_CHECK(cudaHostAlloc(&slot_[s], slot_bytes_, cudaHostAllocPortable));
                CUZK_CUDA_CHECK(cudaEventCreateWithFlags(&done_[s], cudaEventDisableTiming));
            }
        } catch (...) {
            release();
            throw;
        }
    }
    void release() noexcept {
        for (int s = 0; s < 2; ++s) {
            if (done_[s] != nullptr) {
                cudaEventSynchronize(done_[s]);  // no DMA may still read the slot
                cudaEventDestroy(done_[s]);
                done_[s] = nullptr;
            }
            if (slot_[s] != nullptr) cudaFreeHost(slot_[s]);
            slot_[s] = nullptr;
        }
    }

    // One thread's memcpy reaches ~10 GB/s, below the copy engine's rate: eight share a slot
    // (four gave 16 GB/s for the 2^24 witness on the H200 machine).
    static void copy_in(char* dst, const char* src, size_t len) {
        constexpr int parts = 8;
        const size_t step = (len + parts - 1) / parts;
#pragma omp parallel for num_threads(parts) schedule(static) if (len >= (size_t(4) << 20))
        for (int p = 0; p < parts; ++p) {
            const size_t lo = size_t(p) * step;
            if (lo < len) std::memcpy(dst + lo, src + lo, (len - lo < step ? len - lo : step));
        }
    }

    std::mutex mutex_;
    size_t slot_bytes_;
    void* slot_[2] = {nullptr, nullptr};
    cudaEvent_t done_[2] = {nullptr, nullptr};
};

}  // namespace cuzk::gpu
