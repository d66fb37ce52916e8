// SPDX-License-Identifier: MIT OR Apache-2.0
// The locks of one proof's GPU stages under a lock granularity (policy.hpp), a run-time choice
// (cuda_prover_options::locking): split takes the
// context's memory lock for the inputs stage, then its compute lock for the compute stage, so
// that one proof's uploads overlap another's compute; device holds the compute lock over both;
// none takes nothing (the caller serialises). Released in reverse order on an exception.
#pragma once

#include <mutex>

#include "cuzk/groth16/cuda/gpu_context.cuh"
#include "cuzk/groth16/policy.hpp"

namespace cuzk::groth16::detail {

class stage_locks {
public:
    /// Taken for the inputs stage.
    stage_locks(gpu_context& gpu, lock_granularity lock) : gpu_(gpu), lock_(lock) {
        if (lock == lock_granularity::device) whole_ = std::unique_lock(gpu.compute_mutex());
        if (lock == lock_granularity::split) memory_ = std::unique_lock(gpu.memory_mutex());
    }
    /// The inputs stage is queued: under split the memory lock goes, the compute lock comes.
    void inputs_done() {
        if (memory_.owns_lock()) memory_.unlock();
        if (lock_ == lock_granularity::split) compute_ = std::unique_lock(gpu_.compute_mutex());
    }
    /// The compute stage has passed on the GPU: every lock goes, the next proof comes in.
    void compute_done() {
        if (compute_.owns_lock()) compute_.unlock();
        if (whole_.owns_lock()) whole_.unlock();
    }
    stage_locks(const stage_locks&) = delete;
    stage_locks& operator=(const stage_locks&) = delete;

private:
    gpu_context& gpu_;
    lock_granularity lock_;
    std::unique_lock<std::mutex> whole_, memory_, compute_;
};

}  // namespace cuzk::groth16::detail
