// SPDX-License-Identifier: MIT OR Apache-2.0
// A stream-ordered memory pool of one device, owned (RAII): where a gpu_context's per-proof
// buffers come from.
//
// The device's default pool has a release threshold of 0: at every synchronisation it hands its
// free memory back to the driver, so the next proof's cudaMallocAsync maps it again (~33 ms a
// 2^24 proof for 0.7 GB of gathered scalars, docs/PERFORMANCE.md). Raising the default pool's
// threshold would change every other user of the device in the process; an own pool keeps what
// it freed, up to the threshold it was given, for its owner alone.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "cuzk/gpu/cuda_error.hpp"

namespace cuzk::gpu {

class memory_pool {
public:
    /// A pool of device memory on `device` that keeps up to `keep_bytes` of freed memory
    /// reserved instead of returning it to the driver at synchronisations.
    memory_pool(int device, size_t keep_bytes) {
        cudaMemPoolProps props{};
        props.allocType = cudaMemAllocationTypePinned;
        props.handleTypes = cudaMemHandleTypeNone;
        props.location.type = cudaMemLocationTypeDevice;
        props.location.id = device;
        CUZK_CUDA_CHECK(cudaMemPoolCreate(&pool_, &props));
        uint64_t threshold = keep_bytes;
        if (const cudaError_t e = cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReleaseThreshold, &threshold);
            e != cudaSuccess) {
            cudaMemPoolDestroy(pool_);
            CUZK_CUDA_CHECK(e);
        }
    }
    /// Memory still allocated from the pool is released when its last stream-ordered free runs.
    ~memory_pool() {
        if (pool_ != nullptr) cudaMemPoolDestroy(pool_);
    }
    memory_pool(const memory_pool&) = delete;
    memory_pool& operator=(const memory_pool&) = delete;

    cudaMemPool_t get() const noexcept { return pool_; }

    /// Bytes of live allocations (a query: no synchronisation).
    uint64_t used_bytes() const { return attribute(cudaMemPoolAttrUsedMemCurrent); }
    /// Bytes the pool holds from the driver, live or kept for reuse.
    uint64_t reserved_bytes() const { return attribute(cudaMemPoolAttrReservedMemCurrent); }

private:
    uint64_t attribute(cudaMemPoolAttr a) const {
        uint64_t v = 0;
        CUZK_CUDA_CHECK(cudaMemPoolGetAttribute(pool_, a, &v));
        return v;
    }

    cudaMemPool_t pool_ = nullptr;
};

}  // namespace cuzk::gpu
