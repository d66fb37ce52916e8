// SPDX-License-Identifier: MIT OR Apache-2.0
// Per-stage wall-clock times of a proof: always on, a few clock reads per stage. The CUDA
// backend adds each GPU stage's interval on its stream (timing events), on the same clock, and
// the proof's host waits on the GPU (gpu/host_waits.hpp) are counted on the proving thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "cuzk/gpu/host_waits.hpp"

namespace cuzk::groth16 {

/// Start/end of every stage of one proof, in milliseconds from the proof's start.
struct stage_times {
    struct stage {
        std::string name;
        double start_ms, end_ms;
        /// When the stream reached the stage's first and last enqueued work (CUDA events), on the
        /// host clock as start_ms; both -1 for a stage that enqueues nothing on a GPU.
        double gpu_start_ms = -1, gpu_end_ms = -1;
        double ms() const { return end_ms - start_ms; }
        bool on_gpu() const { return gpu_end_ms >= 0; }
    };
    std::vector<stage> stages;
    /// The proof's start: time zero of every stage time (so that a batch's proofs line up).
    std::chrono::steady_clock::time_point origin{};
    /// Blocking calls the proving thread made on the GPU during the proof, and of those the ones
    /// that found it still busy (gpu/host_waits.hpp); 0 on the CPU.
    uint64_t host_waits = 0, stalls = 0;

    double total_ms() const { return stages.empty() ? 0 : stages.back().end_ms - stages.front().start_ms; }
    double ms(const std::string& name) const {
        double t = 0;
        for (const auto& s : stages)
            if (s.name == name) t += s.ms();
        return t;
    }
};

/// Records stages into a stage_times (or nowhere when given nullptr).
class stage_timer {
public:
    using clock = std::chrono::steady_clock;
    explicit stage_timer(stage_times* out) : out_(out), origin_(clock::now()), waits_(gpu::host_waits()) {
        if (out_) out_->origin = origin_;
    }
    /// Writes the host waits since construction (the proof's, when the timer spans it).
    ~stage_timer() {
        if (!out_) return;
        const gpu::host_wait_count d = gpu::host_waits() - waits_;
        out_->host_waits = d.waits;
        out_->stalls = d.stalls;
    }
    stage_timer(const stage_timer&) = delete;
    stage_timer& operator=(const stage_timer&) = delete;

    /// False when the timer records nowhere (callers then skip their own timing work).
    bool recording() const { return out_ != nullptr; }
    /// Milliseconds since the proof's start.
    double now_ms() const { return std::chrono::duration<double, std::milli>(clock::now() - origin_).count(); }
    /// Stages recorded so far (the index the next one gets).
    size_t recorded() const { return out_ ? out_->stages.size() : 0; }
    /// Sets the GPU interval of recorded stage `index` (ms since the proof's start).
    void set_gpu_interval(size_t index, double start_ms, double end_ms) {
        if (out_ && index < out_->stages.size()) {
            out_->stages[index].gpu_start_ms = start_ms;
            out_->stages[index].gpu_end_ms = end_ms;
        }
    }

    /// Runs f() and records it as stage `name`.
    template <class F>
    decltype(auto) time(const char* name, F&& f) {
        const double t0 = now_ms();
        struct recorder {
            stage_timer* self;
            const char* name;
            double t0;
            ~recorder() {
                if (self->out_) self->out_->stages.push_back({name, t0, self->now_ms()});
            }
        } rec{this, name, t0};
        return f();
    }

private:
    stage_times* out_;
    clock::time_point origin_;
    gpu::host_wait_count waits_;
};

}  // namespace cuzk::groth16
