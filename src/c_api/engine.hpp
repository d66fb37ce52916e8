// Internal to libcuzk_prover: what the C entry points (prover_c.cpp) and the GPU backend
// (gpu_cuda.cu, or gpu_none.cpp in a build without CUDA) share. Not installed.
//
// The GPU backend lives in its own translation unit so that the CPU-only build compiles no CUDA:
// prover_c.cpp sees only the interface below, and the CUDA types stay in gpu_cuda.cu.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/c/cuzk_prover.h"
#include "cuzk/groth16/curve.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/randomness.hpp"

namespace cuzk::c_api {

/// An error with its C error code (CUZK_PROVER_*): what every layer below the entry points
/// throws when the generic mapping of cuzk's exception types would give the wrong code.
class failure : public std::runtime_error {
public:
    failure(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
    int code() const noexcept { return code_; }

private:
    int code_;
};

/// The randomisers' source as a UniformRandomBitGenerator: the caller's callback when one was
/// given, else the operating system's CSPRNG.
class random_source {
public:
    using result_type = uint64_t;
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return ~result_type(0); }

    random_source(cuzk_random_fn fn, void* ctx) : fn_(fn), ctx_(ctx) {}

    result_type operator()() {
        if (!fn_) return os_();
        unsigned char bytes[sizeof(result_type)];
        if (fn_(ctx_, bytes, sizeof bytes) != 0)
            throw failure(CUZK_PROVER_ERROR_RANDOMNESS, "the randomness callback reported a failure");
        result_type v;
        std::memcpy(&v, bytes, sizeof v);  // little-endian bytes as the integer (the platform's order)
        return v;
    }

private:
    cuzk_random_fn fn_;
    void* ctx_;
    groth16::os_random os_;
};

/// What the resident prover asks of the GPU backend.
struct gpu_settings {
    int device = 0;
    size_t vram_budget_bytes = 0;  ///< 0: 90% of the device's memory
    /// Workers (one proof's streams, buffers and VRAM share, kept between proofs) at most; 0: as
    /// many as proofs run at once while the budget has room (cuzk_prover_options::max_concurrent_proofs
    /// bounds those).
    size_t max_workers = 0;
};

/// A GPU prover over a resident key (cuda_policy with split locks, key prestaged when it fits),
/// its proofs run on a pool of workers kept between proofs and shared by the calling threads.
template <class Curve>
class gpu_prover {
public:
    using fr = typename Curve::fr;
    virtual ~gpu_prover() = default;
    /// Proves from a | b | c on the domain (consumed). Thread-safe.
    virtual groth16::proof<Curve> prove_from_abc(std::span<const fr> z, std::vector<fr> abc,
                                                 random_source& rng) const = 0;
    virtual bool key_resident() const = 0;
    virtual size_t vram_budget_bytes() const = 0;
    virtual size_t device_key_bytes() const = 0;
    virtual size_t device_proof_bytes() const = 0;
    /// Why the key is not resident ("" if it is).
    virtual std::string note() const = 0;
};

/// CUDA devices visible now; 0 in a build without the GPU backend or when the runtime has none.
int gpu_device_count();

/// True when the GPU backend is compiled in.
bool gpu_backend_compiled();

/// A GPU prover for pk on settings.device; throws failure (CUZK_PROVER_ERROR_GPU, _NO_GPU) when
/// it cannot be made. Defined for bn254::curve and bls12_381::curve.
template <class Curve>
std::unique_ptr<gpu_prover<Curve>> make_gpu_prover(std::shared_ptr<const groth16::proving_key<Curve>> pk,
                                                   const gpu_settings& settings);

}  // namespace cuzk::c_api
