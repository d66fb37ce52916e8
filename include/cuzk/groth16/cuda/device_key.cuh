// SPDX-License-Identifier: MIT OR Apache-2.0
// A proving key's point vectors in device memory (resident for a prover's lifetime, or uploaded
// for one proof), and the five events that say when each vector has arrived.
//
//   detail::key_events ready;
//   detail::device_key<C> dk(pk, stream, copy_stream, ready.e);   // uploads on copy_stream
//   cudaStreamWaitEvent(stream, ready.e[3], 0);                   // L is there
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "cuzk/gpu/cuda_error.hpp"
#include "cuzk/gpu/device_buffer.hpp"
#include "cuzk/gpu/stream.hpp"
#include "cuzk/groth16/keys.hpp"

namespace cuzk::groth16::detail {

/// The proving-key point vectors in device memory.
template <class Curve>
struct device_key {
    using G1 = typename Curve::g1;
    using G2 = typename Curve::g2;
    gpu::device_buffer<affine<G1>> a, b_g1, l, h;
    gpu::device_buffer<affine<G2>> b_g2;
    // Last, so destroyed first: after a failure part-way, the copies still queued on the copy
    // stream finish before the vectors are freed on their allocation stream.
    gpu::wait_on_unwind uploads_;

    static size_t bytes_for(const proving_key<Curve>& pk) {
        return (pk.a.size() + pk.b_g1.size() + pk.l.size() + pk.h.size()) * sizeof(affine<G1>) +
               pk.b_g2.size() * sizeof(affine<G2>);
    }
    /// Allocates all vectors on `s` and uploads each on `copy`, recording `ready[k]` after vector k
    /// (order: a, b_g1, b_g2, l, h) so that compute can wait for exactly what it needs.
    /// From `pool` when given (a per-proof key: gpu_context's pool), else the device's default pool.
    device_key(const proving_key<Curve>& pk, cudaStream_t s, cudaStream_t copy, cudaEvent_t* ready,
               cudaMemPool_t pool = nullptr)
        : a(pk.a.size(), s, pool),
          b_g1(pk.b_g1.size(), s, pool),
          l(pk.l.size(), s, pool),
          h(pk.h.size(), s, pool),
          b_g2(pk.b_g2.size(), s, pool),
          uploads_(copy) {
        if (copy != s) {  // the copies must see the allocations
            cudaEvent_t allocated = ready[0];
            CUZK_CUDA_CHECK(cudaEventRecord(allocated, s));
            CUZK_CUDA_CHECK(cudaStreamWaitEvent(copy, allocated, 0));
        }
        a.upload(pk.a.data(), copy);
        CUZK_CUDA_CHECK(cudaEventRecord(ready[0], copy));
        b_g1.upload(pk.b_g1.data(), copy);
        CUZK_CUDA_CHECK(cudaEventRecord(ready[1], copy));
        b_g2.upload(pk.b_g2.data(), copy);
        CUZK_CUDA_CHECK(cudaEventRecord(ready[2], copy));
        l.upload(pk.l.data(), copy);
        CUZK_CUDA_CHECK(cudaEventRecord(ready[3], copy));
        h.upload(pk.h.data(), copy);
        CUZK_CUDA_CHECK(cudaEventRecord(ready[4], copy));
    }
};

/// Five events (one per key vector), created and destroyed together.
struct key_events {
    cudaEvent_t e[5] = {};
    key_events() {
        try {
            for (auto& x : e) CUZK_CUDA_CHECK(cudaEventCreateWithFlags(&x, cudaEventDisableTiming));
        } catch (...) {  // no destructor runs for a constructor that throws
            destroy();
            throw;
        }
    }
    ~key_events() { destroy(); }
    void destroy() noexcept {
        for (auto& x : e)
            if (x != nullptr) cudaEventDestroy(x);  // destroying a null event would set the last error
    }
    key_events(const key_events&) = delete;
    key_events& operator=(const key_events&) = delete;
};

}  // namespace cuzk::groth16::detail
