// SPDX-License-Identifier: MIT OR Apache-2.0
// cuzk-prove's GPU backend: the only part of cuzk-prove that nvcc compiles (cuzk_prove_gpu.cu,
// built when CUDA is enabled; examples/CMakeLists.txt then defines CUZK_PROVE_GPU). The rest of
// cuzk-prove (options, the CPU prover, verification) is plain C++ and gets the synthetic mode's
// GPU engine type-erased (groth16::engine<C>): the CUDA prover of each of the 2 curves is
// compiled in that one TU, and the CPU path once, by the host compiler, at the
// host build's optimisation level. A curve added to cuzk-prove's --curve dispatch needs its
// explicit instantiations at the end of cuzk_prove_gpu.cu.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/groth16/density.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/r1cs.hpp"

namespace cuzk_prove {

using namespace cuzk::groth16;

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// The GPU engine's settings: cuzk-prove's --lock, --staging, --g2, --evaluate, --precompute,
/// --workers, --devices and --vram-gb.
struct gpu_settings {
    std::string locking = "split";      ///< split | device | none
    std::string staging = "prestaged";  ///< prestaged | streamed | on-demand | chunked
    bool g2_on_gpu = true;
    bool evaluate_on_gpu = true;                ///< keep the circuit resident and evaluate a, b, c there
    bool precompute = false;                    ///< shifted-base tables of the resident key
    size_t key_chunk_points = size_t(1) << 22;  ///< bases per chunk under staging chunked
    std::string layout = "auto";                ///< a chunked proof's device scalars: auto, full or compact
    unsigned workers = 1;                       ///< per slot
    std::vector<int> devices{0};
    double vram_gb = 0;  ///< per device; 0: 90% of the first listed device's memory
};

/// What make_gpu_engine built.
template <class Curve>
struct built_engine {
    std::unique_ptr<cuzk::groth16::engine<Curve>> engine;
    bool evaluate_on_host = false;  ///< the circuit is not resident: partitions must carry a, b, c
};

#if defined(CUZK_PROVE_GPU)
/// True if a CUDA device is present.
bool gpu_present();

/// test_setup_insecure with its group multiplications on the GPU (the same key, bit for bit).
template <class Curve>
proving_key<Curve> test_setup_on_gpu(const r1cs<typename Curve::fr>& system, uint64_t seed,
                                     std::optional<std::pair<density_map, density_map>> densities = {});

/// An engine over s.devices with the cuda_prover options that s names (one prover per distinct device,
/// s.workers per slot, room for one partition ahead of every worker); the circuit stays resident
/// when s.evaluate_on_gpu and the budget holds it. Prints the first device, the budget and the
/// prover's notes. `circuit` must outlive the engine.
template <class Curve>
built_engine<Curve> make_gpu_engine(const gpu_settings& s, std::shared_ptr<const proving_key<Curve>> pk,
                                    std::shared_ptr<const r1cs<typename Curve::fr>> circuit);

#else
inline bool gpu_present() { return false; }
#endif

}  // namespace cuzk_prove
