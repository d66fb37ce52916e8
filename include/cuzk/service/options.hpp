// SPDX-License-Identifier: MIT OR Apache-2.0
// The front door's vocabulary: where and how a resident prover proves (prover_options), its
// error codes (errc, error), what one proof gives (proof_texts) and what a prover reports about
// itself (prover_info). Plain C++: no CUDA, no C header; the C API (src/c_api) maps these onto
// its own codes and structs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "cuzk/core/error.hpp"

namespace cuzk::service {

enum class backend { automatic, cpu, gpu };

/// What went wrong, one code per thing a caller can act on.
enum class errc {
    invalid_argument,  ///< an option or argument out of range
    invalid_zkey,      ///< the key is malformed
    invalid_witness,   ///< the witness is malformed
    witness_length,    ///< the witness is well formed but of another circuit (its length)
    curve_mismatch,    ///< the witness is for the other curve
    verify_failed,     ///< the proof does not verify: the witness does not satisfy the circuit
    no_gpu,            ///< the GPU was asked for, and there is no GPU backend or no device
    io,                ///< a file cannot be opened or read
    gpu,               ///< a CUDA call failed
    out_of_memory,     ///< host memory, or the VRAM budget
    randomness,        ///< the randomness source failed
};

class error : public cuzk::error {
public:
    error(errc code, const std::string& message) : cuzk::error(message), code_(code) {}
    errc code() const noexcept { return code_; }

private:
    errc code_;
};

struct prover_options {
    backend where = backend::automatic;  ///< automatic: the GPU when one is present and built
    bool verify = true;                  ///< pairing check of every proof before it is returned
    unsigned threads = 0;                ///< OpenMP threads per proof, on the caller and the workers (0: all)
    unsigned max_in_flight = 0;          ///< proofs read, queued or proving at once (0: no limit)
    /// Engine workers per device. 0: on the GPU max_in_flight up to 16 (or 2: one uploads while one
    /// computes); on the CPU one, since a proof already uses every core, or as many as `threads`
    /// leaves cores for (capped by max_in_flight) when threads is set.
    unsigned workers_per_device = 0;
    std::vector<int> devices{0};  ///< GPU devices, one engine slot each
    size_t vram_budget_bytes = 0;  ///< per device (0: 90% of its memory)
};

/// proof.json and public.json of one proof, as snarkjs writes them.
struct proof_texts {
    std::string proof, pub;
};

/// Fills its span with random bytes for r and s, on the thread that calls prove() or submit();
/// throws error(errc::randomness) when it cannot. Empty: the operating system's CSPRNG.
using random_bytes = std::function<void(std::span<unsigned char>)>;

struct prover_info {
    std::string curve;         ///< "BN254" or "BLS12-381"
    std::string snarkjs_name;  ///< "bn128" or "bls12381"
    bool bn254 = false;
    backend in_use = backend::cpu;  ///< cpu or gpu
    bool verify = true;
    unsigned threads = 0, max_in_flight = 0, workers = 0;
    uint32_t n_vars = 0, n_public = 0, domain_size = 0;
    unsigned long long proof_json_max_bytes = 0, public_json_max_bytes = 0;  ///< with the NUL
    size_t host_key_bytes = 0, host_proof_bytes = 0;
    int gpu_device = -1;  ///< -1 on the CPU
    bool key_resident_on_gpu = false;
    size_t vram_budget_bytes = 0, device_key_bytes = 0, device_proof_bytes = 0;
    std::string note;  ///< why the GPU is not used, or why the key is not resident; "" if neither
};

}  // namespace cuzk::service
