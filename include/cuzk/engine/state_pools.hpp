// SPDX-License-Identifier: MIT OR Apache-2.0
// The per-thread proving states of the engine's provers (any_prover::make_state: the CUDA
// prover's cuda_worker, with its streams, buffers and VRAM share), pooled per prover and shared
// by the workers of every slot over it: a worker takes one for a partition and gives it back
// after, so each state is made once and reused until the engine is destroyed.
//
//   std::unique_lock lock(m);                              // the engine's mutex guards the pools
//   std::shared_ptr<void> st = pools.take(prover, lock);   // may release `lock` while it makes one
//   ... prove on st.get() without the lock ...
//   pools.give_back(prover, std::move(st));                // under the lock again
#pragma once

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "cuzk/engine/any_prover.hpp"

namespace cuzk::groth16 {

template <class Curve>
class state_pools {
public:
    /// A state for a partition on `prover`: a free one of its pool, else a new one while the
    /// prover has room, else (some exist) the next one given back; null for a prover without
    /// states, or when not even one fits (the prover then proves without, as it does alone). One
    /// thread makes a prover's state at a time, so that two first partitions cannot both miss
    /// the room for one. Under the mutex `lock` holds (released while a state is made).
    std::shared_ptr<void> take(const any_prover<Curve>& prover, std::unique_lock<std::mutex>& lock) {
        if (!prover.has_state()) return nullptr;
        pool& p = pools_[prover.address()];
        for (;;) {
            if (!p.free.empty()) {
                std::shared_ptr<void> st = std::move(p.free.back());
                p.free.pop_back();
                return st;
            }
            if (p.making) {
                cv_.wait(lock, [&] { return !p.making || !p.free.empty(); });
                continue;
            }
            p.making = true;
            lock.unlock();
            std::shared_ptr<void> made;
            try {
                made = prover.make_state();
            } catch (...) {  // a failure to make one (a CUDA error): the proof without one meets it too
            }
            lock.lock();
            p.making = false;
            cv_.notify_all();
            if (made) {
                ++p.made;
                return made;
            }
            if (p.made == 0) return nullptr;
            cv_.wait(lock, [&] { return !p.free.empty(); });
        }
    }

    /// Under the mutex.
    void give_back(const any_prover<Curve>& prover, std::shared_ptr<void> state) {
        if (!state) return;
        pools_[prover.address()].free.push_back(std::move(state));
        cv_.notify_all();
    }

    /// States made over every prover (engine_progress::worker_states). Under the mutex.
    size_t made() const {
        size_t n = 0;
        for (const auto& [prover, p] : pools_) n += p.made;
        return n;
    }

private:
    struct pool {
        std::vector<std::shared_ptr<void>> free;
        size_t made = 0;
        bool making = false;
    };
    std::condition_variable cv_;
    std::map<const void*, pool> pools_;  // by prover address; each state keeps its prover alive
};

}  // namespace cuzk::groth16
