// SPDX-License-Identifier: MIT OR Apache-2.0
// The policy spelling of the CUDA prover, kept for one release: prover<C, cuda_policy<Lock,
// Stage, G2OnGpu, Telemetry>> is a cuda_prover<C, Telemetry> whose options take the policy's
// locking, staging and G2 placement where the caller leaves them unset. New code names
// cuda_prover and cuda_prover_options (docs/GROTH16.md, "Migrating from the policy spelling").
// Included by groth16/cuda/prover.cuh.
#pragma once

#include <memory>
#include <utility>

#include "cuzk/groth16/cuda/prover.cuh"
#include "cuzk/groth16/policy.hpp"

namespace cuzk::groth16 {

template <class Curve, cuda_prover_policy Policy>
class [[deprecated(
    "name cuda_prover<Curve, Telemetry> with cuda_prover_options{.locking, .stage, .g2_on_gpu}")]] prover<Curve, Policy>
    : public cuda_prover<Curve, policy_telemetry<Policy>> {
public:
    using base = cuda_prover<Curve, policy_telemetry<Policy>>;

    prover(std::shared_ptr<const proving_key<Curve>> pk, gpu_context & gpu,
           std::shared_ptr<const r1cs<typename Curve::fr>> circuit = nullptr, cuda_prover_options opt = {})
        : base(std::move(pk), gpu, std::move(circuit), with_policy(opt)) {}

    /// opt with the policy's choices where it leaves them unset.
    static cuda_prover_options with_policy(cuda_prover_options opt) {
        if (!opt.locking) opt.locking = Policy::locking;
        if (!opt.stage) opt.stage = Policy::stage;
        if (!opt.g2_on_gpu) opt.g2_on_gpu = Policy::g2_on_gpu;
        return opt;
    }
};

}  // namespace cuzk::groth16
