// SPDX-License-Identifier: MIT OR Apache-2.0
// cuzk-prove's GPU backend (cuzk_prove_gpu.hpp): the CUDA engine over cuda_prover on both curves
// (--staging, --lock and --g2 are its run-time options; chunked staging with G2 on the GPU only)
// and the GPU test setup, for the synthetic mode (the file modes prove through the front door,
// cuzk::service). cuzk-prove's only CUDA TU; with cuzk::instances linked (CUZK_PRECOMPILED) it
// compiles none of the heavy kernels. Nothing here runs without a GPU, so CI may compile its host side unoptimised
// (CUZK_CUDA_HOST_UNOPTIMISED) while cuzk-prove's CPU path, which the interop tests run, stays
// optimised in cuzk-prove.cpp.
#include <cuda_runtime.h>

#include <cstdio>

#include "cuzk/engine/engine_cuda.cuh"
#include "cuzk/groth16/cuda/test_setup.cuh"
#include "cuzk/groth16/curve.hpp"
#include "cuzk_prove_gpu.hpp"

namespace cuzk_prove {

namespace {

/// --lock and --staging: the prover's run-time options.
lock_granularity locking_of(const std::string& name) {
    if (name == "split") return lock_granularity::split;
    if (name == "device") return lock_granularity::device;
    if (name != "none") throw cuzk::invalid_argument("cuzk-prove: unknown lock '" + name + "'");
    return lock_granularity::none;
}
staging staging_of(const gpu_settings& s) {
    if (s.staging == "prestaged") return staging::prestaged;
    if (s.staging == "streamed") return staging::streamed;
    if (s.staging == "chunked") {
        if (!s.g2_on_gpu) throw cuzk::invalid_argument("cuzk-prove: --staging chunked needs --g2 gpu");
        return staging::chunked;
    }
    if (s.staging != "on-demand") throw cuzk::invalid_argument("cuzk-prove: unknown staging '" + s.staging + "'");
    return staging::on_demand;
}

template <class Curve>
built_engine<Curve> make_engine(const gpu_settings& s, std::shared_ptr<const proving_key<Curve>> pk,
                                std::shared_ptr<const r1cs<typename Curve::fr>> circuit) {
    cudaDeviceProp prop{};
    CUZK_CUDA_CHECK(cudaGetDeviceProperties(&prop, s.devices.front()));
    const size_t budget = s.vram_gb > 0 ? size_t(s.vram_gb * 1e9) : size_t(0.9 * double(prop.totalGlobalMem));
    const auto t0 = std::chrono::steady_clock::now();
    // A partition holds z, and a, b, c too when they are evaluated on the host: asked for, or the prover's
    // fallback when the circuit does not fit the budget (known only once the engine is made), so size for both.
    const size_t witness_bytes = partition<typename Curve::fr>::bytes_with_abc(circuit->num_variables,
                                                                               pk->domain_size());
    const staging stage = staging_of(s);
    if (s.precompute) std::printf("  building shifted-base tables on the GPU ...\n"), std::fflush(stdout);
    // Every worker fed and one partition ahead.
    const engine_options eo{.workers_per_slot = s.workers,
                            .max_queued_bytes = (s.devices.size() * s.workers + 1) * witness_bytes};
    auto e = make_cuda_engine<Curve>(pk, s.evaluate_on_gpu ? circuit : nullptr, s.devices, budget, eo,
                                     {.precompute_bases = s.precompute,
                                      .key_chunk_points = s.key_chunk_points,
                                      .proof_layout = s.layout == "compact" ? cuda_prover_options::layout::compact
                                                      : s.layout == "full"  ? cuda_prover_options::layout::full
                                                                            : cuda_prover_options::layout::automatic,
                                      .locking = locking_of(s.locking),
                                      .stage = stage,
                                      .g2_on_gpu = s.g2_on_gpu});
    const auto& p = *e->slot(0).prover.template get<cuda_prover<Curve>>();
    std::printf("  GPU %d: %s, budget %.1f GB per device; key %s, circuit %s (%.2f s)\n", s.devices.front(), prop.name,
                budget / 1e9,
                p.key_resident()            ? "resident"
                : stage == staging::chunked ? "in host memory, streamed into each MSM in chunks"
                                            : "uploaded per proof",
                p.circuit_resident() ? "resident (a, b, c evaluated on the GPU)" : "on the host", seconds_since(t0));
    if (!p.fallback_reason().empty()) std::printf("  note: %s\n", p.fallback_reason().c_str());
    if (!p.circuit_fallback_reason().empty()) std::printf("  note: %s\n", p.circuit_fallback_reason().c_str());
    if (!p.tables_note().empty()) std::printf("  precomputed bases: %s\n", p.tables_note().c_str());
    if (p.compact_proofs())
        std::printf("  compact proofs: two slots of scalars on the GPU (%.1f GB a proof)\n", p.per_proof_bytes() / 1e9);
    std::printf("  outside the budget: %.2f GB (domain tables, a compressed key's indices)\n",
                p.unbudgeted_bytes() / 1e9);
    return {std::move(e), !p.circuit_resident()};
}

}  // namespace

bool gpu_present() {
    int n = 0;
    if (cudaGetDeviceCount(&n) == cudaSuccess && n > 0) return true;
    (void)cudaGetLastError();  // no device: clear the error the query left
    return false;
}

template <class Curve>
proving_key<Curve> test_setup_on_gpu(const r1cs<typename Curve::fr>& system, uint64_t seed,
                                     std::optional<std::pair<density_map, density_map>> densities) {
    return test_setup_insecure_cuda<Curve>(system, seed, std::move(densities));
}

template <class Curve>
built_engine<Curve> make_gpu_engine(const gpu_settings& s, std::shared_ptr<const proving_key<Curve>> pk,
                                    std::shared_ptr<const r1cs<typename Curve::fr>> circuit) {
    if (s.devices.empty()) throw cuzk::invalid_argument("cuzk-prove: no device listed");
    return make_engine<Curve>(s, pk, circuit);
}

using bls = cuzk::bls12_381::curve;
using bn = cuzk::bn254::curve;
template proving_key<bls> test_setup_on_gpu<bls>(const r1cs<bls::fr>&, uint64_t,
                                                 std::optional<std::pair<density_map, density_map>>);
template proving_key<bn> test_setup_on_gpu<bn>(const r1cs<bn::fr>&, uint64_t,
                                               std::optional<std::pair<density_map, density_map>>);
template built_engine<bls> make_gpu_engine<bls>(const gpu_settings&, std::shared_ptr<const proving_key<bls>>,
                                                std::shared_ptr<const r1cs<bls::fr>>);
template built_engine<bn> make_gpu_engine<bn>(const gpu_settings&, std::shared_ptr<const proving_key<bn>>,
                                              std::shared_ptr<const r1cs<bn::fr>>);

}  // namespace cuzk_prove
