// SPDX-License-Identifier: MIT OR Apache-2.0
// The engine on GPUs: one CUDA prover per device of a device list, and the test that tells a
// lost device (a sticky CUDA error) from a failed partition.
//
//   auto e = make_cuda_engine<C>(pk, circuit, {0, 1}, 60ull << 30, {.workers_per_slot = 2},
//                                {.stage = staging::prestaged});
//   std::future<proof<C>> f = e->submit({.z = witness});
//   const auto* p = e->slot(0).prover.get<cuda_prover<C>>();   // its notes: key_resident(), ...
//
// A device listed twice ({0, 0}) is two slots over one prover (one resident key, one budget).
// The engine is groth16::engine<C> whatever the options (the slots hold the provers type-erased);
// its worker threads prove on cuda_workers made once from their prover and reused (engine.hpp),
// each holding one proof's share of its device's budget for the engine's life.
#pragma once

#include <cuda_runtime.h>

#include <map>
#include <memory>
#include <vector>

#include "cuzk/engine/engine.hpp"
#include "cuzk/gpu/cuda_error.hpp"
#include "cuzk/groth16/cuda/prover.cuh"

namespace cuzk::groth16 {

/// True for the CUDA errors that corrupt the context: every later call on that device fails
/// with them too (CUDA Runtime API, cudaError_t: "the process must be terminated and
/// relaunched"), or the device is gone.
inline bool is_sticky_cuda_error(cudaError_t e) {
    switch (e) {
        case cudaErrorIllegalAddress:
        case cudaErrorLaunchFailure:
        case cudaErrorHardwareStackError:
        case cudaErrorIllegalInstruction:
        case cudaErrorMisalignedAddress:
        case cudaErrorInvalidAddressSpace:
        case cudaErrorInvalidPc:
        case cudaErrorAssert:
        case cudaErrorLaunchTimeout:
        case cudaErrorECCUncorrectable:
        case cudaErrorContextIsDestroyed:
        case cudaErrorDevicesUnavailable:
        case cudaErrorNoDevice: return true;
        default: return false;
    }
}

/// engine_options::device_lost for CUDA provers: a cuda_error with a sticky code.
inline bool cuda_device_lost(std::exception_ptr e) {
    try {
        std::rethrow_exception(e);
    } catch (const cuda_error& c) {
        return is_sticky_cuda_error(c.code());
    } catch (...) {
        return false;
    }
}

namespace detail {
/// The prover type of a slot: cuda_prover<Curve, T> for a telemetry sink T, or the deprecated
/// policy spelling's prover<Curve, P> for a policy P.
template <class Curve, class T>
struct slot_prover {
    using type = cuda_prover<Curve, T>;
};
// Naming the deprecated type here is the library's, not a use by the caller: no warning for it.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#ifdef __NVCC__
#pragma nv_diag_suppress 1215
#pragma nv_diag_suppress 1444
#endif
template <class Curve, cuda_prover_policy P>
struct slot_prover<Curve, P> {
    using type = prover<Curve, P>;
};
#ifdef __NVCC__
#pragma nv_diag_default 1215
#pragma nv_diag_default 1444
#endif
#pragma GCC diagnostic pop
}  // namespace detail

/// One slot per entry of `devices` over one cuda_prover<Curve, Telemetry> per distinct device (its
/// own gpu_context with `vram_budget_per_device`), built in list order; with a circuit it stays
/// resident beside the key where the budget holds it (prove(z)). slot(k).prover.get<
/// cuda_prover<Curve, Telemetry>>() gives a slot's prover. What make_cuda_engine and the front
/// door's GPU backend (src/service) both build on. A policy type in Telemetry's place (the
/// deprecated spelling) gives prover<Curve, Policy> slots.
template <class Curve, class Telemetry = no_telemetry>
std::vector<engine_slot<Curve>> make_cuda_slots(std::shared_ptr<const proving_key<Curve>> pk,
                                                std::shared_ptr<const r1cs<typename Curve::fr>> circuit,
                                                const std::vector<int>& devices, size_t vram_budget_per_device,
                                                cuda_prover_options prover_options = {}) {
    using P = typename detail::slot_prover<Curve, Telemetry>::type;
    // The context must outlive its prover: both in one allocation, the slot points at the prover.
    struct on_device {
        gpu_context gpu;
        P prover;
        on_device(int d, size_t budget, const std::shared_ptr<const proving_key<Curve>>& k,
                  const std::shared_ptr<const r1cs<typename Curve::fr>>& c, cuda_prover_options o)
            : gpu(d, budget), prover(k, gpu, c, o) {}
    };
    std::map<int, std::shared_ptr<const P>> provers;
    std::vector<engine_slot<Curve>> slots;
    for (int d : devices) {
        auto& p = provers[d];
        if (!p) {
            auto owner = std::make_shared<on_device>(d, vram_budget_per_device, pk, circuit, prover_options);
            p = std::shared_ptr<const P>(owner, &owner->prover);
        }
        slots.push_back({d, p});
    }
    return slots;
}

/// An engine over make_cuda_slots(...). Sets options.device_lost to cuda_device_lost unless the
/// caller set one.
template <class Curve, class Telemetry = no_telemetry>
std::unique_ptr<engine<Curve>> make_cuda_engine(std::shared_ptr<const proving_key<Curve>> pk,
                                                std::shared_ptr<const r1cs<typename Curve::fr>> circuit,
                                                const std::vector<int>& devices, size_t vram_budget_per_device,
                                                engine_options options = {}, cuda_prover_options prover_options = {}) {
    auto slots = make_cuda_slots<Curve, Telemetry>(std::move(pk), std::move(circuit), devices, vram_budget_per_device,
                                                   prover_options);
    if (!options.device_lost) options.device_lost = cuda_device_lost;
    return std::make_unique<engine<Curve>>(std::move(slots), std::move(options));
}

}  // namespace cuzk::groth16
