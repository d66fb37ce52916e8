// SPDX-License-Identifier: MIT OR Apache-2.0
// One GPU as prover workers share it: its ordinal, its locks, the VRAM budget they draw on and
// the memory pool their per-proof buffers come from.
#pragma once

#include <cstddef>
#include <mutex>

#include "cuzk/gpu/memory_pool.hpp"
#include "cuzk/gpu/vram_budget.hpp"

namespace cuzk::groth16 {

/// Shared by every prover (and worker thread) that uses the same GPU. Its one CUDA object is
/// its memory pool; streams and buffers belong to the workers, so nothing here touches the whole
/// device.
class gpu_context {
public:
    /// `vram_budget_bytes`: what cuzk may allocate on this device, resident keys included. The
    /// pool keeps up to that much freed memory for the next proof instead of returning it to the
    /// driver at every synchronisation; give two contexts on one device budgets that fit it together.
    gpu_context(int device, size_t vram_budget_bytes)
        : device_(device), budget_(vram_budget_bytes), pool_(device, vram_budget_bytes) {}
    gpu_context(const gpu_context&) = delete;
    gpu_context& operator=(const gpu_context&) = delete;

    int device() const { return device_; }
    gpu::vram_budget& budget() { return budget_; }
    /// Where the provers' per-proof buffers are allocated (stream-ordered).
    const gpu::memory_pool& pool() const { return pool_; }
    /// Held while kernels run (split policy) or for the whole GPU phase (device policy).
    std::mutex& compute_mutex() { return compute_; }
    /// Held while a worker allocates and uploads (split policy).
    std::mutex& memory_mutex() { return memory_; }

private:
    int device_;
    gpu::vram_budget budget_;
    gpu::memory_pool pool_;
    std::mutex compute_, memory_;
};

}  // namespace cuzk::groth16
