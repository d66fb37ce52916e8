// SPDX-License-Identifier: MIT OR Apache-2.0
// The GPU stages of one proof, over what its prover holds (prover.cuh builds a proof_stages for
// each proof from its members and runs the stages in order, under its stage locks):
//   inputs   z (and host-evaluated a, b, c) up through the worker's page-locked ring, a
//            compressed key's scalars gathered, a streamed key's vectors started on the copy stream
//   compute  an on-demand key's upload, a, b, c from the resident circuit, the H step's NTTs,
//            the MSMs of msm_schedule.cuh, all enqueued: their sums (and the circuit's check)
//            are pending in the worker's result area until the prover's one wait
// The finishing (waits, the G2 MSM on the CPU where it runs there, assembly) stays with the
// prover: it is where the locks are given back.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cuzk/core/error.hpp"
#include "cuzk/gpu/device_buffer.hpp"
#include "cuzk/groth16/cuda/device_circuit.cuh"
#include "cuzk/groth16/cuda/device_key.cuh"
#include "cuzk/groth16/cuda/h_scalars.cuh"
#include "cuzk/groth16/cuda/key_staging.cuh"
#include "cuzk/groth16/cuda/msm_schedule.cuh"
#include "cuzk/groth16/cuda/proof_layout.cuh"
#include "cuzk/groth16/cuda/stage_clock.cuh"
#include "cuzk/groth16/cuda/worker.cuh"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/ntt/device_domain.cuh"

namespace cuzk::groth16::detail {

/// What one proof's GPU stages read of their prover (references, valid for the proof).
template <class Curve>
struct proof_stages {
    using fr = typename Curve::fr;
    using worker = cuda_worker<Curve>;

    const proving_key<Curve>& key;
    const proof_layout<Curve>& layout;  // sizes of one proof, its staging; compact decided at construction
    const ntt::device_domain<fr>& domain;
    const device_key<Curve>* resident;            // the resident key, or null
    const device_circuit<fr>* circuit;            // the resident circuit, or null
    const key_tables<Curve>& tables;              // shifted-base tables of the resident key
    const gpu::device_buffer<uint32_t>& a_index;  // present variables of a compressed key (else empty)
    const gpu::device_buffer<uint32_t>& b_index;
    size_t key_chunk_points;
    bool g2_on_gpu;

    /// Memory phase: z (and host-evaluated a, b, c) into the worker's buffers through its
    /// page-locked ring, a compressed key's scalars gathered, and under staging::streamed a
    /// non-resident key's vectors started on the copy stream (returned: they are this proof's).
    std::unique_ptr<device_key<Curve>> inputs(worker& w, std::span<const fr> z, const std::vector<fr>* host_abc,
                                              gpu_stage_clock& clock) const {
        const size_t n = key.domain_size(), nv = key.num_variables();
        if (layout.compact) return nullptr;  // a compact proof uploads in its compute stage, as room frees up
        clock.time(host_abc ? "upload a, b, c, z" : "upload z", [&] {
            // Through the page-locked ring: a pageable witness otherwise crawls at ~6 GB/s.
            if (host_abc) w.staging_->upload(w.abc_.data(), host_abc->data(), 3 * n * sizeof(fr), w.stream_);
            w.staging_->upload(w.z_.data(), z.data(), nv * sizeof(fr), w.stream_);
            gather_present(a_index, w.z_.data(), w.za_.data(), w.stream_);
            gather_present(b_index, w.z_.data(), w.zb_.data(), w.stream_);
        });
        std::unique_ptr<device_key<Curve>> per_proof_key;
        if (layout.stage == staging::streamed) {
            // Key vectors go up on the copy stream while the NTTs and earlier MSMs run.
            if (!resident)
                per_proof_key = std::make_unique<device_key<Curve>>(key, w.stream_, w.copy_, w.key_ready_.e, w.pool());
        }
        return per_proof_key;
    }

    /// What compute enqueued: the MSM sums and, when a, b, c came from the resident circuit, the
    /// first violated constraint (~0: none), valid once the worker's stream has passed them.
    struct pending {
        pending_msm_sums<Curve> sums;
        const unsigned long long* first_bad = nullptr;

        /// After the wait: the sums, or invalid_argument naming the violated constraint.
        msm_sums<Curve> get() const {
            if (first_bad && *first_bad != ~0ull)
                throw invalid_argument("prover: the assignment violates constraint " + std::to_string(*first_bad));
            return sums.get();
        }
    };

    /// Compute phase: an on-demand key's upload, a, b, c from the resident circuit (when host_abc
    /// is null), the H scalars, the MSMs, enqueued on the worker's stream with their results
    /// queued into its result area (the witness plans wait for their counts). A compact proof
    /// also uploads a, b, c and z here, each when its slot is free.
    pending compute(worker& w, std::unique_ptr<device_key<Curve>>& per_proof_key, std::span<const fr> z,
                    const std::vector<fr>* host_abc, gpu_stage_clock& clock) const {
        const size_t n = key.domain_size(), nv = key.num_variables();
        const gpu::stream& st = w.stream_;
        if (layout.stage != staging::chunked && !resident && !per_proof_key) {  // on-demand: inside the compute lock
            clock.time("upload key", [&] {
                per_proof_key = std::make_unique<device_key<Curve>>(key, st, st, w.key_ready_.e, w.pool());
            });
        }
        // The key on the device (none under staging::chunked: each MSM streams its bases).
        const device_key<Curve>* dk = resident ? resident : per_proof_key.get();
        // A compact proof's slots (compact_slot0/1): a, the H scalars, z; b, c, the gathered scalars.
        fr* const x = w.abc_.data();
        fr* const y = layout.compact ? x + layout.compact_slot0() : nullptr;
        if (layout.compact) {
            if (!host_abc) throw error("prover (CUDA): a compact proof needs a, b, c from the host");
            const fr* abc = host_abc->data();
            clock.time("upload a, b", [&] {
                w.staging_->upload(x, abc, n * sizeof(fr), w.stream_);
                w.staging_->upload(y, abc + n, n * sizeof(fr), w.stream_);
            });
            clock.time("H scalars (NTT, upload c)", [&] {
                h_scalars_from_a_b(domain, x, y, st.get());
                w.staging_->upload(y, abc + 2 * n, n * sizeof(fr), w.stream_);
                h_scalars_finish(domain, x, y, key.h_convention, st.get());
            });
        }
        pending r;
        if (!layout.compact && !host_abc) {
            // The check's answer is read after the proof's one wait: a violated constraint then
            // fails the proof after its MSMs ran instead of before, with the same error.
            clock.time("evaluate a, b, c (GPU)", [&] {
                evaluate_abc_on_device(*circuit, w.z_.data(), w.abc_.data(), w.first_bad_.data(), st);
                r.first_bad = w.results_.download(w.first_bad_.data(), 1, st);
            });
        }
        if (!layout.compact) {
            clock.time("H scalars (NTT)", [&] {
                compute_h_scalars(domain, std::span<fr>(w.abc_.data(), 3 * n), key.h_convention, st.get());
            });
        }
        using integer = typename fr::integer;
        const integer* zs = reinterpret_cast<const integer*>(w.z_.data());
        // A and B over the key's points: every variable, or (density-compressed key) the present ones.
        const integer* za = w.za_.size() != 0 ? reinterpret_cast<const integer*>(w.za_.data()) : zs;
        const integer* zb = w.zb_.size() != 0 ? reinterpret_cast<const integer*>(w.zb_.data()) : zs;
        // Under staging::chunked the workspace ends with the two chunk buffers.
        const size_t chunk_bytes = layout.stage == staging::chunked ? layout.chunk_buffer_bytes() : 0;
        msm_schedule<Curve> msm(
            {.key = key,
             .stage = layout.stage,
             .dk = dk,
             .tables = tables,
             .key_chunk_points = key_chunk_points,
             .shared_plan_count = layout.shared_plan_count(),
             .workspace = w.workspace_.data(),
             .workspace_bytes = w.workspace_.bytes() - chunk_bytes,
             .chunk_bytes = chunk_bytes,
             .key_ready = per_proof_key && layout.stage == staging::streamed ? w.key_ready_.e : nullptr,
             .shared = zb,
             .g2_on_gpu = g2_on_gpu},
            st, w.results_, clock);
        const integer* hs = reinterpret_cast<const integer*>(x);
        if (!layout.compact) {
            r.sums.a = msm.a(za);
            msm.b(zb, r.sums);
            r.sums.l = msm.l(zs);
            r.sums.h = msm.h(hs);
            return r;
        }
        // Compact: H first, then z where the H scalars were and each gathered vector where c was.
        r.sums.h = msm.h(hs);
        clock.time("upload z", [&] { w.staging_->upload(x, z.data(), nv * sizeof(fr), w.stream_); });
        const integer* xs = reinterpret_cast<const integer*>(x);
        const integer* ys = reinterpret_cast<const integer*>(y);
        gather_present(a_index, x, y, st);
        r.sums.a = msm.a(a_index.size() != 0 ? ys : xs);
        gather_present(b_index, x, y, st);
        msm.b(b_index.size() != 0 ? ys : xs, r.sums);
        r.sums.l = msm.l(xs);
        return r;
    }
};

}  // namespace cuzk::groth16::detail
