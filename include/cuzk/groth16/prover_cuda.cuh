// The CUDA backend of groth16::prover: device NTT and device MSM, with the lock granularity
// and staging strategy of its policy (see policy.hpp and docs/GROTH16.md).
//
//   gpu_context gpu(0, 100ull << 30);                          // device 0, 100 GB budget
//   prover<C, cuda_policy<lock_granularity::split, staging::prestaged>> p(pk, gpu);
//   proof<C> pi = p.prove(cs, z);                              // from any number of threads
//
//   prover<C, ...> q(pk, gpu, circuit);                        // circuit resident beside the key:
//   proof<C> pi = q.prove(z);                                  // a, b, c evaluated on the GPU
//
// Per proof, on the worker's own stream,
//   memory phase  (memory lock under split)   reserve VRAM from the budget, allocate, upload z
//                                             (and a, b, c when they were evaluated on the host)
//   compute phase (compute lock under split)  a, b, c from the resident circuit (checking every
//                                             constraint), NTTs -> H scalars, MSMs A, B1, B2, L, H
// and the proof is assembled on the host. Under the device policy one lock covers both phases;
// under none the caller serialises. Nothing waits on the whole device: every allocation is
// stream-ordered (the per-proof buffers from the gpu_context's memory pool, which keeps them
// mapped between proofs), every wait is a stream synchronisation. With a stage_times,
// each GPU stage also gets its interval on the stream from CUDA timing events (gpu_stage_clock).
// Every path that touches the device makes the prover's device current first (the constructor
// through its first member, prove, the destructor).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "cuzk/gpu/cuda_error.hpp"
#include "cuzk/gpu/device_buffer.hpp"
#include "cuzk/gpu/event.hpp"
#include "cuzk/gpu/stream.hpp"
#include "cuzk/groth16/device_circuit.cuh"
#include "cuzk/groth16/gpu_context.cuh"
#include "cuzk/groth16/h_scalars.cuh"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/gpu/upload_staging.hpp"
#include "cuzk/msm/fixed_bases.cuh"
#include "cuzk/msm/pippenger_device.cuh"
#include "cuzk/msm/witness_device.cuh"
#include "cuzk/ntt/device_domain.cuh"
#include "cuzk/ntt/ntt_device.cuh"

namespace cuzk::groth16 {

/// Runtime choices of the CUDA prover (the policy holds the structural ones).
struct cuda_prover_options {
    /// With a resident key, also keep tables of shifted bases (msm/fixed_bases.cuh) for its G1
    /// vectors A, B1, L, H and, if they fit too, for B2: each MSM then has one bucket set and
    /// wider windows (a quarter fewer additions at 2^24) for ~12x the vectors' memory. Tables
    /// that do not fit the budget beside one proof are skipped; tables_note() says what was built.
    bool precompute_bases = false;
};

namespace detail {

/// Shifted-base tables for a resident key's vectors (empty pointers: not built).
template <class Curve>
struct key_tables {
    std::unique_ptr<msm::fixed_bases<typename Curve::g1>> a, b_g1, l, h;
    std::unique_ptr<msm::fixed_bases<typename Curve::g2>> b_g2;
};

/// A lock that is taken only when the policy says so.
class maybe_lock {
public:
    maybe_lock() = default;
    explicit maybe_lock(std::mutex& m) : lock_(m) {}
    void unlock() {
        if (lock_.owns_lock()) lock_.unlock();
    }

private:
    std::unique_lock<std::mutex> lock_;
};

/// The proving-key point vectors in device memory.
/// out[i] = in[index[i]] (the scalars of a density-compressed MSM).
template <class T>
__global__ void gather_kernel(T* out, const T* in, const uint32_t* index, size_t n) {
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[index[i]];
}

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
        : a(pk.a.size(), s, pool), b_g1(pk.b_g1.size(), s, pool), l(pk.l.size(), s, pool), h(pk.h.size(), s, pool),
          b_g2(pk.b_g2.size(), s, pool), uploads_(copy) {
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

/// Host ranges a prover page-locked, unregistered when destroyed: also when the constructor
/// throws after registering some (no ~prover runs then).
struct host_registrations {
    std::vector<void*> ranges;
    host_registrations() = default;
    host_registrations(const host_registrations&) = delete;
    host_registrations& operator=(const host_registrations&) = delete;
    ~host_registrations() {
        for (void* p : ranges) cudaHostUnregister(p);
    }
};

/// Makes `device` current; a member declared before the prover's first CUDA object, so that its
/// setup stream and events are created on the prover's device, not on the caller's current one.
struct select_device {
    explicit select_device(int device) { CUZK_CUDA_CHECK(cudaSetDevice(device)); }
};

/// The GPU intervals of a proof's stages: a timing event on the proof's stream before and after
/// each stage's enqueues, put on the stage_timer's clock by an anchor event recorded on the fresh
/// (idle) stream and waited for at once. A stage's interval runs from when the stream reaches
/// its first work to when it passes its last, so kernels enqueued by one stage and still running
/// during the next host stage count where they ran. Nothing is created when nobody records.
class gpu_stage_clock {
public:
    gpu_stage_clock(stage_timer& timer, cudaStream_t st) : timer_(timer), st_(st) {
        if (!timer_.recording()) return;
        anchor_.emplace();
        anchor_->record(st_);
        anchor_->synchronize();
        anchor_ms_ = timer_.now_ms();
    }

    /// timer.time(name, f), with the stage's GPU interval recorded on the stream.
    template <class F>
    auto time(const char* name, F&& f) {
        if (!anchor_) return timer_.time(name, f);
        marks_.push_back({timer_.recorded(), gpu::event{}, gpu::event{}});
        // The start event goes in after the stage's host start is read: on an idle stream it
        // completes at once, and recorded first it could land before the host interval.
        return timer_.time(name, [&]() -> decltype(auto) {
            marks_.back().start.record(st_);
            if constexpr (std::is_void_v<std::invoke_result_t<F&>>) {
                f();
                marks_.back().end.record(st_);
            } else {
                decltype(auto) r = f();
                marks_.back().end.record(st_);
                return r;
            }
        });
    }

    /// Writes the intervals into the timer's stages; call once the stream has passed them all.
    /// The anchor's host time is read after its synchronisation returned, so mapped times are
    /// late by that wake-up: microseconds on a quiet machine, tens of ms when many processes
    /// share the GPU (seen on the H200 beside 36 compute-sanitizer runs). Every event has
    /// completed by now, so a time past now is that lateness and is clamped to now.
    void finish() {
        const double now = timer_.now_ms();
        for (auto& m : marks_)
            timer_.set_gpu_interval(m.stage, std::min(now, anchor_ms_ + m.start.elapsed_ms_since(*anchor_)),
                                    std::min(now, anchor_ms_ + m.end.elapsed_ms_since(*anchor_)));
    }

private:
    struct mark {
        size_t stage;
        gpu::event start, end;
    };
    stage_timer& timer_;
    cudaStream_t st_;
    std::optional<gpu::event> anchor_;
    double anchor_ms_ = 0;
    std::vector<mark> marks_;
};

}  // namespace detail

/// The CUDA backend, for any policy type with cuda_policy's four constants (policy.hpp).
template <class Curve, cuda_prover_policy Policy>
class prover<Curve, Policy> {
    using policy = Policy;
    static constexpr lock_granularity Lock = Policy::locking;
    static constexpr staging Stage = Policy::stage;
    static constexpr bool G2OnGpu = Policy::g2_on_gpu;
    using G1 = typename Curve::g1;
    using G2 = typename Curve::g2;

public:
    using fr = typename Curve::fr;

    /// Builds the device domain and, under staging::prestaged, uploads the key under the memory
    /// lock if the budget holds it; otherwise (or for other staging) keys are uploaded per proof.
    /// With a circuit, its matrices are uploaded too (kept resident if the budget holds them
    /// beside one proof; else prove(z) evaluates on the host and circuit_fallback_reason() says
    /// why), and prove(z) proves it.
    prover(std::shared_ptr<const proving_key<Curve>> pk, gpu_context& gpu,
           std::shared_ptr<const r1cs<fr>> circuit = nullptr, cuda_prover_options opt = {})
        : pk_(std::move(pk)), gpu_(gpu), circuit_(std::move(circuit)), opt_(opt) {
        if (!pk_) throw invalid_argument("prover: null proving key");
        check_key_vectors(*pk_, "prover (CUDA)");
        if (circuit_) check_key_matches(*pk_, *circuit_);
        const auto& key = *pk_;
        const size_t log_n = size_t(std::countr_zero(key.domain_size()));
        host_domain_ = h_domain<fr>(log_n, key.h_convention, key.roots);
        std::lock_guard memory(gpu_.memory_mutex());
        domain_ = std::make_unique<ntt::device_domain<fr>>(host_domain_, setup_stream_);
        a_index_ = present_indices(key.a_density);
        b_index_ = present_indices(key.b_density);
        if constexpr (Stage == staging::prestaged) {
            // Resident only if one proof's buffers still fit beside the key.
            if (auto r = gpu_.budget().try_reserve_resident(detail::device_key<Curve>::bytes_for(key),
                                                            resident_proof_bytes())) {
                key_reservation_ = std::move(*r);
                resident_ = std::make_unique<detail::device_key<Curve>>(key, setup_stream_, setup_stream_, events_.e);
            } else {
                fallback_reason_ = "the proving key and one proof's buffers do not fit the VRAM budget; uploading the key per proof";
            }
        }
        if constexpr (Stage == staging::streamed) {
            pin(key.a), pin(key.b_g1), pin(key.b_g2), pin(key.l), pin(key.h);
        }
        if (circuit_) {
            if (auto r = gpu_.budget().try_reserve_resident(device_circuit<fr>::bytes_for(*circuit_), per_proof_bytes())) {
                circuit_reservation_ = std::move(*r);
                device_circuit_ = std::make_unique<device_circuit<fr>>(*circuit_, setup_stream_);
            } else {
                circuit_fallback_reason_ = "the circuit does not fit the VRAM budget beside the key and one proof; "
                                           "evaluating a, b, c on the host";
            }
        }
        // Tables last: the resident circuit saves more per proof than they do (docs/PERFORMANCE.md).
        if (resident_ && opt_.precompute_bases) build_tables();
        setup_stream_.synchronize();
    }

    ~prover() {
        cudaSetDevice(gpu_.device());  // the members free their device memory and streams on it
    }
    prover(const prover&) = delete;
    prover& operator=(const prover&) = delete;

    const proving_key<Curve>& key() const { return *pk_; }
    /// True when the key stays on the GPU across proofs.
    bool key_resident() const { return resident_ != nullptr; }
    /// Why a prestaged policy fell back to per-proof uploads (empty if it did not).
    const std::string& fallback_reason() const { return fallback_reason_; }
    /// True when prove(z) evaluates a, b, c on the GPU from a resident circuit.
    bool circuit_resident() const { return device_circuit_ != nullptr; }
    /// Why a circuit given at construction is not resident (empty if it is, or none was given).
    const std::string& circuit_fallback_reason() const { return circuit_fallback_reason_; }
    /// Which shifted-base tables were built (cuda_prover_options::precompute_bases), or why not.
    const std::string& tables_note() const { return tables_note_; }
    /// Device bytes one proof needs besides a resident key (what each worker reserves).
    size_t per_proof_bytes() const {
        size_t b = resident_proof_bytes();
        if (!resident_) b += detail::device_key<Curve>::bytes_for(*pk_);
        return b;
    }
    /// Device bytes one proof needs when the key is resident: a, b, c, z, the MSM workspace and
    /// the violated-constraint flag.
    size_t resident_proof_bytes() const {
        const auto& key = *pk_;
        const size_t gathered = (key.a_density.empty() ? 0 : key.a.size()) + (key.b_density.empty() ? 0 : key.b_g1.size());
        return (3 * key.domain_size() + key.num_variables() + gathered) * sizeof(fr) + msm_workspace_bytes() + 7 * 256;
    }
    /// The MSM workspace one proof uses (the largest of its MSMs; they run one after another).
    /// (Workspace is not monotonic in n, since the window width depends on n: take every size.)
    size_t msm_workspace_bytes() const {
        const auto& key = *pk_;
        const size_t nv = key.num_variables(), aux = key.l.size();
        // A, B and L are witness MSMs (msm/witness_device.cuh), H a plain one.
        size_t b = std::max({msm::msm_witness_workspace_bytes<G1>(nv), msm::msm_witness_workspace_bytes<G1>(aux),
                             msm::msm_device_workspace_bytes<G1>(key.h.size()),
                             G2OnGpu ? msm::msm_witness_workspace_bytes<G2>(nv) : size_t(0)});
        if (opt_.precompute_bases)
            b = std::max({b, msm::witness_fixed_bases_workspace_bytes<G1>(nv),
                          msm::witness_fixed_bases_workspace_bytes<G1>(aux),
                          msm::fixed_bases_workspace_bytes<G1>(key.h.size()),
                          G2OnGpu ? msm::witness_fixed_bases_workspace_bytes<G2>(nv) : size_t(0)});
        if (!key.is_dense()) {  // A and B run over their present variables only
            const size_t na = key.a.size(), nb = key.b_g1.size();
            b = std::max({b, msm::msm_witness_workspace_bytes<G1>(na), msm::msm_witness_workspace_bytes<G1>(nb),
                          G2OnGpu ? msm::msm_witness_workspace_bytes<G2>(nb) : size_t(0)});
            if (opt_.precompute_bases)
                b = std::max({b, msm::witness_fixed_bases_workspace_bytes<G1>(na),
                              msm::witness_fixed_bases_workspace_bytes<G1>(nb),
                              G2OnGpu ? msm::witness_fixed_bases_workspace_bytes<G2>(nb) : size_t(0)});
        }
        return b;
    }

    /// Proves that z satisfies cs (see the CPU prover for the errors it throws). Thread-safe:
    /// each call uses its own stream and buffers; the policy's locks order the GPU phases.
    template <class Rng = os_random>
    proof<Curve> prove(const r1cs<fr>& cs, std::span<const fr> z, Rng&& rng = Rng{}, stage_times* times = nullptr) const {
        const auto& key = *pk_;
        check_key_matches(key, cs);
        stage_timer timer(times);
        std::vector<fr> abc = evaluate_abc_checked(cs, z, timer);
        return prove_timed(z, &abc, timer, rng);
    }

    /// Proves that z satisfies the circuit given at construction, evaluating a, b, c on the GPU
    /// when it is resident (the cheap path: only z is uploaded). Errors as prove(cs, z).
    template <class Rng = os_random>
    proof<Curve> prove(std::span<const fr> z, Rng&& rng = Rng{}, stage_times* times = nullptr) const {
        if (!circuit_) throw invalid_argument("prover: prove(z) needs the circuit given at construction");
        circuit_->check_assignment_shape(z);
        stage_timer timer(times);
        if (!device_circuit_) {
            std::vector<fr> abc = evaluate_abc_checked(*circuit_, z, timer);
            return prove_timed(z, &abc, timer, rng);
        }
        return prove_timed(z, nullptr, timer, rng);
    }

    /// Proves from a, b, c already on the domain (see the CPU prover's prove_from_abc).
    template <class Rng = os_random>
    proof<Curve> prove_from_abc(std::span<const fr> z, std::vector<fr> abc, Rng&& rng = Rng{},
                                stage_times* times = nullptr) const {
        check_abc_shape(*pk_, z, abc);
        stage_timer timer(times);
        return prove_timed(z, &abc, timer, rng);
    }

private:
    /// The GPU part of every prove: a, b, c come from the host (host_abc) or, when host_abc is
    /// null, from the resident circuit.
    template <class Rng>
    proof<Curve> prove_timed(std::span<const fr> z, const std::vector<fr>* host_abc, stage_timer& timer,
                             Rng& rng) const {
        const auto& key = *pk_;
        const size_t n = key.domain_size(), nv = key.num_variables(), np = key.num_public();

        std::future<jacobian<G2>> b2_on_cpu;
        if constexpr (!G2OnGpu)
            b2_on_cpu = std::async(std::launch::async, [&] {
                std::vector<fr> storage;
                return msm_witness_host<G2>(key.b_g2, select_present(z, key.b_density, storage, "B"));
            });

        CUZK_CUDA_CHECK(cudaSetDevice(gpu_.device()));
        gpu::stream st, copy;
        detail::gpu_stage_clock gpu_clock(timer, st);
        detail::key_events ev;
        detail::maybe_lock whole, memory;
        if constexpr (Lock == lock_granularity::device) whole = detail::maybe_lock(gpu_.compute_mutex());
        if constexpr (Lock == lock_granularity::split) memory = detail::maybe_lock(gpu_.memory_mutex());

        // Memory phase: budget, buffers, uploads (all on this worker's stream).
        auto reservation = timer.time("reserve VRAM", [&] { return gpu_.budget().reserve(per_proof_bytes()); });
        gpu::wait_on_unwind frees_done(st);  // on an error, the budget returns once the frees below ran
        // Per-proof buffers from the context's pool, which keeps them mapped for the next proof.
        const cudaMemPool_t pool = gpu_.pool().get();
        gpu::device_buffer<fr> d_abc, d_z, d_za, d_zb;  // d_za, d_zb: z at A's and B's present variables
        gpu::device_buffer<char> d_ws;
        gpu::device_buffer<unsigned long long> d_first_bad;
        gpu_clock.time(host_abc ? "upload a, b, c, z" : "upload z", [&] {
            d_abc = gpu::device_buffer<fr>(3 * n, st, pool);
            d_z = gpu::device_buffer<fr>(nv, st, pool);
            d_ws = gpu::device_buffer<char>(msm_workspace_bytes(), st, pool);
            d_first_bad = gpu::device_buffer<unsigned long long>(1, st, pool);
            // Through the page-locked ring: a pageable witness otherwise crawls at ~6 GB/s.
            if (host_abc) staging_.upload(d_abc.data(), host_abc->data(), 3 * n * sizeof(fr), st);
            staging_.upload(d_z.data(), z.data(), nv * sizeof(fr), st);
            d_za = gather_present(a_index_, d_z.data(), st, pool);
            d_zb = gather_present(b_index_, d_z.data(), st, pool);
        });
        std::unique_ptr<detail::device_key<Curve>> per_proof_key;
        if constexpr (Stage == staging::streamed) {
            // Key vectors go up on the copy stream while the NTTs and earlier MSMs run.
            if (!resident_) per_proof_key = std::make_unique<detail::device_key<Curve>>(key, st, copy, ev.e, pool);
        }
        memory.unlock();

        // Compute phase.
        detail::maybe_lock compute;
        if constexpr (Lock == lock_granularity::split) compute = detail::maybe_lock(gpu_.compute_mutex());
        if (!resident_ && !per_proof_key) {  // on-demand: allocate and upload inside the compute lock
            gpu_clock.time("upload key", [&] {
                per_proof_key = std::make_unique<detail::device_key<Curve>>(key, st, st, ev.e, pool);
            });
        }
        const detail::device_key<Curve>& dk = resident_ ? *resident_ : *per_proof_key;
        auto wait_for = [&](int k) {
            if (per_proof_key && Stage == staging::streamed) CUZK_CUDA_CHECK(cudaStreamWaitEvent(st, ev.e[k], 0));
        };
        if (!host_abc) {
            gpu_clock.time("evaluate a, b, c (GPU)", [&] {
                evaluate_abc_on_device(*device_circuit_, d_z.data(), d_abc.data(), d_first_bad.data(), st);
                unsigned long long first_bad = 0;
                d_first_bad.download(&first_bad, st);
                st.synchronize();
                if (first_bad != ~0ull)
                    throw invalid_argument("prover: the assignment violates constraint " + std::to_string(first_bad));
            });
        }
        gpu_clock.time("H scalars (NTT)", [&] {
            compute_h_scalars(*domain_, std::span<fr>(d_abc.data(), 3 * n), key.h_convention, st.get());
        });
        using integer = typename fr::integer;
        const integer* zs = reinterpret_cast<const integer*>(d_z.data());
        msm::device_options mont{};
        mont.form = msm::scalar_form::montgomery;
        // With a table the MSM reads its shifted copies, else the key vector. The witness MSMs
        // (A, B, L: scalars from z, mostly 0 and 1 in real circuits) split off the 0s and 1s.
        auto msm_on = [&]<class G>(const std::unique_ptr<msm::fixed_bases<G>>& table, const affine<G>* pts,
                                   const integer* s, size_t count) {
            if (table) return msm::msm_device(*table, s, count, d_ws.data(), d_ws.bytes(), st, mont.form);
            return msm::msm_device<G>(pts, s, count, d_ws.data(), d_ws.bytes(), st, mont);
        };
        auto witness_on = [&]<class G>(const std::unique_ptr<msm::fixed_bases<G>>& table, const affine<G>* pts,
                                       const integer* s, size_t count) {
            if (table) return msm::msm_witness_device(*table, s, count, d_ws.data(), d_ws.bytes(), st, mont.form);
            return msm::msm_witness_device<G>(pts, s, count, d_ws.data(), d_ws.bytes(), st, mont);
        };
        // A and B over the key's points: every variable, or (density-compressed key) the present ones.
        const integer* za = d_za.size() != 0 ? reinterpret_cast<const integer*>(d_za.data()) : zs;
        const integer* zb = d_zb.size() != 0 ? reinterpret_cast<const integer*>(d_zb.data()) : zs;
        const size_t na = key.a.size(), nb = key.b_g1.size();
        auto sum_a = gpu_clock.time("MSM A", [&] { wait_for(0); return witness_on(tables_.a, dk.a.data(), za, na); });
        auto sum_b1 =
            gpu_clock.time("MSM B G1", [&] { wait_for(1); return witness_on(tables_.b_g1, dk.b_g1.data(), zb, nb); });
        jacobian<G2> sum_b2;
        if constexpr (G2OnGpu) {
            sum_b2 =
                gpu_clock.time("MSM B G2", [&] { wait_for(2); return witness_on(tables_.b_g2, dk.b_g2.data(), zb, nb); });
        }
        auto sum_l = gpu_clock.time("MSM L", [&] {
            wait_for(3);
            return witness_on(tables_.l, dk.l.data(), zs + np + 1, nv - np - 1);
        });
        auto sum_h = gpu_clock.time("MSM H", [&] {
            wait_for(4);
            return msm_on(tables_.h, dk.h.data(), reinterpret_cast<const integer*>(d_abc.data()), key.h.size());
        });
        // Free in stream order, then let the next worker in.
        per_proof_key.reset();
        d_abc.reset();
        d_z.reset();
        d_za.reset();
        d_zb.reset();
        d_ws.reset();
        d_first_bad.reset();
        st.synchronize();
        copy.synchronize();
        gpu_clock.finish();
        compute.unlock();
        whole.unlock();
        reservation.release();
        if constexpr (!G2OnGpu) sum_b2 = timer.time("MSM B G2 (CPU, overlapped)", [&] { return b2_on_cpu.get(); });
        return timer.time("assemble", [&] { return assemble_proof<Curve>(key, sum_a, sum_b1, sum_b2, sum_l, sum_h, rng); });
    }

    /// Tables of shifted bases for the resident key: the G1 vectors if they fit beside one proof,
    /// then B2 if it fits too (called under the memory lock, on the setup stream).
    void build_tables() {
        const auto& key = *pk_;
        using T1 = msm::fixed_bases<G1>;
        using T2 = msm::fixed_bases<G2>;
        const size_t g1_bytes = T1::bytes_for(key.a.size()) + T1::bytes_for(key.b_g1.size()) +
                                T1::bytes_for(key.l.size()) + T1::bytes_for(key.h.size());
        auto gb = [](size_t b) {
            char text[32];
            std::snprintf(text, sizeof text, "%.1f GB", double(b) / 1e9);
            return std::string(text);
        };
        if (auto r = gpu_.budget().try_reserve_resident(g1_bytes, per_proof_bytes())) {
            g1_tables_reservation_ = std::move(*r);
            tables_.a = std::make_unique<T1>(resident_->a.data(), key.a.size(), setup_stream_);
            tables_.b_g1 = std::make_unique<T1>(resident_->b_g1.data(), key.b_g1.size(), setup_stream_);
            if (!key.l.empty()) tables_.l = std::make_unique<T1>(resident_->l.data(), key.l.size(), setup_stream_);
            tables_.h = std::make_unique<T1>(resident_->h.data(), key.h.size(), setup_stream_);
            tables_note_ = "G1 tables resident (" + gb(g1_bytes) + ")";
        } else {
            tables_note_ = "G1 tables (" + gb(g1_bytes) + ") do not fit the budget beside one proof: none built";
            return;
        }
        if constexpr (G2OnGpu) {
            const size_t g2_bytes = T2::bytes_for(key.b_g2.size());
            if (auto r = gpu_.budget().try_reserve_resident(g2_bytes, per_proof_bytes())) {
                g2_table_reservation_ = std::move(*r);
                tables_.b_g2 = std::make_unique<T2>(resident_->b_g2.data(), key.b_g2.size(), setup_stream_);
                tables_note_ += ", G2 table resident (" + gb(g2_bytes) + ")";
            } else {
                tables_note_ += ", G2 table (" + gb(g2_bytes) + ") does not fit: plain G2 MSM";
            }
        }
    }

    /// The indices of the variables a density map marks present, on the device (empty for a
    /// dense key: the MSMs then read z itself).
    gpu::device_buffer<uint32_t> present_indices(const density_map& d) {
        if (d.empty()) return {};
        if (d.size() > size_t(UINT32_MAX)) throw invalid_argument("prover (CUDA): more than 2^32 variables");
        std::vector<uint32_t> idx;
        idx.reserve(d.count());
        for (size_t i = 0; i < d.size(); ++i)
            if (d.test(i)) idx.push_back(uint32_t(i));
        gpu::device_buffer<uint32_t> out(idx.size(), setup_stream_);
        if (!idx.empty()) out.upload(idx.data(), setup_stream_);
        setup_stream_.synchronize();  // idx is a local
        return out;
    }

    /// z at the given indices (a compressed key's MSM scalars), gathered on the device; empty
    /// when `index` is (dense).
    static gpu::device_buffer<fr> gather_present(const gpu::device_buffer<uint32_t>& index, const fr* z,
                                                 cudaStream_t st, cudaMemPool_t pool) {
        if (index.size() == 0) return {};
        gpu::device_buffer<fr> out(index.size(), st, pool);
        const unsigned block = 256;
        detail::gather_kernel<fr><<<unsigned((index.size() + block - 1) / block), block, 0, st>>>(
            out.data(), z, index.data(), index.size());
        CUZK_CUDA_CHECK_LAUNCH("gather_kernel");
        return out;
    }

    /// Page-locks a key vector for the copy engine. Memory that is already registered (another
    /// streamed prover over the same key, or the caller) stays as it is and is not ours to
    /// unregister: that owner must outlive this prover.
    template <class T>
    void pin(const std::vector<T>& v) {
        if (v.empty()) return;
        void* p = const_cast<T*>(v.data());
        cudaPointerAttributes attr{};
        CUZK_CUDA_CHECK(cudaPointerGetAttributes(&attr, p));
        if (attr.type == cudaMemoryTypeHost) return;  // already page-locked by someone else
        CUZK_CUDA_CHECK(cudaHostRegister(p, v.size() * sizeof(T), cudaHostRegisterDefault));
        pinned_.ranges.push_back(p);
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
    gpu::vram_budget::reservation key_reservation_;
    std::unique_ptr<detail::device_key<Curve>> resident_;
    gpu::vram_budget::reservation g1_tables_reservation_, g2_table_reservation_;
    detail::key_tables<Curve> tables_;
    std::string tables_note_;
    std::string fallback_reason_;
    gpu::vram_budget::reservation circuit_reservation_;
    std::unique_ptr<device_circuit<fr>> device_circuit_;
    std::string circuit_fallback_reason_;
    detail::host_registrations pinned_;
    gpu::device_buffer<uint32_t> a_index_, b_index_;  // present variables of a compressed key (else empty)
    mutable gpu::upload_staging staging_;  // witness (and host a, b, c) uploads; 64 MiB page-locked
};

}  // namespace cuzk::groth16
