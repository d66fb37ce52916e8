// SPDX-License-Identifier: MIT OR Apache-2.0
// The GPU intervals of a proof's stages, on the host clock of its stage_timer (stage_timer.hpp):
// a timing event on the proof's stream before and after each stage's enqueues.
//
//   detail::gpu_stage_clock clock(timer, stream);
//   clock.time("MSM A", [&] { return msm_device(...); });   // timer.time, plus the GPU interval
//   stream.synchronize();
//   clock.finish();                                          // intervals into the timer's stages
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <type_traits>
#include <vector>

#include "cuzk/gpu/event.hpp"
#include "cuzk/groth16/stage_timer.hpp"

namespace cuzk::groth16::detail {

/// The events are put on the stage_timer's clock by an anchor event recorded on the stream and
/// waited for at once (the stream is idle then: a worker's stream is between proofs). A stage's
/// interval runs from when the stream reaches its first work to when it passes its last, so
/// kernels enqueued by one stage and still running during the next host stage count where they
/// ran. Nothing is created when nobody records.
class gpu_stage_clock {
public:
    gpu_stage_clock(stage_timer& timer, cudaStream_t st) : timer_(timer), st_(st) {
        if (!timer_.recording()) return;
        anchor_.emplace();
        anchor_->record(st_);
        anchor_->synchronize();
        anchor_ms_ = timer_.now_ms();
    }

    /// timer.time(name, f), with the stage's GPU interval recorded on the stream.
    template <class F>
    auto time(const char* name, F&& f) {
        if (!anchor_) return timer_.time(name, f);
        marks_.push_back({timer_.recorded(), gpu::event{}, gpu::event{}});
        // The start event goes in after the stage's host start is read: on an idle stream it
        // completes at once, and recorded first it could land before the host interval.
        return timer_.time(name, [&]() -> decltype(auto) {
            marks_.back().start.record(st_);
            if constexpr (std::is_void_v<std::invoke_result_t<F&>>) {
                f();
                marks_.back().end.record(st_);
            } else {
                decltype(auto) r = f();
                marks_.back().end.record(st_);
                return r;
            }
        });
    }

    /// Writes the intervals into the timer's stages; call once the stream has passed them all.
    /// The anchor's host time is read after its synchronisation returned, so mapped times are
    /// late by that wake-up: microseconds on a quiet machine, tens of ms when many processes
    /// share the GPU (seen on the H200 beside 36 compute-sanitizer runs). Every event has
    /// completed by now, so a time past now is that lateness and is clamped to now.
    void finish() {
        const double now = timer_.now_ms();
        for (auto& m : marks_)
            timer_.set_gpu_interval(m.stage, std::min(now, anchor_ms_ + m.start.elapsed_ms_since(*anchor_)),
                                    std::min(now, anchor_ms_ + m.end.elapsed_ms_since(*anchor_)));
    }

private:
    struct mark {
        size_t stage;
        gpu::event start, end;
    };
    stage_timer& timer_;
    cudaStream_t st_;
    std::optional<gpu::event> anchor_;
    double anchor_ms_ = 0;
    std::vector<mark> marks_;
};

}  // namespace cuzk::groth16::detail
