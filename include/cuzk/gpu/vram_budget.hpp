// SPDX-License-Identifier: MIT OR Apache-2.0
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
        reservation(reservation&& o) noexcept
            : owner_(std::exchange(o.owner_, nullptr)), bytes_(o.bytes_), resident_(o.resident_) {}
        reservation& operator=(reservation&& o) noexcept {
            release();
            owner_ = std::exchange(o.owner_, nullptr);
            bytes_ = o.bytes_;
            resident_ = o.resident_;
            return *this;
        }
        ~reservation() { release(); }
        size_t bytes() const { return owner_ ? bytes_ : 0; }
        void release() {
            if (owner_) std::exchange(owner_, nullptr)->give_back(bytes_, resident_);
        }

    private:
        friend class vram_budget;
        reservation(vram_budget* owner, size_t bytes, bool resident = false)
            : owner_(owner), bytes_(bytes), resident_(resident) {}
        vram_budget* owner_ = nullptr;
        size_t bytes_ = 0;
        bool resident_ = false;
    };

    explicit vram_budget(size_t capacity_bytes) : capacity_(capacity_bytes) {}
    vram_budget(const vram_budget&) = delete;
    vram_budget& operator=(const vram_budget&) = delete;

    size_t capacity() const { return capacity_; }
    size_t used() const {
        std::lock_guard lock(m_);
        return used_;
    }

    /// Bytes held by resident reservations (kept for a prover's lifetime, e.g. a staged key).
    size_t resident() const {
        std::lock_guard lock(m_);
        return resident_;
    }

    /// Reserves `bytes` for as long as the reservation lives, if they fit now next to
    /// `headroom` more bytes (what one proof will need); else returns nothing (the caller falls
    /// back). Resident bytes are never waited for by reserve().
    std::optional<reservation> try_reserve_resident(size_t bytes, size_t headroom = 0) {
        std::lock_guard lock(m_);
        if (bytes > capacity_ - used_ || headroom > capacity_ - used_ - bytes) return std::nullopt;
        used_ += bytes;
        resident_ += bytes;
        return reservation(this, bytes, true);
    }

    /// Reserves `bytes`, waiting for other (transient) holders to give back; throws
    /// invalid_argument when waiting could never succeed: `bytes` exceed the budget less its
    /// resident part.
    reservation reserve(size_t bytes) {
        std::unique_lock lock(m_);
        if (bytes > capacity_ - resident_)
            throw invalid_argument("vram_budget: " + std::to_string(bytes) + " bytes exceed the budget of " +
                                   std::to_string(capacity_) + " less its " + std::to_string(resident_) +
                                   " resident bytes");
        freed_.wait(lock, [&] { return bytes <= capacity_ - used_; });
        used_ += bytes;
        return reservation(this, bytes);
    }

private:
    void give_back(size_t bytes, bool resident) {
        {
            std::lock_guard lock(m_);
            used_ -= bytes;
            if (resident) resident_ -= bytes;
        }
        freed_.notify_all();
    }

    const size_t capacity_;
    size_t used_ = 0;
    size_t resident_ = 0;
    mutable std::mutex m_;
    std::condition_variable freed_;
};

}  // namespace cuzk::gpu
