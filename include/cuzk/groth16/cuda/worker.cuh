// SPDX-License-Identifier: MIT OR Apache-2.0
// groth16::cuda_worker<Curve>: what one thread proving on one CUDA prover keeps between proofs.
//
//   cuda_prover<C> p(pk, gpu, circuit);
//   cuda_worker<C> w = p.make_worker();              // per thread, once: streams, buffers, VRAM
//   for (auto& z : witnesses) out.push_back(p.prove(w, z));
//
// A worker owns its compute and copy streams, the events that say when a per-proof key has
// arrived, one proof's device buffers (a | b | c, z, z at a compressed key's A and B variables,
// or a compact proof's two slots in place of those; the MSM workspace, the violated-constraint
// flag; from the gpu_context's pool, allocated once),
// its page-locked upload ring (gpu/upload_staging.hpp) and its share of the VRAM budget: the
// prover's per_proof_bytes(), held from construction to destruction. The prover's proofs without
// a worker make one for the proof (waiting for budget room, as a proof always did) and share the
// prover's upload ring; a worker made by make_worker() takes its share at once, as a resident
// reservation (vram_budget::try_reserve_resident: a worker is kept, never waited for), or the
// prover says it does not fit. One worker proves one proof at a time (it is not thread-safe);
// any thread may use it. A proof that fails leaves its worker usable: the worker's stream has
// passed the failed proof's work before the error reaches the caller.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuzk/gpu/cuda_error.hpp"
#include "cuzk/gpu/device_buffer.hpp"
#include "cuzk/gpu/event.hpp"
#include "cuzk/gpu/result_area.hpp"
#include "cuzk/gpu/stream.hpp"
#include "cuzk/gpu/upload_staging.hpp"
#include "cuzk/gpu/vram_budget.hpp"
#include "cuzk/groth16/cuda/device_key.cuh"
#include "cuzk/groth16/cuda/gpu_context.cuh"
#include "cuzk/groth16/policy.hpp"
#include "cuzk/groth16/prover.hpp"

namespace cuzk::groth16 {

namespace detail {

/// Makes `device` current; a member declared before an object's first CUDA member, so that its
/// streams, events and buffers are created on that device, not on the caller's current one.
struct select_device {
    explicit select_device(int device) { CUZK_CUDA_CHECK(cudaSetDevice(device)); }
};

template <class Curve>
struct proof_stages;  // a proof's GPU stages (proof_stages.cuh): they fill a worker's buffers

}  // namespace detail

template <class Curve, telemetry_sink Telemetry>
class cuda_prover;  // prover.cuh: it makes workers and runs its proofs on them

/// One proof's device sizes, as its prover computes them (cuda_prover::per_proof_bytes and
/// friends); what a worker is built from.
struct cuda_worker_layout {
    gpu_context* gpu = nullptr;
    const void* owner = nullptr;            ///< the prover whose proofs the worker runs
    size_t abc_scalars = 0;                 ///< a | b | c: 3n (a compact proof: its two slots)
    size_t variables = 0;                   ///< z
    size_t a_gathered = 0, b_gathered = 0;  ///< z at A's / B's present variables (0: dense key)
    size_t msm_workspace_bytes = 0;
};

template <class Curve>
class cuda_worker {
public:
    using fr = typename Curve::fr;

    /// Builds the worker on layout.gpu's device, holding `share` of its budget until destroyed.
    /// Prover<C, P>::make_worker() calls this; so does a proof made without a worker, with the
    /// prover's upload ring as `shared_staging` (else the worker has its own).
    cuda_worker(const cuda_worker_layout& layout, gpu::vram_budget::reservation share,
                gpu::upload_staging* shared_staging = nullptr)
        : share_(std::move(share)),
          gpu_(layout.gpu),
          owner_(layout.owner),
          selected_(layout.gpu->device()),
          settle_(stream_),
          abc_(layout.abc_scalars, stream_, pool()),
          z_(layout.variables, stream_, pool()),
          za_(layout.a_gathered, stream_, pool()),
          zb_(layout.b_gathered, stream_, pool()),
          workspace_(layout.msm_workspace_bytes, stream_, pool()),
          first_bad_(1, stream_, pool()),
          staging_(shared_staging ? shared_staging : &own_staging_) {}

    /// Frees the buffers in stream order and gives the budget share back once the stream has
    /// passed them (and whatever a failed proof left queued).
    ~cuda_worker() {
        cudaSetDevice(gpu_->device());  // the members are freed on it
        abc_.reset(), z_.reset(), za_.reset(), zb_.reset(), workspace_.reset(), first_bad_.reset();
        (void)gpu::wait_noexcept(stream_);
        (void)gpu::wait_noexcept(copy_);
    }
    cuda_worker(const cuda_worker&) = delete;
    cuda_worker& operator=(const cuda_worker&) = delete;

    /// The device its streams and buffers are on.
    int device() const { return gpu_->device(); }
    /// The stream its proofs' kernels and uploads run on (a per-proof key's uploads: copy_stream).
    cudaStream_t stream() const { return stream_; }
    cudaStream_t copy_stream() const { return copy_; }
    /// Bytes of the budget it holds.
    size_t reserved_bytes() const { return share_.bytes(); }
    /// Proofs it has finished (successfully).
    uint64_t proofs() const { return proofs_; }
    /// True when it was made by `prover` (a worker proves only its own prover's proofs).
    bool made_by(const void* prover) const { return owner_ == prover; }

private:
    template <class C, telemetry_sink T>
    friend class cuda_prover;
    template <class C>
    friend struct detail::proof_stages;

    cudaMemPool_t pool() const { return gpu_->pool().get(); }

    // Declaration order is destruction order reversed: the share goes back last, after the
    // streams have passed every free; a constructor that fails part-way frees what it allocated
    // in stream order and waits for it (settle_) before the share returns.
    gpu::vram_budget::reservation share_;
    gpu_context* gpu_;
    const void* owner_;
    detail::select_device selected_;  // before every CUDA member
    gpu::stream stream_, copy_;
    detail::key_events key_ready_;  // a per-proof key's vectors have arrived (device_key)
    gpu::wait_on_unwind settle_;
    gpu::device_buffer<fr> abc_, z_, za_, zb_;          // za_, zb_: z at A's and B's present variables
    gpu::device_buffer<char> workspace_;                // the MSMs'
    gpu::device_buffer<unsigned long long> first_bad_;  // the first violated constraint, or ~0
    gpu::upload_staging own_staging_;                   // page-locked on first use (not for a shared_staging worker)
    gpu::upload_staging* staging_;
    gpu::result_area results_;      // page-locked: what a proof's enqueued MSMs and checks leave for the host
    gpu::event copy_done_{false};   // the copy stream's last work, which the proof's stream joins
    uint64_t proofs_ = 0;
};

}  // namespace cuzk::groth16
