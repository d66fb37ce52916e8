// groth16::engine<Curve>: proves a stream of partitions on every slot it is given (a slot: a
// device and the prover that uses it), N workers per slot, and gives back each partition's proof
// or its own error.
//
//   auto p = std::make_shared<const prover<C>>(pk, circuit);          // CPU; CUDA: engine_cuda.cuh
//   engine<C> e({{.device = -1, .prover = p}}, {.workers_per_slot = 2});
//   std::future<proof<C>> f = e.submit({.z = witness});               // waits while the queue is full
//   proof<C> pi = f.get();                                            // or that partition's error
//
// Workers take partitions from one queue, so a free worker on any slot takes the next one. The
// proving steps are the prover's own (prove(z), or prove_from_abc when the partition carries a,
// b, c): the engine only schedules, bounds memory and records. It holds each slot's prover
// type-erased (any_prover), so the engine is compiled once per curve, whatever the provers' types
// and policies; the prover's own proving path is compiled once per prover type, for one random
// generator type (partition_rng). Host memory: the witness bytes queued or being proved stay within
// engine_options::max_queued_bytes (submit waits or throws engine_queue_full); VRAM is the
// provers' gpu_context budgets. A partition that fails (a violated constraint, a malformed witness)
// fails alone. An error that engine_options::device_lost says leaves the device unusable (a sticky
// CUDA error) takes every slot on that device out of service; the partition it hit is proved again
// on another slot (once) and the queue goes to the remaining slots; with none left, what is queued
// fails with that error. Every proved partition's stages are recorded (trace.hpp) until
// take_trace() collects them. A prover that keeps per-thread state between proofs (the CUDA
// prover's cuda_worker: streams, buffers, a VRAM share) gets it made once and reused: the workers
// over one prover share a pool of such states, made as a worker first needs one while the
// prover's budget has room, and kept until the engine is destroyed (engine_progress::worker_states).
#pragma once

#include <chrono>
#include <concepts>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "cuzk/core/error.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/randomness.hpp"
#include "cuzk/groth16/stage_timer.hpp"
#include "cuzk/engine/trace.hpp"

namespace cuzk::groth16 {

/// The engine's queue is full and engine_options::on_full is fail.
class engine_queue_full : public error {
public:
    using error::error;
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
};

/// Where a partition's r and s come from: the OS CSPRNG (os_random), or std::mt19937_64 seeded
/// with partition::insecure_seed. One type for both, so that the engine compiles a prover's
/// proving path once (it is a template over the generator); the values are the wrapped
/// generator's, call for call.
class partition_rng {
public:
    using result_type = uint64_t;
    explicit partition_rng(std::optional<uint64_t> insecure_seed = std::nullopt) {
        if (insecure_seed) seeded_.emplace(*insecure_seed);
    }
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return ~result_type(0); }
    result_type operator()() { return seeded_ ? result_type((*seeded_)()) : os_(); }

private:
    static_assert(std::mt19937_64::min() == 0 && std::mt19937_64::max() == ~uint64_t(0));
    std::optional<std::mt19937_64> seeded_;
    os_random os_;
};

/// What the engine calls on a slot's prover (const, from several workers at once): the CPU and
/// CUDA provers have both.
template <class P, class Curve>
concept engine_prover = requires(const P& p, std::span<const typename Curve::fr> z, std::vector<typename Curve::fr> abc,
                                 partition_rng& rng, stage_times* times) {
    { p.prove(z, rng, times) } -> std::same_as<proof<Curve>>;
    { p.prove_from_abc(z, std::move(abc), rng, times) } -> std::same_as<proof<Curve>>;
};

/// An engine_prover that proves on a state kept between proofs (P::worker: the CUDA prover's
/// cuda_worker), made by try_make_worker() (null when there is no room for one now).
template <class P, class Curve>
concept engine_worker_prover = engine_prover<P, Curve> &&
    requires(const P& p, typename P::worker& w, std::span<const typename Curve::fr> z,
             std::vector<typename Curve::fr> abc, partition_rng& rng, stage_times* times) {
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

    /// Proves p with r, s from partition_rng(p.insecure_seed): prove(z) with the prover's own
    /// circuit, or prove_from_abc when p carries a, b, c (consumed: a retry has none). On `state`
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
        partition_rng rng(p.insecure_seed);
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

template <class Curve>
class engine {
public:
    using fr = typename Curve::fr;

    /// Starts options.workers_per_slot threads per slot.
    engine(std::vector<engine_slot<Curve>> slots, engine_options options = {})
        : options_(std::move(options)), epoch_(std::chrono::steady_clock::now()) {
        if (slots.empty()) throw invalid_argument("engine: no slots");
        if (options_.workers_per_slot == 0) throw invalid_argument("engine: workers_per_slot must be at least 1");
        for (auto& s : slots) {
            if (!s.prover) throw invalid_argument("engine: a slot without a prover");
            slots_.push_back({std::move(s), true, {}, 0, 0, 0});
        }
        for (size_t s = 0; s < slots_.size(); ++s)
            for (unsigned w = 0; w < options_.workers_per_slot; ++w)
                threads_.emplace_back([this, s, w] { work(s, w); });
    }

    /// Proves what is queued, then stops the workers.
    ~engine() {
        {
            std::lock_guard lock(m_);
            closing_ = true;
        }
        work_cv_.notify_all();
        for (auto& t : threads_) t.join();
    }
    engine(const engine&) = delete;
    engine& operator=(const engine&) = delete;

    /// Queues a partition; its future gives the proof or rethrows the partition's error. Waits
    /// while the queue is full (or throws engine_queue_full, per engine_options::on_full).
    /// Thread-safe: producers on several threads may submit.
    std::future<proof<Curve>> submit(partition<fr> p) {
        const size_t bytes = p.bytes();
        if (bytes > options_.max_queued_bytes)
            throw invalid_argument("engine: a partition of " + std::to_string(bytes) +
                                   " bytes exceeds max_queued_bytes (" + std::to_string(options_.max_queued_bytes) +
                                   ")");
        job j{std::move(p), {}, bytes, 0, false};
        std::future<proof<Curve>> f = j.result.get_future();
        std::unique_lock lock(m_);
        auto fits = [&] { return queued_bytes_ + bytes <= options_.max_queued_bytes; };
        if (!fits()) {
            if (options_.on_full == engine_options::when_full::fail)
                throw engine_queue_full("engine: the queue holds " + std::to_string(queued_bytes_) + " of " +
                                        std::to_string(options_.max_queued_bytes) + " witness bytes; a partition of " +
                                        std::to_string(bytes) + " does not fit");
            space_cv_.wait(lock, [&] { return fits() || usable_slots() == 0; });
        }
        if (usable_slots() == 0) throw error("engine: no usable slot left (" + last_loss_ + ")");
        j.index = next_index_++;
        queued_bytes_ += bytes;
        queue_.push_back(std::move(j));
        lock.unlock();
        work_cv_.notify_one();
        return f;
    }

    /// Submits every partition (waiting for room) and waits for all of them.
    std::vector<engine_outcome<Curve>> prove_all(std::vector<partition<fr>> parts) {
        size_t k = 0;
        return prove_stream([&]() -> std::optional<partition<fr>> {
            if (k == parts.size()) return std::nullopt;
            return std::move(parts[k++]);
        });
    }

    /// Calls next() on this thread until it returns nullopt, submitting each partition as it
    /// comes (so producing partition k + 1 overlaps proving k), then waits for all of them.
    /// The queue limit bounds how far production runs ahead.
    template <class Next>
    std::vector<engine_outcome<Curve>> prove_stream(Next&& next) {
        std::vector<std::future<proof<Curve>>> futures;
        std::vector<engine_outcome<Curve>> out;
        while (std::optional<partition<fr>> p = next()) {
            try {
                futures.push_back(submit(std::move(*p)));
            } catch (...) {  // refused (too large, no slot left): its own error, in order
                std::promise<proof<Curve>> refused;
                refused.set_exception(std::current_exception());
                futures.push_back(refused.get_future());
            }
        }
        out.reserve(futures.size());
        for (auto& f : futures) {
            engine_outcome<Curve> o;
            try {
                o.value = f.get();
            } catch (...) {
                o.error = std::current_exception();
            }
            out.push_back(std::move(o));
        }
        return out;
    }

    engine_progress progress() const {
        std::lock_guard lock(m_);
        engine_progress p;
        p.queued = queue_.size();
        p.failed = failed_unassigned_;
        p.queued_bytes = queued_bytes_;
        for (const auto& [prover, pool] : states_) p.worker_states += pool.made;
        for (const auto& s : slots_) {
            p.slots.push_back({s.slot.device, s.in_progress, s.done, s.failed, s.usable, s.unusable_reason});
            p.in_progress += s.in_progress;
            p.done += s.done;
            p.failed += s.failed;
        }
        return p;
    }

    /// The slots, in the order given (for their provers' notes: slot(k).prover.get<P>()).
    const engine_slot<Curve>& slot(size_t k) const { return slots_.at(k).slot; }
    size_t slots() const { return slots_.size(); }

    /// The traces recorded since the last call (moved out: a long-running engine stays bounded).
    std::vector<partition_trace> take_trace() {
        std::lock_guard lock(m_);
        return std::exchange(trace_, {});
    }

private:
    struct job {
        partition<fr> p;
        std::promise<proof<Curve>> result;
        size_t bytes;
        size_t index;
        bool retried;
    };
    /// The states (any_prover::make_state) made for one prover, shared by the workers of every
    /// slot over it: each worker takes one for a partition and gives it back after.
    struct state_pool {
        std::vector<std::shared_ptr<void>> free;
        size_t made = 0;
        bool making = false;
    };
    struct slot_state {
        engine_slot<Curve> slot;
        bool usable;
        std::string unusable_reason;
        size_t in_progress, done, failed;
    };

    size_t usable_slots() const {
        size_t n = 0;
        for (const auto& s : slots_) n += s.usable;
        return n;
    }

    double ms_since_epoch(std::chrono::steady_clock::time_point t) const {
        return std::chrono::duration<double, std::milli>(t - epoch_).count();
    }

    void work(size_t s, unsigned w) {
        std::unique_lock lock(m_);
        for (;;) {
            work_cv_.wait(lock, [&] { return !slots_[s].usable || !queue_.empty() || closing_; });
            if (!slots_[s].usable || queue_.empty()) return;
            job j = std::move(queue_.front());
            queue_.pop_front();
            ++slots_[s].in_progress;
            const any_prover<Curve>& prover = slots_[s].slot.prover;
            const bool had_abc = !j.p.abc.empty();
            std::shared_ptr<void> state = take_state(prover, lock);
            lock.unlock();

            stage_times times;
            std::optional<proof<Curve>> pi;
            std::exception_ptr err;
            const auto t0 = std::chrono::steady_clock::now();
            try {
                pi = prover.prove(j.p, times, state.get());
            } catch (...) {
                err = std::current_exception();
            }
            const auto t1 = std::chrono::steady_clock::now();
            const bool lost = err && options_.device_lost && options_.device_lost(err);

            lock.lock();
            give_back_state(prover, std::move(state));
            --slots_[s].in_progress;
            record(j, s, w, t0, t1, times, err);
            if (lost) {
                take_out_of_service(slots_[s].slot.device, engine_outcome<Curve>{{}, err}.message());
                // Proved again elsewhere once, if its inputs are still whole; the witness stays counted.
                if (!j.retried && !had_abc && usable_slots() > 0) {
                    j.retried = true;
                    queue_.push_front(std::move(j));
                    work_cv_.notify_all();
                    continue;
                }
            }
            err ? ++slots_[s].failed : ++slots_[s].done;
            queued_bytes_ -= j.bytes;
            space_cv_.notify_all();
            lock.unlock();
            if (err) j.result.set_exception(err);
            else j.result.set_value(std::move(*pi));
            lock.lock();
        }
    }

    /// A state for a partition on `prover`: a free one of its pool, else a new one while the
    /// prover has room, else (some exist) the next one given back; null for a prover without
    /// states, or when not even one fits (the prover then proves without, as it does alone). One
    /// thread makes a prover's state at a time, so that two first partitions cannot both miss
    /// the room for one. Under m_ (held by `lock`; released while a state is made).
    std::shared_ptr<void> take_state(const any_prover<Curve>& prover, std::unique_lock<std::mutex>& lock) {
        if (!prover.has_state()) return nullptr;
        state_pool& pool = states_[prover.address()];
        for (;;) {
            if (!pool.free.empty()) {
                std::shared_ptr<void> st = std::move(pool.free.back());
                pool.free.pop_back();
                return st;
            }
            if (pool.making) {
                state_cv_.wait(lock, [&] { return !pool.making || !pool.free.empty(); });
                continue;
            }
            pool.making = true;
            lock.unlock();
            std::shared_ptr<void> made;
            try {
                made = prover.make_state();
            } catch (...) {  // a failure to make one (a CUDA error): the proof without one meets it too
            }
            lock.lock();
            pool.making = false;
            state_cv_.notify_all();
            if (made) {
                ++pool.made;
                return made;
            }
            if (pool.made == 0) return nullptr;
            state_cv_.wait(lock, [&] { return !pool.free.empty(); });
        }
    }

    /// Under m_.
    void give_back_state(const any_prover<Curve>& prover, std::shared_ptr<void> state) {
        if (!state) return;
        states_[prover.address()].free.push_back(std::move(state));
        state_cv_.notify_all();
    }

    /// Every slot on `device` stops taking work; with none left, the queue fails. Under m_.
    void take_out_of_service(int device, const std::string& why) {
        for (auto& x : slots_)
            if (x.slot.device == device && x.usable) x.usable = false, x.unusable_reason = why;
        last_loss_ = "device " + std::to_string(device) + ": " + why;
        work_cv_.notify_all();
        space_cv_.notify_all();
        if (usable_slots() > 0) return;
        const auto gone = std::make_exception_ptr(error("engine: no usable slot left (" + last_loss_ + ")"));
        for (auto& q : queue_) {
            queued_bytes_ -= q.bytes;
            ++failed_unassigned_;
            q.result.set_exception(gone);
        }
        queue_.clear();
    }

    /// Under m_.
    void record(const job& j, size_t s, unsigned w, std::chrono::steady_clock::time_point t0,
                std::chrono::steady_clock::time_point t1, const stage_times& times, const std::exception_ptr& err) {
        partition_trace t;
        t.index = j.index;
        t.slot = s;
        t.device = slots_[s].slot.device;
        t.worker = w;
        t.start_ms = ms_since_epoch(t0);
        t.end_ms = ms_since_epoch(t1);
        t.ok = !err;
        if (err) t.error = engine_outcome<Curve>{{}, err}.message();
        const double shift = times.stages.empty() ? 0 : ms_since_epoch(times.origin);
        t.stages = times.stages;
        for (auto& st : t.stages) {
            st.start_ms += shift, st.end_ms += shift;
            if (st.on_gpu()) st.gpu_start_ms += shift, st.gpu_end_ms += shift;
        }
        trace_.push_back(std::move(t));
    }

    engine_options options_;
    std::chrono::steady_clock::time_point epoch_;
    mutable std::mutex m_;
    std::condition_variable work_cv_, space_cv_, state_cv_;
    std::deque<job> queue_;
    std::vector<slot_state> slots_;
    size_t queued_bytes_ = 0, next_index_ = 0, failed_unassigned_ = 0;
    std::string last_loss_;
    bool closing_ = false;
    std::vector<partition_trace> trace_;
    std::map<const void*, state_pool> states_;  // by prover address; each state keeps its prover alive
    std::vector<std::thread> threads_;          // last: started once everything above exists
};

}  // namespace cuzk::groth16
