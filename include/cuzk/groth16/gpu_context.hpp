// One GPU as prover workers share it: its ordinal, its locks and the VRAM budget they draw on.
#pragma once

#include <cstddef>
#include <mutex>

#include "cuzk/gpu/vram_budget.hpp"

namespace cuzk::groth16 {

/// Shared by every prover (and worker thread) that uses the same GPU. Owns no CUDA state:
/// streams and buffers belong to the workers, so nothing here touches the whole device.
class gpu_context {
public:
    /// `vram_budget_bytes`: what cuzk may allocate on this device, resident keys included.
    gpu_context(int device, size_t vram_budget_bytes) : device_(device), budget_(vram_budget_bytes) {}
    gpu_context(const gpu_context&) = delete;
    gpu_context& operator=(const gpu_context&) = delete;

    int device() const { return device_; }
    gpu::vram_budget& budget() { return budget_; }
    /// Held while kernels run (split policy) or for the whole GPU phase (device policy).
    std::mutex& compute_mutex() { return compute_; }
    /// Held while a worker allocates and uploads (split policy).
    std::mutex& memory_mutex() { return memory_; }

private:
    int device_;
    gpu::vram_budget budget_;
    std::mutex compute_, memory_;
};

}  // namespace cuzk::groth16
