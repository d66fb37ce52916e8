// SPDX-License-Identifier: MIT OR Apache-2.0
// What the engine (engine.hpp) takes and gives: one proof's inputs (partition), the engine's
// options, the generator of a partition's randomisers (partition_rng), progress counters and
// a batch call's outcomes.
#pragma once

#include <cstddef>
#include <concepts>
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "cuzk/core/error.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/randomness.hpp"

namespace cuzk::groth16 {

/// The engine's queue is full and engine_options::on_full is fail.
class engine_queue_full : public error {
public:
    using error::error;
};

/// Randomisers r, s drawn before the proof (secret: wiped when destroyed, and by every copy).
template <class Fr>
struct given_randomisers {
    Fr r, s;
    ~given_randomisers() {
        secure_wipe(r);
        secure_wipe(s);
    }
};

/// One proof's inputs.
template <class Fr>
struct partition {
    std::vector<Fr> z{};  ///< the full assignment (1, public inputs, aux)
    /// a | b | c on the domain when the caller evaluated them (the prover's prove_from_abc, which
    /// checks no constraint); empty: the prover's own circuit evaluates them (prove(z)).
    std::vector<Fr> abc{};
    /// r, s drawn from std::mt19937_64(seed) instead of the OS CSPRNG: reproducible proofs for
    /// tests that compare runs. Such proofs are not zero-knowledge; never set it in production.
    std::optional<uint64_t> insecure_seed{};
    /// r, s drawn by the caller (on its own thread, from its own source: the C API's randomness
    /// callback); they take precedence over insecure_seed and the OS CSPRNG.
    std::optional<given_randomisers<Fr>> randomisers{};

    size_t bytes() const { return (z.size() + abc.size()) * sizeof(Fr); }
    /// bytes() of a partition carrying a, b, c: the most one of this circuit holds (for sizing
    /// engine_options::max_queued_bytes when a, b, c may come from the host).
    static size_t bytes_with_abc(size_t variables, size_t domain_size) {
        return (variables + 3 * domain_size) * sizeof(Fr);
    }
};

struct engine_options {
    unsigned workers_per_slot = 1;
    /// Witness bytes (partition::bytes) queued or being proved, at most. A partition larger than
    /// this on its own is an invalid_argument.
    size_t max_queued_bytes = size_t(1) << 32;
    enum class when_full { wait, fail };
    when_full on_full = when_full::wait;  ///< submit waits for room, or throws engine_queue_full
    /// True for an error after which the slot's device cannot prove any more (engine_cuda.cuh
    /// gives the CUDA one); empty: no error is.
    std::function<bool(std::exception_ptr)> device_lost{};
    /// Called first on each worker thread, with its slot and worker number: per-thread settings
    /// such as OpenMP's thread count. What it throws is ignored.
    std::function<void(size_t slot, unsigned worker)> on_worker_start{};
};

/// Where a partition's r and s come from: the caller's own draw (partition::randomisers), the OS
/// CSPRNG (os_random), or std::mt19937_64 seeded with partition::insecure_seed. One type for all,
/// so that the engine compiles a prover's proving path once (it is a template over the
/// generator); the values are the wrapped generator's, call for call. Given randomisers reach
/// the proof through take_given(), which draw_randomisers (groth16/prover.hpp) asks first.
template <class Fr = void>
class partition_rng {
public:
    using result_type = uint64_t;
    explicit partition_rng(std::optional<uint64_t> insecure_seed = std::nullopt) {
        if (insecure_seed) seeded_.emplace(*insecure_seed);
    }
    template <class F = Fr>
        requires(!std::is_void_v<F>)
    partition_rng(std::optional<uint64_t> insecure_seed,
                  const std::optional<given_randomisers<std::type_identity_t<F>>>& given)
        : partition_rng(insecure_seed) {
        if (given) given_ = *given, has_given_ = true;
    }
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return ~result_type(0); }
    result_type operator()() { return seeded_ ? result_type((*seeded_)()) : os_(); }

    /// Writes the given r and s (once) and returns true; false when none were given.
    template <class F = Fr>
        requires(!std::is_void_v<F> && std::same_as<F, Fr>)
    bool take_given(F& r, F& s) {
        if (!has_given_) return false;
        r = given_.r;
        s = given_.s;
        secure_wipe(given_);
        has_given_ = false;
        return true;
    }

private:
    static_assert(std::mt19937_64::min() == 0 && std::mt19937_64::max() == ~uint64_t(0));
    struct nothing {};
    std::conditional_t<std::is_void_v<Fr>, nothing, given_randomisers<Fr>> given_{};  // wiped by its destructor
    bool has_given_ = false;
    std::optional<std::mt19937_64> seeded_;
    os_random os_;
};

/// Counters, whole engine and per slot.
struct engine_progress {
    struct slot {
        int device;
        size_t in_progress, done, failed;
        bool usable;
        std::string unusable_reason;  ///< the error that took it out of service
    };
    size_t queued = 0, in_progress = 0, done = 0, failed = 0;  ///< failed includes those no slot could take
    size_t queued_bytes = 0;
    /// Per-thread prover states made so far (any_prover::make_state: the CUDA prover's workers);
    /// each is reused by every later partition, so this stays at most the number of workers.
    size_t worker_states = 0;
    std::vector<slot> slots;
};

/// What a batch call gives for each partition: the proof, or its error.
template <class Curve>
struct engine_outcome {
    std::optional<proof<Curve>> value;
    std::exception_ptr error;
    std::string message() const {
        if (!error) return {};
        try {
            std::rethrow_exception(error);
        } catch (const std::exception& e) {
            return e.what();
        } catch (...) {
            return "unknown error";
        }
    }
};

}  // namespace cuzk::groth16
