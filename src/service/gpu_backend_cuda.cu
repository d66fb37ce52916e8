// SPDX-License-Identifier: MIT OR Apache-2.0
// The front door's GPU backend: engine slots over groth16::cuda_prover<Curve> of a resident
// key, one per device. Its proofs run on the engine's kept workers (the CUDA prover's
// cuda_worker, made once per engine worker while the budget has room). With cuzk::instances
// linked (CUZK_PRECOMPILED) this TU compiles none of the heavy kernels.
#include <cuda_runtime.h>

#include <set>
#include <string>

#include "cuzk/engine/engine_cuda.cuh"
#include "cuzk/service/gpu_backend.hpp"

namespace cuzk::service {

namespace {

/// Split locks (a worker uploads while another computes), the key staged once when the budget
/// holds it beside one proof, G2 on the GPU: the options for many threads on one key
/// (docs/GROTH16.md).
const groth16::cuda_prover_options many_threads_one_key{
    .locking = groth16::lock_granularity::split, .stage = groth16::staging::prestaged, .g2_on_gpu = true};

template <class Curve>
using gpu_prover = groth16::cuda_prover<Curve>;

/// The front door's code for a CUDA error; nullopt for any other.
std::optional<errc> cuda_code(std::exception_ptr e) {
    try {
        std::rethrow_exception(e);
    } catch (const cuda_error& c) {
        return c.code() == cudaErrorMemoryAllocation ? errc::out_of_memory : errc::gpu;
    } catch (...) {
        return std::nullopt;
    }
}

[[noreturn]] void rethrow_as_error(const char* what_failed) {
    const std::exception_ptr e = std::current_exception();
    try {
        throw;
    } catch (const error&) {
        throw;
    } catch (const std::exception& x) {
        if (const auto code = cuda_code(e)) throw error(*code, std::string(what_failed) + ": " + x.what());
        throw;
    }
}

/// The budget of every listed device (its memory's 90% unless given: a property of the device,
/// not a query of what is free; the budget is ours to account, gpu/vram_budget.hpp).
size_t checked_budget(const prover_options& o) {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        (void)cudaGetLastError();
        throw error(errc::no_gpu, "backend GPU: no CUDA device is present");
    }
    if (o.devices.empty()) throw error(errc::invalid_argument, "backend GPU: no device listed");
    size_t smallest = 0;
    for (int d : o.devices) {
        if (d < 0 || d >= n)
            throw error(errc::invalid_argument,
                        "gpu_device " + std::to_string(d) + " does not exist (" + std::to_string(n) + " devices)");
        cudaDeviceProp prop{};
        CUZK_CUDA_CHECK(cudaGetDeviceProperties(&prop, d));
        const size_t b = size_t(0.9 * double(prop.totalGlobalMem));
        smallest = smallest ? std::min(smallest, b) : b;
    }
    return o.vram_budget_bytes ? o.vram_budget_bytes : smallest;
}

}  // namespace

int gpu_device_count() {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return n;
}

bool gpu_backend_compiled() { return true; }

template <class Curve>
gpu_backend<Curve> make_gpu_backend(std::shared_ptr<const groth16::proving_key<Curve>> pk, const prover_options& o) {
    try {
        const size_t budget = checked_budget(o);
        gpu_backend<Curve> b;
        b.slots = groth16::make_cuda_slots<Curve>(pk, nullptr, o.devices, budget, many_threads_one_key);
        std::set<const void*> seen;
        for (const auto& s : b.slots) {
            if (!seen.insert(s.prover.address()).second) continue;
            const auto& p = *s.prover.template get<gpu_prover<Curve>>();
            // One proof must fit beside the resident part, else every proof would fail: say so now.
            const size_t need = p.per_proof_bytes(), left = budget - p.resident_budget_bytes();
            if (need > left)
                throw error(errc::out_of_memory, "one proof needs " + std::to_string(need) +
                                                     " bytes of VRAM, the budget of " + std::to_string(budget) +
                                                     " bytes leaves " + std::to_string(left));
        }
        const auto& first = *b.slots.front().prover.template get<gpu_prover<Curve>>();
        b.device_lost = groth16::cuda_device_lost;
        b.classify = cuda_code;
        b.key_resident = first.key_resident();
        b.vram_budget_bytes = budget;
        b.device_key_bytes = first.key_resident() ? groth16::detail::device_key<Curve>::bytes_for(first.key()) : 0;
        b.device_proof_bytes = first.per_proof_bytes();
        b.note = first.fallback_reason();
        return b;
    } catch (...) {
        rethrow_as_error("GPU prover set-up");
    }
}

template gpu_backend<bn254::curve> make_gpu_backend(std::shared_ptr<const groth16::proving_key<bn254::curve>>,
                                                    const prover_options&);
template gpu_backend<bls12_381::curve> make_gpu_backend(std::shared_ptr<const groth16::proving_key<bls12_381::curve>>,
                                                        const prover_options&);

}  // namespace cuzk::service
