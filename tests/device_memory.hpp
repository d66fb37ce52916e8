// SPDX-License-Identifier: MIT OR Apache-2.0
// Device memory as a test sees it from outside the prover: the device's stream-ordered pool
// (resident keys, tables, the MSM's own convenience paths), optionally a gpu_context's pool
// (the provers' per-proof buffers), and cudaMemGetInfo. Plain runtime calls, not
// CUZK_CUDA_CHECK: in the fault-injection test those would be fault points.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace cuzk::test {

inline void expect_cuda(cudaError_t code, const char* what) {
    if (code != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorName(code));
}

struct device_memory {
    uint64_t pool_used = 0;      ///< bytes of live allocations from the pools
    uint64_t pool_reserved = 0;  ///< bytes the pools hold from the driver (live or kept)
    uint64_t device_used = 0;    ///< total - free per cudaMemGetInfo (every process, every allocator)

    /// Queries only: no synchronisation, nothing trimmed (what a service would see between proofs).
    /// The pool numbers add the device's default pool and `context_pool` (gpu_context::pool()).
    static device_memory now(int device, cudaMemPool_t context_pool = nullptr) {
        device_memory m;
        cudaMemPool_t pool = nullptr;
        expect_cuda(cudaDeviceGetMemPool(&pool, device), "cudaDeviceGetMemPool");
        for (cudaMemPool_t p : {pool, context_pool}) {
            if (p == nullptr) continue;
            uint64_t used = 0, reserved = 0;
            expect_cuda(cudaMemPoolGetAttribute(p, cudaMemPoolAttrUsedMemCurrent, &used),
                        "cudaMemPoolGetAttribute(used)");
            expect_cuda(cudaMemPoolGetAttribute(p, cudaMemPoolAttrReservedMemCurrent, &reserved),
                        "cudaMemPoolGetAttribute(reserved)");
            m.pool_used += used;
            m.pool_reserved += reserved;
        }
        size_t free = 0, total = 0;
        expect_cuda(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
        m.device_used = total - free;
        return m;
    }

    /// After every stream-ordered free has run (cudaDeviceSynchronize) and the pools have given
    /// back what they keep (cudaMemPoolTrimTo 0): the level to compare with a baseline taken the
    /// same way. Device-global calls, so for tests only, never beside another worker's proof.
    static device_memory settled(int device, cudaMemPool_t context_pool = nullptr) {
        expect_cuda(cudaSetDevice(device), "cudaSetDevice");
        expect_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
        cudaMemPool_t pool = nullptr;
        expect_cuda(cudaDeviceGetMemPool(&pool, device), "cudaDeviceGetMemPool");
        expect_cuda(cudaMemPoolTrimTo(pool, 0), "cudaMemPoolTrimTo");
        if (context_pool != nullptr) expect_cuda(cudaMemPoolTrimTo(context_pool, 0), "cudaMemPoolTrimTo");
        return now(device, context_pool);
    }
};

}  // namespace cuzk::test
