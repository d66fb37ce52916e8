// SPDX-License-Identifier: MIT OR Apache-2.0
// A slot's prover behind one call (any_prover), and the slot (engine_slot): how the engine
// (engine.hpp) holds provers of any type, compiled once per curve.
#pragma once

#include <concepts>
#include <memory>
#include <span>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "cuzk/engine/partition.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/stage_timer.hpp"

namespace cuzk::groth16 {

/// What the engine calls on a slot's prover (const, from several workers at once): the CPU and
/// CUDA provers have both.
template <class P, class Curve>
concept engine_prover = requires(const P& p, std::span<const typename Curve::fr> z, std::vector<typename Curve::fr> abc,
                                 partition_rng<typename Curve::fr>& rng, stage_times* times) {
    { p.prove(z, rng, times) } -> std::same_as<proof<Curve>>;
    { p.prove_from_abc(z, std::move(abc), rng, times) } -> std::same_as<proof<Curve>>;
};

/// An engine_prover that proves on a state kept between proofs (P::worker: the CUDA prover's
/// cuda_worker), made by try_make_worker() (null when there is no room for one now).
template <class P, class Curve>
concept engine_worker_prover = engine_prover<P, Curve> &&
    requires(const P& p, typename P::worker& w, std::span<const typename Curve::fr> z,
             std::vector<typename Curve::fr> abc, partition_rng<typename Curve::fr>& rng, stage_times* times) {
    { p.try_make_worker() } -> std::same_as<std::unique_ptr<typename P::worker>>;
    { p.prove(w, z, rng, times) } -> std::same_as<proof<Curve>>;
    { p.prove_from_abc(w, z, std::move(abc), rng, times) } -> std::same_as<proof<Curve>>;
};

/// A shared prover of any type behind one call, "prove this partition, recording its stages":
/// what an engine slot holds. Converts implicitly from std::shared_ptr<P> (or <const P>) for any
/// thread-safe engine_prover P (the CPU and CUDA provers, or a test's own); get<P>() gives the
/// typed prover back (its notes, e.g. key_resident()). For an engine_worker_prover, make_state()
/// gives an opaque P::worker that prove() then runs on. Function pointers and a type tag, no
/// virtual calls: the engine that calls it is one class per curve, and only the conversion is
/// compiled per prover type.
template <class Curve>
class any_prover {
public:
    using fr = typename Curve::fr;

    any_prover() = default;
    /// Implicit, so that a slot is {.device = d, .prover = p}.
    template <engine_prover<Curve> P>
    any_prover(std::shared_ptr<P> p)
        : prover_(std::move(p)), type_(&typeid(P)), prove_(&prove_with<std::remove_const_t<P>>) {
        if constexpr (engine_worker_prover<std::remove_const_t<P>, Curve>)
            make_state_ = &make_state_for<std::remove_const_t<P>>;
    }

    explicit operator bool() const { return prover_ != nullptr; }

    /// True when the prover proves on a state that make_state() makes.
    bool has_state() const { return make_state_ != nullptr; }
    /// A new state for prove() (one thread's at a time; it keeps the prover alive), or null: the
    /// prover keeps none, or its budget has no room for one now.
    std::shared_ptr<void> make_state() const { return make_state_ ? make_state_(prover_) : nullptr; }

    /// Proves p with r, s from partition_rng(p.insecure_seed, p.randomisers): prove(z) with the
    /// prover's own circuit, or prove_from_abc when p carries a, b, c (consumed: a retry has none). On `state`
    /// (from this prover's make_state()) when given, else as the prover does without one.
    proof<Curve> prove(partition<fr>& p, stage_times& times, void* state = nullptr) const {
        return prove_(prover_.get(), p, times, state);
    }

    /// The prover, if it is a P; else null.
    template <class P>
    const P* get() const {
        return prover_ && *type_ == typeid(P) ? static_cast<const P*>(prover_.get()) : nullptr;
    }
    /// The prover's address: slots with the same one share a prover.
    const void* address() const { return prover_.get(); }

private:
    template <class P>
    static proof<Curve> prove_with(const void* prover, partition<fr>& p, stage_times& times, void* state) {
        const P& x = *static_cast<const P*>(prover);
        partition_rng<fr> rng(p.insecure_seed, p.randomisers);
        if constexpr (engine_worker_prover<P, Curve>) {
            if (state) {
                auto& w = *static_cast<typename P::worker*>(state);
                if (p.abc.empty()) return x.prove(w, std::span<const fr>(p.z), rng, &times);
                return x.prove_from_abc(w, std::span<const fr>(p.z), std::move(p.abc), rng, &times);
            }
        }
        if (p.abc.empty()) return x.prove(std::span<const fr>(p.z), rng, &times);
        return x.prove_from_abc(std::span<const fr>(p.z), std::move(p.abc), rng, &times);
    }

    template <class P>
    static std::shared_ptr<void> make_state_for(const std::shared_ptr<const void>& prover) {
        std::shared_ptr<const P> typed = std::static_pointer_cast<const P>(prover);
        std::unique_ptr<typename P::worker> w = typed->try_make_worker();
        if (!w) return nullptr;
        struct holder {
            std::shared_ptr<const P> prover;  // outlives its worker (declared first)
            std::unique_ptr<typename P::worker> worker;
        };
        auto h = std::make_shared<holder>(holder{std::move(typed), std::move(w)});
        return std::shared_ptr<void>(h, h->worker.get());
    }

    std::shared_ptr<const void> prover_{};
    const std::type_info* type_ = nullptr;
    proof<Curve> (*prove_)(const void*, partition<fr>&, stage_times&, void*) = nullptr;
    std::shared_ptr<void> (*make_state_)(const std::shared_ptr<const void>&) = nullptr;
};

/// A device and the prover that proves on it. Slots may share a prover (it is thread-safe):
/// a device listed twice is two slots over one prover, its workers counted twice.
template <class Curve>
struct engine_slot {
    int device = -1;  ///< what progress and the trace call it; -1 for the CPU
    any_prover<Curve> prover{};
};

}  // namespace cuzk::groth16
