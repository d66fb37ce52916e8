// SPDX-License-Identifier: MIT OR Apache-2.0
// Owning RAII wrapper of a CUDA event (timing or ordering between streams).
#pragma once

#include <cuda_runtime.h>

#include <utility>

#include "cuzk/gpu/cuda_error.hpp"
#include "cuzk/gpu/host_waits.hpp"

namespace cuzk::gpu {

/// A cudaEvent_t; timing is enabled unless `timing` is false (ordering-only events are cheaper).
class event {
public:
    explicit event(bool timing = true) {
        CUZK_CUDA_CHECK(cudaEventCreateWithFlags(&e_, timing ? cudaEventDefault : cudaEventDisableTiming));
    }
    ~event() {
        if (e_ != nullptr) cudaEventDestroy(e_);
    }
    event(const event&) = delete;
    event& operator=(const event&) = delete;
    event(event&& o) noexcept : e_(std::exchange(o.e_, nullptr)) {}
    event& operator=(event&& o) noexcept {
        std::swap(e_, o.e_);
        return *this;
    }

    cudaEvent_t get() const noexcept { return e_; }
    operator cudaEvent_t() const noexcept { return e_; }
    void record(cudaStream_t s) { CUZK_CUDA_CHECK(cudaEventRecord(e_, s)); }
    /// Blocks until the event has happened: a counted host wait (host_waits.hpp).
    void synchronize() const {
        const cudaError_t q = cudaEventQuery(e_);
        if (q == cudaErrorNotReady && cudaPeekAtLastError() == cudaErrorNotReady) (void)cudaGetLastError();
        count_host_wait(q == cudaErrorNotReady);
        CUZK_CUDA_CHECK(cudaEventSynchronize(e_));
    }
    /// Milliseconds from `start` to this event (both recorded and complete).
    float elapsed_ms_since(const event& start) const {
        float ms = 0;
        CUZK_CUDA_CHECK(cudaEventElapsedTime(&ms, start.e_, e_));
        return ms;
    }

private:
    cudaEvent_t e_ = nullptr;
};

}  // namespace cuzk::gpu
