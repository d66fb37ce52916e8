// SPDX-License-Identifier: MIT OR Apache-2.0
// The CUDA Groth16 prover: device NTT and device MSM, with the lock granularity, staging strategy
// and G2 placement of its options (prover_options.cuh) and the telemetry sink of its one type
// parameter (policy.hpp, docs/GROTH16.md).
//
//   gpu_context gpu(0, 100ull << 30);                          // device 0, 100 GB budget
//   cuda_prover<C> p(pk, gpu, circuit, {.locking = lock_granularity::split, .stage = staging::prestaged});
//   cuda_worker<C> w = p.make_worker();                        // per thread: streams, buffers, VRAM
//   proof<C> pi = p.prove(w, z);                               // a, b, c evaluated on the GPU
//   proof<C> pj = p.prove(cs, z);                              // no worker: one made for the proof
//
// The policy spelling `prover<C, cuda_policy<Lock, Stage, G2OnGpu, Telemetry>>` is kept for one
// release, deprecated: a cuda_prover whose unset options take the policy's values.
//
// The prover holds what every proof reads (device domain, resident key, circuit, tables); a
// worker (worker.cuh) what one proof writes. A proof runs on a worker in three stages, inputs
// (under the memory lock), compute (under the compute lock; everything enqueued) and finish (one
// wait, the sums combined, then outside the locks G2 on the CPU where the options put it, and
// assembly): docs/ARCHITECTURE.md walks one, docs/GROTH16.md counts its three host waits. Nothing
// waits on the whole device; every path that touches it makes the prover's device current first.
//
// Its named parts, each in its own header: the run-time options (prover_options.cuh), one
// proof's device layout and sizes (proof_layout.cuh), what it keeps on the GPU and of the key
// beside its device copy (key_staging.cuh, device_key.cuh), a proof's GPU stages
// (proof_stages.cuh) with their H step (h_scalars.cuh) and MSMs (msm_schedule.cuh), the stages'
// locks (stage_locks.cuh) and their GPU intervals (stage_clock.cuh). This header holds the
// construction, the entry points and the order of a proof's stages.
#pragma once

#include <cuda_runtime.h>

#include <bit>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cuzk/gpu/cuda_error.hpp"
#include "cuzk/gpu/device_buffer.hpp"
#include "cuzk/gpu/stream.hpp"
#include "cuzk/groth16/cuda/device_circuit.cuh"
#include "cuzk/groth16/cuda/device_key.cuh"
#include "cuzk/groth16/cuda/gpu_context.cuh"
#include "cuzk/groth16/cuda/key_staging.cuh"
#include "cuzk/groth16/cuda/proof_layout.cuh"
#include "cuzk/groth16/cuda/proof_stages.cuh"
#include "cuzk/groth16/cuda/prover_options.cuh"
#include "cuzk/groth16/cuda/stage_locks.cuh"
#include "cuzk/groth16/cuda/worker.cuh"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/msm/witness_host.hpp"
#include "cuzk/ntt/device_domain.cuh"

namespace cuzk::groth16 {

/// The CUDA prover; Telemetry is told every stage of every finished proof (policy.hpp).
template <class Curve, telemetry_sink Telemetry = no_telemetry>
class cuda_prover {
    using G1 = typename Curve::g1;
    using G2 = typename Curve::g2;

public:
    using fr = typename Curve::fr;

    /// Builds the device domain and, under staging::prestaged, uploads the key under the memory
    /// lock if the budget holds it (else keys go up per proof). With a circuit its matrices go up
    /// too if the budget holds them beside one proof (else prove(z) evaluates on the host and
    /// circuit_fallback_reason() says why), and prove(z) proves it.
    cuda_prover(std::shared_ptr<const proving_key<Curve>> pk, gpu_context& gpu,
                std::shared_ptr<const r1cs<fr>> circuit = nullptr, cuda_prover_options opt = {})
        : pk_(std::move(pk)),
          gpu_(gpu),
          circuit_(std::move(circuit)),
          opt_(opt) {
        if (!pk_) throw invalid_argument("prover: null proving key");
        check_key_vectors(*pk_, "prover (CUDA)");
        if (circuit_) check_key_matches(*pk_, *circuit_);
        const auto& key = *pk_;
        const size_t log_n = size_t(std::countr_zero(key.domain_size()));
        host_domain_ = h_domain<fr>(log_n, key.h_convention, key.roots);
        std::lock_guard memory(gpu_.memory_mutex());
        domain_ = std::make_unique<ntt::device_domain<fr>>(host_domain_, setup_stream_);
        a_index_ = detail::present_indices(key.a_density, setup_stream_);
        b_index_ = detail::present_indices(key.b_density, setup_stream_);
        // Every member named: nvcc's front end left an omitted `compact` indeterminate here (the
        // GPU tests saw prestaged proofs taken for compact ones).
        layout_ = {.key = &key,
                   .opt = opt_,
                   .stage = opt_.stage.value_or(staging::prestaged),
                   .a_gathered = a_index_.size(),
                   .b_gathered = b_index_.size(),
                   .compact = false,
                   .g2_on_gpu = g2_on_gpu()};
        if (stage() == staging::prestaged) {
            // Resident only if one proof's buffers still fit beside the key.
            key_.stage(
                gpu_.budget(), detail::device_key<Curve>::bytes_for(key), resident_proof_bytes(),
                "the proving key and one proof's buffers do not fit the VRAM budget; uploading the key per proof", [&] {
                    return std::make_unique<detail::device_key<Curve>>(key, setup_stream_, setup_stream_, events_.e);
                });
        }
        if (stage() == staging::chunked) {
            if (opt_.key_chunk_points == 0) throw invalid_argument("prover: key_chunk_points must be at least 1");
            using layout = cuda_prover_options::layout;
            const size_t free = gpu_.budget().capacity() - gpu_.budget().used();
            layout_.compact = opt_.proof_layout == layout::compact ||
                              (opt_.proof_layout == layout::automatic && layout_.full_proof_bytes() > free);
        }
        if (stage() == staging::streamed || stage() == staging::chunked) {
            pinned_.pin(key.a), pinned_.pin(key.b_g1), pinned_.pin(key.b_g2), pinned_.pin(key.l), pinned_.pin(key.h);
        }
        if (circuit_ && layout_.compact) {
            circuit_on_gpu_.why_not = "compact proofs (cuda_prover_options::proof_layout) evaluate a, b, c on the host";
        } else if (circuit_) {
            circuit_on_gpu_.stage(gpu_.budget(), device_circuit<fr>::bytes_for(*circuit_), per_proof_bytes(),
                                  "the circuit does not fit the VRAM budget beside the key and one proof; "
                                  "evaluating a, b, c on the host",
                                  [&] { return std::make_unique<device_circuit<fr>>(*circuit_, setup_stream_); });
        }
        // Tables last: the resident circuit saves more per proof than they do (docs/PERFORMANCE.md).
        if (key_.value && opt_.precompute_bases)
            tables_.build(key, *key_.value, gpu_.budget(), per_proof_bytes(), setup_stream_, g2_on_gpu());
        if (stage() == staging::chunked && opt_.precompute_bases)
            tables_.note = "none: under staging::chunked no key vector is on the GPU to build them from";
        setup_stream_.synchronize();
    }

    ~cuda_prover() {
        cudaSetDevice(gpu_.device());  // the members free their device memory and streams on it
    }
    cuda_prover(const cuda_prover&) = delete;
    cuda_prover& operator=(const cuda_prover&) = delete;

    const proving_key<Curve>& key() const { return *pk_; }
    /// How this prover's workers serialise on the GPU (cuda_prover_options::locking; unset: split).
    lock_granularity locking() const { return opt_.locking.value_or(lock_granularity::split); }
    /// When the key's points reach the GPU (cuda_prover_options::stage; unset: prestaged).
    staging stage() const { return layout_.stage; }
    /// Where the G2 MSM runs (cuda_prover_options::g2_on_gpu; unset: on the GPU).
    bool g2_on_gpu() const { return opt_.g2_on_gpu.value_or(true); }
    /// True when the key stays on the GPU across proofs.
    bool key_resident() const { return key_.value != nullptr; }
    /// Device bytes the key and other resident buffers hold of the budget, outside any worker.
    size_t resident_budget_bytes() const { return gpu_.budget().resident(); }
    /// Why a prestaged prover fell back to per-proof uploads (empty if it did not).
    const std::string& fallback_reason() const { return key_.why_not; }
    /// True when prove(z) evaluates a, b, c on the GPU from a resident circuit.
    bool circuit_resident() const { return circuit_on_gpu_.value != nullptr; }
    /// Why a circuit given at construction is not resident (empty if it is, or none was given).
    const std::string& circuit_fallback_reason() const { return circuit_on_gpu_.why_not; }
    /// Which shifted-base tables were built (cuda_prover_options::precompute_bases), or why not.
    const std::string& tables_note() const { return tables_.note; }
    /// Device bytes one proof needs besides a resident key (what each worker reserves).
    size_t per_proof_bytes() const {
        size_t b = resident_proof_bytes();
        if (!key_.value && stage() != staging::chunked) b += detail::device_key<Curve>::bytes_for(*pk_);
        return b;
    }
    /// Device bytes one proof needs when the key is resident (proof_layout.cuh).
    size_t resident_proof_bytes() const { return layout_.resident_proof_bytes(); }
    /// True when proofs use the compact layout (cuda_prover_options::proof_layout).
    bool compact_proofs() const { return layout_.compact; }
    /// Device bytes held outside the budget: the domain's twiddle and coset tables and a compressed
    /// key's index arrays (2^27 PoRep: 2.1 + 0.7 GB); a card's budget should leave room for them.
    size_t unbudgeted_bytes() const {
        return domain_->bytes() + (a_index_.size() + b_index_.size()) * sizeof(uint32_t);
    }
    /// The MSM workspace one proof uses, the length of the witness plan its MSMs share, and
    /// under staging::chunked where its chunk buffers start and their bytes (proof_layout.cuh).
    size_t msm_workspace_bytes() const { return layout_.msm_workspace_bytes(); }
    size_t shared_plan_count() const { return layout_.shared_plan_count(); }
    size_t chunk_buffers_offset() const { return layout_.chunk_buffers_offset(); }
    size_t chunk_buffer_bytes() const { return layout_.chunk_buffer_bytes(); }

    /// What one proof runs on (worker.cuh): streams, buffers and budget share, kept between proofs.
    using worker = cuda_worker<Curve>;

    /// A worker for this prover, holding per_proof_bytes() of the budget (as a resident
    /// reservation) until it is destroyed. Throws invalid_argument when they do not fit beside
    /// what the budget holds now: make no more workers than the budget holds proofs.
    worker make_worker() const {
        auto share = gpu_.budget().try_reserve_resident(per_proof_bytes());
        if (!share)
            throw invalid_argument("prover: a worker needs " + std::to_string(per_proof_bytes()) +
                                   " bytes of VRAM; the budget of " + std::to_string(gpu_.budget().capacity()) +
                                   " has " + std::to_string(gpu_.budget().used()) + " in use");
        std::lock_guard memory(gpu_.memory_mutex());
        return worker(worker_layout(), std::move(*share));
    }
    /// make_worker(), or null when the budget has no room for it now (the engine's threads make
    /// their workers this way and share the ones that fit).
    std::unique_ptr<worker> try_make_worker() const {
        auto share = gpu_.budget().try_reserve_resident(per_proof_bytes());
        if (!share) return nullptr;
        std::lock_guard memory(gpu_.memory_mutex());
        return std::make_unique<worker>(worker_layout(), std::move(*share));
    }

    /// Proves that z satisfies cs (see the CPU prover for the errors it throws), on worker `w`
    /// (made by this prover). Thread-safe across workers; the locks of `locking()` order the GPU stages.
    template <class Rng = os_random>
    proof<Curve> prove(worker& w, const r1cs<fr>& cs, std::span<const fr> z, Rng&& rng = Rng{},
                       stage_times* times = nullptr) const {
        return prove_cs(&w, cs, z, rng, times);
    }
    /// As above, on a worker made for this proof (streams, buffers and budget share taken and
    /// given back by the call; it waits for budget room). Thread-safe.
    template <class Rng = os_random>
    proof<Curve> prove(const r1cs<fr>& cs, std::span<const fr> z, Rng&& rng = Rng{},
                       stage_times* times = nullptr) const {
        return prove_cs(nullptr, cs, z, rng, times);
    }

    /// Proves that z satisfies the circuit given at construction, evaluating a, b, c on the GPU
    /// when it is resident (the cheap path: only z is uploaded), on worker `w`. Errors as prove(cs, z).
    template <class Rng = os_random>
    proof<Curve> prove(worker& w, std::span<const fr> z, Rng&& rng = Rng{}, stage_times* times = nullptr) const {
        return prove_z(&w, z, rng, times);
    }
    /// As above, on a worker made for this proof.
    template <class Rng = os_random>
    proof<Curve> prove(std::span<const fr> z, Rng&& rng = Rng{}, stage_times* times = nullptr) const {
        return prove_z(nullptr, z, rng, times);
    }

    /// Proves from a, b, c already on the domain (see the CPU prover's prove_from_abc), on worker `w`.
    template <class Rng = os_random>
    proof<Curve> prove_from_abc(worker& w, std::span<const fr> z, std::vector<fr> abc, Rng&& rng = Rng{},
                                stage_times* times = nullptr) const {
        return prove_abc(&w, z, abc, rng, times);
    }
    /// As above, on a worker made for this proof.
    template <class Rng = os_random>
    proof<Curve> prove_from_abc(std::span<const fr> z, std::vector<fr> abc, Rng&& rng = Rng{},
                                stage_times* times = nullptr) const {
        return prove_abc(nullptr, z, abc, rng, times);
    }

private:
    cuda_worker_layout worker_layout() const { return layout_.worker(&gpu_, this); }

    void check_worker(const worker* w) const {
        if (w && !w->made_by(this)) throw invalid_argument("prover: the worker was made by another prover");
    }

    template <class Rng>
    proof<Curve> prove_cs(worker* w, const r1cs<fr>& cs, std::span<const fr> z, Rng& rng, stage_times* times) const {
        check_worker(w);
        check_key_matches(*pk_, cs);
        return timed_with<Telemetry>(times, [&](stage_timer& timer) {
            std::vector<fr> abc = evaluate_abc_checked(cs, z, timer);
            return prove_timed(w, z, &abc, timer, rng);
        });
    }

    template <class Rng>
    proof<Curve> prove_z(worker* w, std::span<const fr> z, Rng& rng, stage_times* times) const {
        check_worker(w);
        if (!circuit_) throw invalid_argument("prover: prove(z) needs the circuit given at construction");
        circuit_->check_assignment_shape(z);
        return timed_with<Telemetry>(times, [&](stage_timer& timer) {
            if (!circuit_on_gpu_.value) {
                std::vector<fr> abc = evaluate_abc_checked(*circuit_, z, timer);
                return prove_timed(w, z, &abc, timer, rng);
            }
            return prove_timed(w, z, nullptr, timer, rng);
        });
    }

    template <class Rng>
    proof<Curve> prove_abc(worker* w, std::span<const fr> z, const std::vector<fr>& abc, Rng& rng,
                           stage_times* times) const {
        check_worker(w);
        check_abc_shape(*pk_, z, abc);
        return timed_with<Telemetry>(times, [&](stage_timer& timer) { return prove_timed(w, z, &abc, timer, rng); });
    }

    /// Every proof: a, b, c from the host (host_abc) or the resident circuit (null); on `given`,
    /// or on a worker made for the proof (null).
    template <class Rng>
    proof<Curve> prove_timed(worker* given, std::span<const fr> z, const std::vector<fr>* host_abc, stage_timer& timer,
                             Rng& rng) const {
        const auto& key = *pk_;
        std::future<jacobian<G2>> b2_on_cpu;
        if (!g2_on_gpu())
            b2_on_cpu = std::async(std::launch::async, [&] {
                std::vector<fr> storage;
                return msm_witness_host<G2>(key.b_g2, select_present(z, key.b_density, storage, "B"));
            });
        msm_sums<Curve> sums;
        {
            CUZK_CUDA_CHECK(cudaSetDevice(gpu_.device()));
            detail::stage_locks locks(gpu_, locking());  // the inputs stage's
            // Without a worker: one for this proof (its budget share waited for, its buffers
            // allocated), sharing the prover's upload ring; destroyed at the end of this block.
            std::optional<worker> temporary;
            worker& w = given ? *given : timer.time("reserve VRAM", [&]() -> worker& {
                return temporary.emplace(worker_layout(), gpu_.budget().reserve(per_proof_bytes()), &staging_);
            });
            detail::gpu_stage_clock clock(timer, w.stream_);
            // On an error, the worker's streams pass what the proof queued before the caller
            // hears of it (its z may be read by a copy still queued) or the worker is reused.
            gpu::wait_on_unwind settle(w.stream_);
            const detail::proof_stages<Curve> stages{.key = key,
                                                     .layout = layout_,
                                                     .domain = *domain_,
                                                     .resident = key_.value.get(),
                                                     .circuit = circuit_on_gpu_.value.get(),
                                                     .tables = tables_,
                                                     .a_index = a_index_,
                                                     .b_index = b_index_,
                                                     .key_chunk_points = opt_.key_chunk_points,
                                                     .g2_on_gpu = g2_on_gpu()};
            w.results_.reset();  // no copy into it is queued: the last proof's stream was passed
            std::unique_ptr<detail::device_key<Curve>> per_proof_key = stages.inputs(w, z, host_abc, clock);
            locks.inputs_done();  // the compute stage's
            const auto pending = stages.compute(w, per_proof_key, z, host_abc, clock);
            // The GPU part of finishing: the per-proof key freed in stream order, the copy stream
            // joined, one wait for everything the proof queued, the GPU intervals read, the sums
            // combined (or the circuit's check failed), then the next worker in.
            per_proof_key.reset();
            w.copy_done_.record(w.copy_);
            CUZK_CUDA_CHECK(cudaStreamWaitEvent(w.stream_, w.copy_done_, 0));
            w.stream_.synchronize();
            clock.finish();
            sums = pending.get();
            locks.compute_done();
            ++w.proofs_;
        }
        // Outside every lock: the G2 MSM on the CPU (overlapped with the GPU stages) where the
        // options put it, then the assembly with fresh r, s.
        if (!g2_on_gpu()) sums.b2 = timer.time("MSM B G2 (CPU, overlapped)", [&] { return b2_on_cpu.get(); });
        return timer.time("assemble", [&] { return assemble_proof<Curve>(*pk_, sums, rng); });
    }

    std::shared_ptr<const proving_key<Curve>> pk_;
    gpu_context& gpu_;
    std::shared_ptr<const r1cs<fr>> circuit_;
    cuda_prover_options opt_;
    detail::select_device selected_{gpu_.device()};  // before every CUDA member
    gpu::stream setup_stream_;
    detail::key_events events_;
    ntt::domain<fr> host_domain_{0};
    std::unique_ptr<ntt::device_domain<fr>> domain_;
    detail::resident_part<detail::device_key<Curve>> key_;  // the key kept on the GPU, or why not
    detail::key_tables<Curve> tables_;  // shifted-base tables of the resident key, their budget and note
    detail::resident_part<device_circuit<fr>> circuit_on_gpu_;
    detail::host_registrations pinned_;
    gpu::device_buffer<uint32_t> a_index_, b_index_;  // present variables of a compressed key (else empty)
    detail::proof_layout<Curve> layout_;              // sizes of one proof; compact decided at construction
    // The upload ring of proofs made without a worker (a worker has its own): two 32 MiB
    // page-locked slots, allocated at the first such proof; upload() serialises its users.
    mutable gpu::upload_staging staging_;
};

}  // namespace cuzk::groth16

// The deprecated policy spelling, kept for one release.
#include "cuzk/groth16/cuda/policy_prover.cuh"
