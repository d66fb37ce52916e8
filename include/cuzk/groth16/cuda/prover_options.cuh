// SPDX-License-Identifier: MIT OR Apache-2.0
// Run-time choices of the CUDA prover (groth16/cuda/prover.cuh): how its workers lock the GPU,
// when the key reaches it, where G2 runs, tables, chunks and the proof layout. The one type
// parameter of cuda_prover is its telemetry sink (policy.hpp). An unset optional takes the
// default named beside it (under the deprecated policy spelling: the policy's value).
#pragma once

#include <cstddef>
#include <optional>

#include "cuzk/groth16/policy.hpp"

namespace cuzk::groth16 {

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
    /// How workers sharing the GPU serialise (policy.hpp's lock_granularity); unset: split.
    std::optional<lock_granularity> locking;
    /// When the key's points reach the GPU (policy.hpp's staging); unset: prestaged.
    std::optional<staging> stage;
    /// Whether the G2 MSM runs on the GPU or on the CPU cores beside the GPU stages (for GPUs with
    /// little memory); unset: on the GPU.
    std::optional<bool> g2_on_gpu;
};

}  // namespace cuzk::groth16
