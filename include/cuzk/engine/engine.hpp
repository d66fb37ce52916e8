// SPDX-License-Identifier: MIT OR Apache-2.0
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
// over one prover share a pool of such states (state_pools.hpp), made as a worker first needs one
// while the prover's budget has room, and kept until the engine is destroyed.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cuzk/core/error.hpp"
#include "cuzk/engine/any_prover.hpp"
#include "cuzk/engine/partition.hpp"
#include "cuzk/engine/state_pools.hpp"
#include "cuzk/engine/trace.hpp"
#include "cuzk/groth16/stage_timer.hpp"

namespace cuzk::groth16 {

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
        p.worker_states = states_.made();
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
        if (options_.on_worker_start) try {
                options_.on_worker_start(s, w);
            } catch (...) {
            }
        std::unique_lock lock(m_);
        for (;;) {
            work_cv_.wait(lock, [&] { return !slots_[s].usable || !queue_.empty() || closing_; });
            if (!slots_[s].usable || queue_.empty()) return;
            job j = std::move(queue_.front());
            queue_.pop_front();
            ++slots_[s].in_progress;
            const any_prover<Curve>& prover = slots_[s].slot.prover;
            const bool had_abc = !j.p.abc.empty();
            std::shared_ptr<void> state = states_.take(prover, lock);
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
            states_.give_back(prover, std::move(state));
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
        t.host_waits = times.host_waits;
        t.stalls = times.stalls;
        for (auto& st : t.stages) {
            st.start_ms += shift, st.end_ms += shift;
            if (st.on_gpu()) st.gpu_start_ms += shift, st.gpu_end_ms += shift;
        }
        trace_.push_back(std::move(t));
    }

    engine_options options_;
    std::chrono::steady_clock::time_point epoch_;
    mutable std::mutex m_;
    std::condition_variable work_cv_, space_cv_;
    std::deque<job> queue_;
    std::vector<slot_state> slots_;
    size_t queued_bytes_ = 0, next_index_ = 0, failed_unassigned_ = 0;
    std::string last_loss_;
    bool closing_ = false;
    std::vector<partition_trace> trace_;
    state_pools<Curve> states_;
    std::vector<std::thread> threads_;          // last: started once everything above exists
};

}  // namespace cuzk::groth16
