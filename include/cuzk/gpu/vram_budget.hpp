// VRAM accounting the caller owns: reservations against a fixed budget, never a device query.
//
// cudaMemGetInfo and cudaMemPoolTrimTo are device-global (they touch every stream of the
// device), which is what made a second prover worker wait on the first in Filecoin's split-lock
// attempt. cuzk sizes its buffers from the budget it was given instead.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "cuzk/core/error.hpp"

namespace cuzk::gpu {

class vram_budget {
public:
    /// A held share of the budget, returned when destroyed.
    class reservation {
    public:
        reservation() = default;
        reservation(const reservation&) = delete;
        reservation& operator=(const reservation&) = delete;
        reservation(reservation&& o) noexcept : owner_(std::exchange(o.owner_, nullptr)), bytes_(o.bytes_) {}
        reservation& operator=(reservation&& o) noexcept {
            release();
            owner_ = std::exchange(o.owner_, nullptr);
            bytes_ = o.bytes_;
            return *this;
        }
        ~reservation() { release(); }
        size_t bytes() const { return owner_ ? bytes_ : 0; }
        void release() {
            if (owner_) std::exchange(owner_, nullptr)->give_back(bytes_);
        }

    private:
        friend class vram_budget;
        reservation(vram_budget* owner, size_t bytes) : owner_(owner), bytes_(bytes) {}
        vram_budget* owner_ = nullptr;
        size_t bytes_ = 0;
    };

    explicit vram_budget(size_t capacity_bytes) : capacity_(capacity_bytes) {}
    vram_budget(const vram_budget&) = delete;
    vram_budget& operator=(const vram_budget&) = delete;

    size_t capacity() const { return capacity_; }
    size_t used() const {
        std::lock_guard lock(m_);
        return used_;
    }

    /// Reserves `bytes` now if they fit, else returns nothing (the caller falls back).
    std::optional<reservation> try_reserve(size_t bytes) {
        std::lock_guard lock(m_);
        if (bytes > capacity_ - used_) return std::nullopt;
        used_ += bytes;
        return reservation(this, bytes);
    }

    /// Reserves `bytes`, waiting for other holders to give back; throws invalid_argument if
    /// `bytes` exceeds the whole budget (waiting could never succeed).
    reservation reserve(size_t bytes) {
        if (bytes > capacity_)
            throw invalid_argument("vram_budget: " + std::to_string(bytes) + " bytes exceed the budget of " +
                                   std::to_string(capacity_));
        std::unique_lock lock(m_);
        freed_.wait(lock, [&] { return bytes <= capacity_ - used_; });
        used_ += bytes;
        return reservation(this, bytes);
    }

private:
    void give_back(size_t bytes) {
        {
            std::lock_guard lock(m_);
            used_ -= bytes;
        }
        freed_.notify_all();
    }

    const size_t capacity_;
    size_t used_ = 0;
    mutable std::mutex m_;
    std::condition_variable freed_;
};

}  // namespace cuzk::gpu
