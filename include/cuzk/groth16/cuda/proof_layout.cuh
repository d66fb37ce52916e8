// SPDX-License-Identifier: MIT OR Apache-2.0
// The device bytes of one proof of the CUDA prover, and how a worker lays them out: a | b | c, z
// and a compressed key's gathered scalars side by side (the full layout), or a compact proof's
// two slots (cuda_prover_options::proof_layout), plus the MSM workspace the largest of the
// proof's MSMs needs (under staging::chunked, followed by two chunk buffers of streamed bases).
// Pure arithmetic over the key's sizes and the options: the prover sizes its budget
// reservations, its workers and its MSMs' workspace from one of these.
#pragma once

#include <algorithm>
#include <cstddef>

#include "cuzk/groth16/cuda/prover_options.cuh"
#include "cuzk/groth16/cuda/worker.cuh"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/policy.hpp"
#include "cuzk/msm/fixed_bases.cuh"
#include "cuzk/msm/pippenger_device.cuh"
#include "cuzk/msm/streamed_bases.cuh"
#include "cuzk/msm/witness_device.cuh"

namespace cuzk::groth16::detail {

template <class Curve>
struct proof_layout {
    using fr = typename Curve::fr;
    using G1 = typename Curve::g1;
    using G2 = typename Curve::g2;

    const proving_key<Curve>* key = nullptr;
    cuda_prover_options opt{};
    staging stage = staging::prestaged;     ///< the prover's (cuda_prover_options::stage)
    size_t a_gathered = 0, b_gathered = 0;  ///< present variables of a compressed key (0: dense)
    bool compact = false;                   ///< decided by the prover at construction
    bool g2_on_gpu = true;                  ///< the G2 MSM on the GPU (its workspace counts)

    /// Device bytes one proof needs when the key is resident: a, b, c, z (or a compact proof's
    /// two slots), the MSM workspace and the violated-constraint flag.
    size_t resident_proof_bytes() const {
        if (compact) return (compact_slot0() + compact_slot1()) * sizeof(fr) + msm_workspace_bytes() + 7 * 256;
        return full_proof_bytes();
    }

    /// The full layout's bytes.
    size_t full_proof_bytes() const {
        const size_t gathered = (key->a_density.empty() ? 0 : key->a.size()) +
                                (key->b_density.empty() ? 0 : key->b_g1.size());
        return (3 * key->domain_size() + key->num_variables() + gathered) * sizeof(fr) + msm_workspace_bytes() +
               7 * 256;
    }
    /// A compact proof's slots, in scalars: a, then the H scalars, then z (rounded up to 256
    /// bytes: the second slot starts there); b, then c, then one gathered vector at a time.
    size_t compact_slot0() const { return (std::max(key->domain_size(), key->num_variables()) + 7) / 8 * 8; }
    size_t compact_slot1() const { return std::max({key->domain_size(), a_gathered, b_gathered}); }

    /// The MSM workspace one proof uses (the largest of its MSMs; they run one after another).
    /// (Workspace is not monotonic in n, since the window width depends on n: take every size.)
    /// Under staging::chunked: the largest chunk MSM's, then the two chunk buffers.
    size_t msm_workspace_bytes() const {
        if (stage == staging::chunked) return chunk_buffers_offset() + chunk_buffer_bytes();
        const size_t nv = key->num_variables(), aux = key->l.size();
        // A, B and L are witness MSMs (msm/witness_device.cuh), H a plain one.
        size_t b = std::max({msm::msm_witness_workspace_bytes<G1>(nv), msm::msm_witness_workspace_bytes<G1>(aux),
                             msm::msm_device_workspace_bytes<G1>(key->h.size()),
                             g2_on_gpu ? msm::msm_witness_workspace_bytes<G2>(nv) : size_t(0)});
        if (opt.precompute_bases)
            b = std::max({b, msm::witness_fixed_bases_workspace_bytes<G1>(nv),
                          msm::witness_fixed_bases_workspace_bytes<G1>(aux),
                          msm::fixed_bases_workspace_bytes<G1>(key->h.size()),
                          g2_on_gpu ? msm::witness_fixed_bases_workspace_bytes<G2>(nv) : size_t(0)});
        if (!key->is_dense()) {  // A and B run over their present variables only
            const size_t na = key->a.size(), nb = key->b_g1.size();
            b = std::max({b, msm::msm_witness_workspace_bytes<G1>(na), msm::msm_witness_workspace_bytes<G1>(nb),
                          g2_on_gpu ? msm::msm_witness_workspace_bytes<G2>(nb) : size_t(0)});
            if (opt.precompute_bases)
                b = std::max({b, msm::witness_fixed_bases_workspace_bytes<G1>(na),
                              msm::witness_fixed_bases_workspace_bytes<G1>(nb),
                              g2_on_gpu ? msm::witness_fixed_bases_workspace_bytes<G2>(nb) : size_t(0)});
        }
        // The shared witness plan (shared_plan_count) in front of the MSMs that read it.
        if (const size_t m = shared_plan_count(); m != 0)
            b = std::max(b, msm::witness_plan_bytes<fr>(m) +
                                std::max(msm::msm_witness_planned_workspace_bytes<G1>(m),
                                         g2_on_gpu ? msm::msm_witness_planned_workspace_bytes<G2>(m) : size_t(0)));
        return b;
    }

    /// The length of the scalar vector whose witness plan (msm/witness_plan.cuh) several MSMs of a
    /// proof share: B's, z itself for A, B1 and B2 of a dense key, the gathered B scalars for B1
    /// and B2 of a compressed one (A gathers other variables: its MSM plans alone). 0 under
    /// staging::chunked, whose MSMs run a chunk of the bases at a time, each over its slice of the
    /// scalars (a plan of the whole vector does not serve a slice), and plan alone.
    size_t shared_plan_count() const {
        if (stage == staging::chunked) return 0;
        return key->b_g1.size();
    }

    /// Under staging::chunked: where the chunk buffers start in a worker's MSM workspace (after
    /// the largest chunk MSM's workspace: every MSM's full chunks and its last, shorter one).
    size_t chunk_buffers_offset() const {
        const size_t chunk = opt.key_chunk_points;
        size_t b = 0;
        auto each_chunk = [&](size_t n, auto&& bytes) {
            if (n == 0) return;
            b = std::max(b, bytes(std::min(chunk, n)));
            if (n > chunk && n % chunk != 0) b = std::max(b, bytes(n % chunk));
        };
        auto witness_g1 = [](size_t m) { return msm::msm_witness_workspace_bytes<G1>(m); };
        each_chunk(key->a.size(), witness_g1);
        each_chunk(key->b_g1.size(), witness_g1);
        each_chunk(key->l.size(), witness_g1);
        each_chunk(key->h.size(), [](size_t m) { return msm::msm_device_workspace_bytes<G1>(m); });
        if (g2_on_gpu)
            each_chunk(key->b_g2.size(), [](size_t m) { return msm::msm_witness_workspace_bytes<G2>(m); });
        return (b + 255) / 256 * 256;
    }
    /// Under staging::chunked: the two chunk buffers (of the largest point type an MSM streams).
    size_t chunk_buffer_bytes() const {
        const size_t longest = std::max({key->a.size(), key->b_g1.size(), key->l.size(), key->h.size()});
        const size_t chunk = std::min(opt.key_chunk_points, std::max<size_t>(1, longest));
        if (g2_on_gpu) return msm::streamed_bases_bytes<G2>(chunk);
        return msm::streamed_bases_bytes<G1>(chunk);
    }

    /// The sizes a worker of prover `owner` has (a compact proof: its two slots in abc_, nothing else).
    cuda_worker_layout worker(gpu_context* gpu, const void* owner) const {
        if (compact)
            return {.gpu = gpu,
                    .owner = owner,
                    .abc_scalars = compact_slot0() + compact_slot1(),
                    .msm_workspace_bytes = msm_workspace_bytes()};
        return {.gpu = gpu,
                .owner = owner,
                .abc_scalars = 3 * key->domain_size(),
                .variables = key->num_variables(),
                .a_gathered = a_gathered,
                .b_gathered = b_gathered,
                .msm_workspace_bytes = msm_workspace_bytes()};
    }
};

}  // namespace cuzk::groth16::detail
