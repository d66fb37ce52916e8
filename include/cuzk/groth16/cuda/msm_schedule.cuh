// SPDX-License-Identifier: MIT OR Apache-2.0
// The MSMs of one CUDA proof over the key, on one worker's stream and workspace: A, B1, B2 (when
// G2 is on the GPU), L and H, each timed as its own GPU stage. For each it picks the form that
// the key's staging and tables allow: a table of shifted bases (msm/fixed_bases.cuh), the key's
// device copy, or under staging::chunked its page-locked host copy streamed a chunk at a time
// into the end of the workspace (msm/streamed_bases.cuh). The witness MSMs (A, B, L: scalars
// from z, mostly 0 and 1 in real circuits) split off the 0s and 1s; B1, B2 and, for a dense key,
// A share one witness plan of B's scalars. The prover calls them in its order (the full layout:
// A, B, L, H; a compact proof: H first). Each MSM is enqueued and its sum left pending in the
// worker's result area (msm/pending_sum.cuh): the proof waits once for all of them, besides the
// witness plans' counts (the shared plan's and L's), which size the sorts on the host.
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <optional>
#include <vector>

#include "cuzk/gpu/cuda_error.hpp"
#include "cuzk/gpu/device_buffer.hpp"
#include "cuzk/gpu/result_area.hpp"
#include "cuzk/gpu/stream.hpp"
#include "cuzk/groth16/cuda/device_key.cuh"
#include "cuzk/groth16/cuda/key_staging.cuh"
#include "cuzk/groth16/cuda/stage_clock.cuh"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/policy.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/msm/fixed_bases.cuh"
#include "cuzk/msm/pending_sum.cuh"
#include "cuzk/msm/pippenger_device.cuh"
#include "cuzk/msm/streamed_bases.cuh"
#include "cuzk/msm/witness_device.cuh"

namespace cuzk::groth16::detail {

/// A proof's MSM sums, pending until the worker's stream has passed them.
template <class Curve>
struct pending_msm_sums {
    msm::pending_sum<typename Curve::g1> a, b1, l, h;
    msm::pending_sum<typename Curve::g2> b2;  ///< identity when G2 runs on the CPU

    /// After the wait: the sums (throws invalid_argument as an MSM's end would).
    msm_sums<Curve> get() const { return {.a = a.get(), .b1 = b1.get(), .b2 = b2.get(), .l = l.get(), .h = h.get()}; }
};

template <class Curve>
class msm_schedule {
    using fr = typename Curve::fr;
    using integer = typename fr::integer;
    using key_t = device_key<Curve>;
    template <class G>
    using pending = msm::pending_sum<G>;

public:
    /// Where one proof's MSMs read and write.
    struct where {
        const proving_key<Curve>& key;
        staging stage;                    ///< the prover's (cuda_prover_options::stage)
        const key_t* dk;                  ///< the key on the device (null under staging::chunked)
        const key_tables<Curve>& tables;  ///< shifted-base tables of a resident key
        size_t key_chunk_points;          ///< under staging::chunked: bases per streamed chunk
        size_t shared_plan_count;         ///< proof_layout::shared_plan_count
        char* workspace;                  ///< the worker's MSM workspace ...
        size_t workspace_bytes;           ///< ... of these bytes, before the chunk buffers
        size_t chunk_bytes;               ///< under staging::chunked: the two chunk buffers after it
        const cudaEvent_t* key_ready;     ///< a streamed key's per-vector upload events, else null
        const integer* shared;            ///< B's scalars: the witness plan's, for the MSMs that read them
        bool g2_on_gpu;                   ///< B2 here, or on the CPU (the prover's)
    };

    msm_schedule(const where& w, const gpu::stream& st, gpu::result_area& out, gpu_stage_clock& clock)
        : w_(w), st_(st), out_(out), clock_(clock) {
        mont_.form = msm::scalar_form::montgomery;
    }

    pending<typename Curve::g1> a(const integer* s) {
        return clock_.time("MSM A", [&] {
            wait_for(0);
            if (auto r = planned(w_.tables.a, &key_t::a, s, w_.key.a.size())) return *r;
            return key_msm(true, w_.tables.a, &key_t::a, w_.key.a, s, w_.key.a.size());
        });
    }
    /// B's G1 sum and, when G2 is on the GPU, its G2 sum, into r.
    void b(const integer* s, pending_msm_sums<Curve>& r) {
        const size_t nb = w_.key.b_g1.size();
        r.b1 = clock_.time("MSM B G1", [&] {
            wait_for(1);
            if (auto p = planned(w_.tables.b_g1, &key_t::b_g1, s, nb)) return *p;
            return key_msm(true, w_.tables.b_g1, &key_t::b_g1, w_.key.b_g1, s, nb);
        });
        if (w_.g2_on_gpu) {
            r.b2 = clock_.time("MSM B G2", [&] {
                wait_for(2);
                if (auto p = planned(w_.tables.b_g2, &key_t::b_g2, s, nb)) return *p;
                return key_msm(true, w_.tables.b_g2, &key_t::b_g2, w_.key.b_g2, s, nb);
            });
        }
    }
    /// L over the aux part of z (z_all: the whole assignment).
    pending<typename Curve::g1> l(const integer* z_all) {
        const size_t nv = w_.key.num_variables(), np = w_.key.num_public();
        return clock_.time("MSM L", [&] {
            wait_for(3);
            return key_msm(true, w_.tables.l, &key_t::l, w_.key.l, z_all + np + 1, nv - np - 1);
        });
    }
    /// H over the H scalars.
    pending<typename Curve::g1> h(const integer* h_scalars) {
        return clock_.time("MSM H", [&] {
            wait_for(4);
            return key_msm(false, w_.tables.h, &key_t::h, w_.key.h, h_scalars, w_.key.h.size());
        });
    }

private:
    void wait_for(int k) const {
        if (w_.key_ready) CUZK_CUDA_CHECK(cudaStreamWaitEvent(st_, w_.key_ready[k], 0));
    }

    // With a table the MSM reads its shifted copies, else the key vector.
    template <class G>
    pending<G> msm_on(const std::unique_ptr<msm::fixed_bases<G>>& table, const affine<G>* pts, const integer* s,
                      size_t count) {
        if (table)
            return msm::msm_device_enqueue(*table, s, count, w_.workspace, w_.workspace_bytes, st_, out_, mont_.form);
        return msm::msm_device_enqueue<G>(pts, s, count, w_.workspace, w_.workspace_bytes, st_, out_, mont_);
    }
    template <class G>
    pending<G> witness_on(const std::unique_ptr<msm::fixed_bases<G>>& table, const affine<G>* pts, const integer* s,
                          size_t count) {
        if (table)
            return msm::msm_witness_device_enqueue(*table, s, count, w_.workspace, w_.workspace_bytes, st_, out_,
                                                   mont_.form);
        return msm::msm_witness_device_enqueue<G>(pts, s, count, w_.workspace, w_.workspace_bytes, st_, out_, mont_);
    }

    /// One MSM over key vector `host` (its device copy `dk->*vec`, or under staging::chunked its
    /// page-locked host copy streamed a chunk at a time into the end of the workspace, each
    /// chunk's MSM waited for: the chunk buffers are reused).
    template <class G>
    pending<G> key_msm(bool witness, const std::unique_ptr<msm::fixed_bases<G>>& table,
                       gpu::device_buffer<affine<G>> key_t::*vec, const key_points<affine<G>>& host, const integer* s,
                       size_t count) {
        char* ws = w_.workspace;
        const size_t ws_bytes = w_.workspace_bytes;
        if (w_.stage == staging::chunked) {
            return pending<G>(msm::msm_streamed_bases<G>(
                host.data(), count, w_.key_chunk_points, ws + ws_bytes, w_.chunk_bytes, st_,
                [&](const affine<G>* d, size_t first, size_t m) {
                    return witness ? msm::msm_witness_device<G>(d, s + first, m, ws, ws_bytes, st_, mont_)
                                   : msm::msm_device<G>(d, s + first, m, ws, ws_bytes, st_, mont_);
                }));
        }
        const affine<G>* pts = (w_.dk->*vec).data();
        return witness ? witness_on(table, pts, s, count) : msm_on(table, pts, s, count);
    }

    /// The MSM over the shared witness plan of B's scalars (msm/witness_plan.cuh): their split
    /// into 0, 1 and other and the others' sorted digits, made once in the front of the workspace
    /// and read by B1 and B2, and by A when it reads the same scalars (a dense key: za and zb are
    /// both z). Not for an MSM over a table of shifted bases (a table MSM plans alone: its digits
    /// name the table's copies, in the table's width), nor under staging::chunked
    /// (shared_plan_count). Made by the first MSM that reads it, whose stage time includes it; L
    /// and H come after the last reader and use the whole workspace. nullopt: not this MSM's.
    template <class G>
    std::optional<pending<G>> planned(const std::unique_ptr<msm::fixed_bases<G>>& table,
                                      gpu::device_buffer<affine<G>> key_t::*vec, const integer* s, size_t count) {
        if (w_.stage == staging::chunked || table || count != w_.shared_plan_count || s != w_.shared)
            return std::nullopt;
        const size_t plan_bytes = msm::witness_plan_bytes<fr>(w_.shared_plan_count);
        if (!plan_) plan_.emplace(s, count, w_.workspace, plan_bytes, st_, mont_, out_);
        return msm::msm_witness_device_enqueue<G>((w_.dk->*vec).data(), *plan_, w_.workspace + plan_bytes,
                                                  w_.workspace_bytes - plan_bytes, st_, out_);
    }

    where w_;
    const gpu::stream& st_;
    gpu::result_area& out_;
    gpu_stage_clock& clock_;
    msm::device_options mont_{};
    std::optional<msm::witness_plan<fr>> plan_;
};

}  // namespace cuzk::groth16::detail
