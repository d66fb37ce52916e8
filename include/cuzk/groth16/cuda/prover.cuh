// The CUDA backend of groth16::prover: device NTT and device MSM, with the lock granularity,
// staging strategy, G2 placement and telemetry sink of its policy (policy.hpp, docs/GROTH16.md).
//
//   gpu_context gpu(0, 100ull << 30);                          // device 0, 100 GB budget
//   prover<C, cuda_policy<lock_granularity::split, staging::prestaged>> p(pk, gpu, circuit);
//   cuda_worker<C> w = p.make_worker();                        // per thread: streams, buffers, VRAM
//   proof<C> pi = p.prove(w, z);                               // a, b, c evaluated on the GPU
//   proof<C> pj = p.prove(cs, z);                              // no worker: one made for the proof
//
// The prover holds what every proof reads (the device domain, the resident key, circuit and
// tables); a worker (cuda_worker.cuh) holds what one proof writes, and a proof runs on a worker in
// three stages:
//   inputs  (memory lock under split)   upload z (and a, b, c when evaluated on the host), gather
//                                       a compressed key's scalars, start a streamed key's upload
//                                       (a chunked key goes up inside each MSM, a chunk at a time)
//   compute (compute lock under split)  a, b, c from the resident circuit (checking every
//                                       constraint), NTTs -> H scalars, MSMs A, B1, B2, L, H (B1,
//                                       B2 and a dense key's A over one witness plan of z)
//   finish                              wait for the worker's streams, then (outside the locks)
//                                       the G2 MSM on the CPU if the policy puts it there, assembly
// A compact proof (cuda_prover_options::proof_layout, staging::chunked only) uploads nothing in
// the inputs stage: a, b, c and z go up inside compute, each when its slot is free.
// Under the device policy one lock covers inputs and compute; under none the caller serialises.
// Nothing waits on the whole device: every allocation is stream-ordered (a worker's buffers and
// a per-proof key from the gpu_context's memory pool, which keeps them mapped between proofs),
// every wait is a stream synchronisation. With a stage_times (or a telemetry sink), each GPU
// stage also gets its interval on the worker's stream (gpu_stage_clock.cuh). Every path that
// touches the device makes the prover's device current first (the constructor through its first
// member, make_worker, prove, the destructor).
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
#include <vector>

#include "cuzk/gpu/cuda_error.hpp"
#include "cuzk/gpu/device_buffer.hpp"
#include "cuzk/gpu/stream.hpp"
#include "cuzk/groth16/cuda/worker.cuh"
#include "cuzk/groth16/cuda/device_circuit.cuh"
#include "cuzk/groth16/cuda/device_key.cuh"
#include "cuzk/groth16/cuda/gpu_context.cuh"
#include "cuzk/groth16/cuda/stage_clock.cuh"
#include "cuzk/groth16/cuda/h_scalars.cuh"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/msm/fixed_bases.cuh"
#include "cuzk/msm/pippenger_device.cuh"
#include "cuzk/msm/streamed_bases.cuh"
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
    /// Under staging::chunked: bases per chunk of the streamed MSMs (at least 1). A worker then
    /// holds two chunks of the largest point type beside one chunk's MSM workspace (2^22: 1.6 GB
    /// of BLS12-381 G2 points and ~0.6 GB of workspace) instead of a key; larger chunks mean fewer
    /// MSM launches and longer copies to overlap. Ignored by the other stagings.
    size_t key_chunk_points = size_t(1) << 22;
    /// Under staging::chunked: how one proof lays out its scalars on the device (the other
    /// stagings always use the full layout).
    ///   full       a | b | c, z and a compressed key's gathered scalars side by side:
    ///              3n + nv + gathered scalars (a 2^27 PoRep partition: 22.6 GB)
    ///   compact    two slots: a and b to the coset and multiplied, c in b's place, the H MSM, then z
    ///              and one gathered vector at a time where the H scalars and c were:
    ///              max(n, nv) + max(n, gathered) scalars (the 2^27 partition: 8.6 GB). a, b, c
    ///              always come from the host, and z goes up after the H step (inside the
    ///              compute stage, so proofs overlap less under lock_granularity::split)
    ///   automatic  compact when the full layout does not fit what the budget has free when the
    ///              prover is made
    enum class layout { automatic, full, compact };
    layout proof_layout = layout::automatic;
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

/// out[i] = in[index[i]] (the scalars of a density-compressed MSM).
template <class T>
__global__ void gather_kernel(T* out, const T* in, const uint32_t* index, size_t n) {
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[index[i]];
}

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

}  // namespace detail

/// The CUDA backend, for any policy type that models cuda_prover_policy (policy.hpp).
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
                fallback_reason_ =
                    "the proving key and one proof's buffers do not fit the VRAM budget; uploading the key per proof";
            }
        }
        if constexpr (Stage == staging::chunked) {
            if (opt_.key_chunk_points == 0) throw invalid_argument("prover: key_chunk_points must be at least 1");
            using layout = cuda_prover_options::layout;
            const size_t free = gpu_.budget().capacity() - gpu_.budget().used();
            compact_ = opt_.proof_layout == layout::compact ||
                       (opt_.proof_layout == layout::automatic && full_proof_bytes() > free);
        }
        if constexpr (Stage == staging::streamed || Stage == staging::chunked) {
            pin(key.a), pin(key.b_g1), pin(key.b_g2), pin(key.l), pin(key.h);
        }
        if (circuit_ && compact_) {
            circuit_fallback_reason_ = "compact proofs (cuda_prover_options::proof_layout) evaluate a, b, c on the host";
        } else if (circuit_) {
            if (auto r = gpu_.budget().try_reserve_resident(device_circuit<fr>::bytes_for(*circuit_),
                                                            per_proof_bytes())) {
                circuit_reservation_ = std::move(*r);
                device_circuit_ = std::make_unique<device_circuit<fr>>(*circuit_, setup_stream_);
            } else {
                circuit_fallback_reason_ =
                    "the circuit does not fit the VRAM budget beside the key and one proof; "
                    "evaluating a, b, c on the host";
            }
        }
        // Tables last: the resident circuit saves more per proof than they do (docs/PERFORMANCE.md).
        if (resident_ && opt_.precompute_bases) build_tables();
        if (Stage == staging::chunked && opt_.precompute_bases)
            tables_note_ = "none: under staging::chunked no key vector is on the GPU to build them from";
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
    /// Device bytes the key and other resident buffers hold of the budget, outside any worker.
    size_t resident_budget_bytes() const { return gpu_.budget().resident(); }
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
        if (!resident_ && Stage != staging::chunked) b += detail::device_key<Curve>::bytes_for(*pk_);
        return b;
    }
    /// Device bytes one proof needs when the key is resident: a, b, c, z (or a compact proof's
    /// two slots), the MSM workspace and the violated-constraint flag.
    size_t resident_proof_bytes() const {
        if (compact_) return (compact_slot0() + compact_slot1()) * sizeof(fr) + msm_workspace_bytes() + 7 * 256;
        return full_proof_bytes();
    }
    /// True when proofs use the compact layout (cuda_prover_options::proof_layout).
    bool compact_proofs() const { return compact_; }
    /// Device bytes this prover holds outside the budget's accounting: the domain's twiddle and
    /// coset tables and a compressed key's index arrays (2^27 PoRep: 2.1 + 0.7 GB). A card's
    /// budget should leave room for them (and the CUDA context).
    size_t unbudgeted_bytes() const {
        return domain_->bytes() + (a_index_.size() + b_index_.size()) * sizeof(uint32_t);
    }
    /// The MSM workspace one proof uses (the largest of its MSMs; they run one after another).
    /// (Workspace is not monotonic in n, since the window width depends on n: take every size.)
    /// Under staging::chunked: the largest chunk MSM's, then the two chunk buffers.
    size_t msm_workspace_bytes() const {
        if constexpr (Stage == staging::chunked) return chunk_buffers_offset() + chunk_buffer_bytes();
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
        // The shared witness plan (shared_plan_count) in front of the MSMs that read it.
        if (const size_t m = shared_plan_count(); m != 0)
            b = std::max(b, msm::witness_plan_bytes<fr>(m) +
                                std::max(msm::msm_witness_planned_workspace_bytes<G1>(m),
                                         G2OnGpu ? msm::msm_witness_planned_workspace_bytes<G2>(m) : size_t(0)));
        return b;
    }

    /// The length of the scalar vector whose witness plan (msm/witness_plan.cuh) several MSMs of a
    /// proof share: B's, z itself for A, B1 and B2 of a dense key, the gathered B scalars for B1
    /// and B2 of a compressed one (A gathers other variables: its MSM plans alone). 0 under
    /// staging::chunked, whose MSMs run a chunk of the bases at a time, each over its slice of the
    /// scalars (a plan of the whole vector does not serve a slice), and plan alone.
    size_t shared_plan_count() const {
        if constexpr (Stage == staging::chunked) return 0;
        return pk_->b_g1.size();
    }

    /// Under staging::chunked: where the chunk buffers start in a worker's MSM workspace (after
    /// the largest chunk MSM's workspace: every MSM's full chunks and its last, shorter one).
    size_t chunk_buffers_offset() const {
        const auto& key = *pk_;
        const size_t chunk = opt_.key_chunk_points;
        size_t b = 0;
        auto each_chunk = [&](size_t n, auto&& bytes) {
            if (n == 0) return;
            b = std::max(b, bytes(std::min(chunk, n)));
            if (n > chunk && n % chunk != 0) b = std::max(b, bytes(n % chunk));
        };
        auto witness_g1 = [](size_t m) { return msm::msm_witness_workspace_bytes<G1>(m); };
        each_chunk(key.a.size(), witness_g1);
        each_chunk(key.b_g1.size(), witness_g1);
        each_chunk(key.l.size(), witness_g1);
        each_chunk(key.h.size(), [](size_t m) { return msm::msm_device_workspace_bytes<G1>(m); });
        if constexpr (G2OnGpu)
            each_chunk(key.b_g2.size(), [](size_t m) { return msm::msm_witness_workspace_bytes<G2>(m); });
        return (b + 255) / 256 * 256;
    }
    /// Under staging::chunked: the two chunk buffers (of the largest point type an MSM streams).
    size_t chunk_buffer_bytes() const {
        const size_t longest = std::max({pk_->a.size(), pk_->b_g1.size(), pk_->l.size(), pk_->h.size()});
        const size_t chunk = std::min(opt_.key_chunk_points, std::max<size_t>(1, longest));
        if constexpr (G2OnGpu) return msm::streamed_bases_bytes<G2>(chunk);
        return msm::streamed_bases_bytes<G1>(chunk);
    }

    /// What one proof runs on (cuda_worker.cuh): streams, buffers and budget share, kept between
    /// proofs.
    using worker = cuda_worker<Curve>;

    /// A worker for this prover, holding per_proof_bytes() of the budget (as a resident
    /// reservation) until it is destroyed. Throws invalid_argument when they do not fit beside
    /// what the budget holds now: make no more workers than the budget holds proofs.
    worker make_worker() const {
        std::optional<gpu::vram_budget::reservation> share = gpu_.budget().try_reserve_resident(per_proof_bytes());
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
        std::optional<gpu::vram_budget::reservation> share = gpu_.budget().try_reserve_resident(per_proof_bytes());
        if (!share) return nullptr;
        std::lock_guard memory(gpu_.memory_mutex());
        return std::make_unique<worker>(worker_layout(), std::move(*share));
    }

    /// Proves that z satisfies cs (see the CPU prover for the errors it throws), on worker `w`
    /// (made by this prover). Thread-safe across workers; the policy's locks order the GPU stages.
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
    using telemetry = policy_telemetry<Policy>;

    /// The sizes a worker of this prover has (a compact proof: its two slots in abc_, nothing else).
    cuda_worker_layout worker_layout() const {
        if (compact_)
            return {.gpu = &gpu_,
                    .owner = this,
                    .abc_scalars = compact_slot0() + compact_slot1(),
                    .msm_workspace_bytes = msm_workspace_bytes()};
        return {.gpu = &gpu_,
                .owner = this,
                .abc_scalars = 3 * pk_->domain_size(),
                .variables = pk_->num_variables(),
                .a_gathered = a_index_.size(),
                .b_gathered = b_index_.size(),
                .msm_workspace_bytes = msm_workspace_bytes()};
    }

    /// The full layout's bytes (resident_proof_bytes).
    size_t full_proof_bytes() const {
        const auto& key = *pk_;
        const size_t gathered = (key.a_density.empty() ? 0 : key.a.size()) +
                                (key.b_density.empty() ? 0 : key.b_g1.size());
        return (3 * key.domain_size() + key.num_variables() + gathered) * sizeof(fr) + msm_workspace_bytes() + 7 * 256;
    }
    /// A compact proof's slots, in scalars: a, then the H scalars, then z (rounded up to 256
    /// bytes: the second slot starts there); b, then c, then one gathered vector at a time.
    size_t compact_slot0() const { return (std::max(pk_->domain_size(), pk_->num_variables()) + 7) / 8 * 8; }
    size_t compact_slot1() const { return std::max({pk_->domain_size(), a_index_.size(), b_index_.size()}); }

    void check_worker(const worker* w) const {
        if (w && !w->made_by(this)) throw invalid_argument("prover: the worker was made by another prover");
    }

    template <class Rng>
    proof<Curve> prove_cs(worker* w, const r1cs<fr>& cs, std::span<const fr> z, Rng& rng, stage_times* times) const {
        check_worker(w);
        check_key_matches(*pk_, cs);
        return timed(times, [&](stage_timer& timer) {
            std::vector<fr> abc = evaluate_abc_checked(cs, z, timer);
            return prove_timed(w, z, &abc, timer, rng);
        });
    }

    template <class Rng>
    proof<Curve> prove_z(worker* w, std::span<const fr> z, Rng& rng, stage_times* times) const {
        check_worker(w);
        if (!circuit_) throw invalid_argument("prover: prove(z) needs the circuit given at construction");
        circuit_->check_assignment_shape(z);
        return timed(times, [&](stage_timer& timer) {
            if (!device_circuit_) {
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
        return timed(times, [&](stage_timer& timer) { return prove_timed(w, z, &abc, timer, rng); });
    }

    /// Runs body(timer) over `times`; under a policy with a telemetry sink the stages are
    /// recorded even when `times` is null, and each is given to the sink once the proof is made.
    template <class F>
    static proof<Curve> timed(stage_times* times, F&& body) {
        if constexpr (has_telemetry<Policy>) {
            stage_times own;
            stage_times& t = times ? *times : own;
            const size_t first = t.stages.size();
            stage_timer timer(&t);
            proof<Curve> pi = body(timer);
            for (size_t i = first; i < t.stages.size(); ++i) telemetry::stage(t.stages[i]);
            return pi;
        } else {
            stage_timer timer(times);
            return body(timer);
        }
    }

    /// Every proof: a, b, c come from the host (host_abc) or, when host_abc is null, from the
    /// resident circuit; on `given`, or on a worker made for the proof when it is null.
    template <class Rng>
    proof<Curve> prove_timed(worker* given, std::span<const fr> z, const std::vector<fr>* host_abc, stage_timer& timer,
                             Rng& rng) const {
        const auto& key = *pk_;
        std::future<jacobian<G2>> b2_on_cpu;
        if constexpr (!G2OnGpu)
            b2_on_cpu = std::async(std::launch::async, [&] {
                std::vector<fr> storage;
                return msm_witness_host<G2>(key.b_g2, select_present(z, key.b_density, storage, "B"));
            });
        msm_sums<Curve> sums;
        {
            CUZK_CUDA_CHECK(cudaSetDevice(gpu_.device()));
            detail::maybe_lock whole, memory;
            if constexpr (Lock == lock_granularity::device) whole = detail::maybe_lock(gpu_.compute_mutex());
            if constexpr (Lock == lock_granularity::split) memory = detail::maybe_lock(gpu_.memory_mutex());
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
            std::unique_ptr<detail::device_key<Curve>> per_proof_key = inputs_stage(w, z, host_abc, clock);
            memory.unlock();

            detail::maybe_lock compute;
            if constexpr (Lock == lock_granularity::split) compute = detail::maybe_lock(gpu_.compute_mutex());
            sums = compute_stage(w, per_proof_key, z, host_abc, clock);
            // The GPU part of finishing: the per-proof key freed in stream order, both streams
            // passed, the GPU intervals read, then the next worker in.
            per_proof_key.reset();
            w.stream_.synchronize();
            w.copy_.synchronize();
            clock.finish();
            compute.unlock();
            whole.unlock();
            ++w.proofs_;
        }
        return finish_stage(sums, b2_on_cpu, timer, rng);
    }

    /// Memory phase: z (and host-evaluated a, b, c) into the worker's buffers through its
    /// page-locked ring, a compressed key's scalars gathered, and under staging::streamed a
    /// non-resident key's vectors started on the copy stream (returned: they are this proof's).
    std::unique_ptr<detail::device_key<Curve>> inputs_stage(worker& w, std::span<const fr> z,
                                                            const std::vector<fr>* host_abc,
                                                            detail::gpu_stage_clock& clock) const {
        const auto& key = *pk_;
        const size_t n = key.domain_size(), nv = key.num_variables();
        if (compact_) return nullptr;  // a compact proof uploads in its compute stage, as room frees up
        clock.time(host_abc ? "upload a, b, c, z" : "upload z", [&] {
            // Through the page-locked ring: a pageable witness otherwise crawls at ~6 GB/s.
            if (host_abc) w.staging_->upload(w.abc_.data(), host_abc->data(), 3 * n * sizeof(fr), w.stream_);
            w.staging_->upload(w.z_.data(), z.data(), nv * sizeof(fr), w.stream_);
            gather_present(a_index_, w.z_.data(), w.za_.data(), w.stream_);
            gather_present(b_index_, w.z_.data(), w.zb_.data(), w.stream_);
        });
        std::unique_ptr<detail::device_key<Curve>> per_proof_key;
        if constexpr (Stage == staging::streamed) {
            // Key vectors go up on the copy stream while the NTTs and earlier MSMs run.
            if (!resident_)
                per_proof_key = std::make_unique<detail::device_key<Curve>>(key, w.stream_, w.copy_, w.key_ready_.e,
                                                                            w.pool());
        }
        return per_proof_key;
    }

    /// Compute phase: an on-demand key's upload, a, b, c from the resident circuit (when host_abc
    /// is null), the H scalars, the MSMs; each sum comes back to the host as its MSM ends. A compact
    /// proof also uploads a, b, c and z here, each when its slot is free.
    msm_sums<Curve> compute_stage(worker& w, std::unique_ptr<detail::device_key<Curve>>& per_proof_key,
                           std::span<const fr> z, const std::vector<fr>* host_abc,
                           detail::gpu_stage_clock& clock) const {
        const auto& key = *pk_;
        const size_t n = key.domain_size(), nv = key.num_variables(), np = key.num_public();
        const gpu::stream& st = w.stream_;
        if (Stage != staging::chunked && !resident_ && !per_proof_key) {  // on-demand: inside the compute lock
            clock.time("upload key", [&] {
                per_proof_key = std::make_unique<detail::device_key<Curve>>(key, st, st, w.key_ready_.e, w.pool());
            });
        }
        // The key on the device (none under staging::chunked: each MSM streams its bases).
        const detail::device_key<Curve>* dk = resident_ ? resident_.get() : per_proof_key.get();
        (void)dk;
        auto wait_for = [&](int k) {
            if (per_proof_key && Stage == staging::streamed)
                CUZK_CUDA_CHECK(cudaStreamWaitEvent(st, w.key_ready_.e[k], 0));
        };
        // A compact proof's slots (compact_slot0/1): a, the H scalars, z; b, c, the gathered scalars.
        fr* const x = w.abc_.data();
        fr* const y = compact_ ? x + compact_slot0() : nullptr;
        if (compact_) {
            if (!host_abc) throw error("prover (CUDA): a compact proof needs a, b, c from the host");
            const fr* abc = host_abc->data();
            clock.time("upload a, b", [&] {
                w.staging_->upload(x, abc, n * sizeof(fr), w.stream_);
                w.staging_->upload(y, abc + n, n * sizeof(fr), w.stream_);
            });
            clock.time("H scalars (NTT, upload c)", [&] {
                h_scalars_from_a_b(*domain_, x, y, st.get());
                w.staging_->upload(y, abc + 2 * n, n * sizeof(fr), w.stream_);
                h_scalars_finish(*domain_, x, y, key.h_convention, st.get());
            });
        } else if (!host_abc) {
            clock.time("evaluate a, b, c (GPU)", [&] {
                evaluate_abc_on_device(*device_circuit_, w.z_.data(), w.abc_.data(), w.first_bad_.data(), st);
                unsigned long long first_bad = 0;
                w.first_bad_.download(&first_bad, st);
                st.synchronize();
                if (first_bad != ~0ull)
                    throw invalid_argument("prover: the assignment violates constraint " + std::to_string(first_bad));
            });
        }
        if (!compact_) {
            clock.time("H scalars (NTT)", [&] {
                compute_h_scalars(*domain_, std::span<fr>(w.abc_.data(), 3 * n), key.h_convention, st.get());
            });
        }
        using integer = typename fr::integer;
        const integer* zs = reinterpret_cast<const integer*>(w.z_.data());
        char* ws = w.workspace_.data();
        // Under staging::chunked the workspace ends with the two chunk buffers.
        const size_t chunk_bytes = Stage == staging::chunked ? chunk_buffer_bytes() : 0;
        const size_t ws_bytes = w.workspace_.bytes() - chunk_bytes;
        msm::device_options mont{};
        mont.form = msm::scalar_form::montgomery;
        // With a table the MSM reads its shifted copies, else the key vector. The witness MSMs
        // (A, B, L: scalars from z, mostly 0 and 1 in real circuits) split off the 0s and 1s.
        auto msm_on = [&]<class G>(const std::unique_ptr<msm::fixed_bases<G>>& table, const affine<G>* pts,
                                   const integer* s, size_t count) {
            if (table) return msm::msm_device(*table, s, count, ws, ws_bytes, st, mont.form);
            return msm::msm_device<G>(pts, s, count, ws, ws_bytes, st, mont);
        };
        auto witness_on = [&]<class G>(const std::unique_ptr<msm::fixed_bases<G>>& table, const affine<G>* pts,
                                       const integer* s, size_t count) {
            if (table) return msm::msm_witness_device(*table, s, count, ws, ws_bytes, st, mont.form);
            return msm::msm_witness_device<G>(pts, s, count, ws, ws_bytes, st, mont);
        };
        // One MSM over key vector `host` (its device copy `dk->*vec`, or under staging::chunked its
        // page-locked host copy streamed a chunk at a time into the end of the workspace).
        auto key_msm = [&]<class G>(bool witness, const std::unique_ptr<msm::fixed_bases<G>>& table,
                                    gpu::device_buffer<affine<G>> detail::device_key<Curve>::*vec,
                                    const std::vector<affine<G>>& host, const integer* s, size_t count) {
            if constexpr (Stage == staging::chunked) {
                return msm::msm_streamed_bases<G>(
                    host.data(), count, opt_.key_chunk_points, ws + ws_bytes, chunk_bytes, st,
                    [&](const affine<G>* d, size_t first, size_t m) {
                        return witness ? msm::msm_witness_device<G>(d, s + first, m, ws, ws_bytes, st, mont)
                                       : msm::msm_device<G>(d, s + first, m, ws, ws_bytes, st, mont);
                    });
            } else {
                (void)host;
                const affine<G>* pts = (dk->*vec).data();
                return witness ? witness_on(table, pts, s, count) : msm_on(table, pts, s, count);
            }
        };
        using key_t = detail::device_key<Curve>;
        // A and B over the key's points: every variable, or (density-compressed key) the present ones.
        const integer* za = w.za_.size() != 0 ? reinterpret_cast<const integer*>(w.za_.data()) : zs;
        const integer* zb = w.zb_.size() != 0 ? reinterpret_cast<const integer*>(w.zb_.data()) : zs;
        const size_t na = key.a.size(), nb = key.b_g1.size();
        // One witness plan of B's scalars zb (msm/witness_plan.cuh): their split into 0, 1 and other
        // and the others' sorted digits, made once in the front of the workspace and read by B1 and
        // B2, and by A when it reads the same scalars (a dense key: za and zb are both z). Not for
        // an MSM over a table of shifted bases (a table MSM plans alone: its digits name the
        // table's copies, in the table's width), nor under staging::chunked (shared_plan_count).
        // Made by the first MSM that reads it, whose stage time includes it; L and H come after
        // the last reader and use the whole workspace.
        std::optional<msm::witness_plan<fr>> plan;
        const size_t plan_bytes = msm::witness_plan_bytes<fr>(shared_plan_count());
        auto planned = [&]<class G>(const std::unique_ptr<msm::fixed_bases<G>>& table,
                                    gpu::device_buffer<affine<G>> detail::device_key<Curve>::*vec, const integer* s,
                                    size_t count) -> std::optional<jacobian<G>> {
            if constexpr (Stage == staging::chunked) {
                return std::nullopt;
            } else {
                if (table || count != shared_plan_count() || s != zb) return std::nullopt;
                if (!plan) plan.emplace(s, count, ws, plan_bytes, st, mont);
                return msm::msm_witness_device<G>((dk->*vec).data(), *plan, ws + plan_bytes, ws_bytes - plan_bytes, st);
            }
        };
        auto msm_a = [&](const integer* s) {
            return clock.time("MSM A", [&] {
                wait_for(0);
                if (auto r = planned(tables_.a, &key_t::a, s, na)) return *r;
                return key_msm(true, tables_.a, &key_t::a, key.a, s, na);
            });
        };
        auto msm_b = [&](const integer* s, msm_sums<Curve>& r) {
            r.b1 = clock.time("MSM B G1", [&] {
                wait_for(1);
                if (auto p = planned(tables_.b_g1, &key_t::b_g1, s, nb)) return *p;
                return key_msm(true, tables_.b_g1, &key_t::b_g1, key.b_g1, s, nb);
            });
            if constexpr (G2OnGpu) {
                r.b2 = clock.time("MSM B G2", [&] {
                    wait_for(2);
                    if (auto p = planned(tables_.b_g2, &key_t::b_g2, s, nb)) return *p;
                    return key_msm(true, tables_.b_g2, &key_t::b_g2, key.b_g2, s, nb);
                });
            }
        };
        auto msm_l = [&](const integer* z_all) {
            return clock.time("MSM L", [&] {
                wait_for(3);
                return key_msm(true, tables_.l, &key_t::l, key.l, z_all + np + 1, nv - np - 1);
            });
        };
        auto msm_h = [&] {
            return clock.time("MSM H", [&] {
                wait_for(4);
                return key_msm(false, tables_.h, &key_t::h, key.h, reinterpret_cast<const integer*>(x), key.h.size());
            });
        };
        msm_sums<Curve> r;
        if (!compact_) {
            r.a = msm_a(za);
            msm_b(zb, r);
            r.l = msm_l(zs);
            r.h = msm_h();
            return r;
        }
        // Compact: H first, then z where the H scalars were and each gathered vector where c was.
        r.h = msm_h();
        clock.time("upload z", [&] { w.staging_->upload(x, z.data(), nv * sizeof(fr), w.stream_); });
        const integer* xs = reinterpret_cast<const integer*>(x);
        const integer* ys = reinterpret_cast<const integer*>(y);
        gather_present(a_index_, x, y, st);
        r.a = msm_a(a_index_.size() != 0 ? ys : xs);
        gather_present(b_index_, x, y, st);
        msm_b(b_index_.size() != 0 ? ys : xs, r);
        r.l = msm_l(xs);
        return r;
    }

    /// Host phase, outside every lock: the G2 MSM on the CPU (overlapped with the GPU stages)
    /// when the policy puts it there, then the assembly with fresh r, s.
    template <class Rng>
    proof<Curve> finish_stage(msm_sums<Curve>& sums, std::future<jacobian<G2>>& b2_on_cpu, stage_timer& timer,
                              Rng& rng) const {
        if constexpr (!G2OnGpu) sums.b2 = timer.time("MSM B G2 (CPU, overlapped)", [&] { return b2_on_cpu.get(); });
        return timer.time("assemble", [&] { return assemble_proof<Curve>(*pk_, sums, rng); });
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

    /// z at the given indices (a compressed key's MSM scalars) into `out`, gathered on the
    /// device; nothing when `index` is empty (dense: the MSMs read z itself).
    static void gather_present(const gpu::device_buffer<uint32_t>& index, const fr* z, fr* out, cudaStream_t st) {
        if (index.size() == 0) return;
        const unsigned block = 256;
        detail::gather_kernel<fr>
            <<<unsigned((index.size() + block - 1) / block), block, 0, st>>>(out, z, index.data(), index.size());
        CUZK_CUDA_CHECK_LAUNCH("gather_kernel");
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
    bool compact_ = false;                             // cuda_prover_options::proof_layout, decided at construction
    // The upload ring of proofs made without a worker (a worker has its own): two 32 MiB
    // page-locked slots, allocated at the first such proof; upload() serialises its users.
    mutable gpu::upload_staging staging_;
};

}  // namespace cuzk::groth16
