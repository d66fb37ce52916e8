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
#include <type_traits>
#include <vector>

#include "cuzk/gpu/event.hpp"
#include "cuzk/groth16/stage_timer.hpp"

namespace cuzk::groth16::detail {

/// The events are put on the stage_timer's clock from the last one: finish() runs after a wait
/// for the stream, so the last event has happened by then and is taken to have happened at that
/// moment; every other event is placed by its distance before it. The mapped times are late by
/// the wait's wake-up (microseconds on a quiet machine, tens of ms when many processes share the
/// GPU, as seen on the H200 beside 36 compute-sanitizer runs), never early, and nothing waits for
/// the clock. A stage's interval runs from when the stream reaches its first work to when it
/// passes its last, so kernels enqueued by one stage and still running during the next host
/// stage count where they ran. Nothing is created when nobody records.
class gpu_stage_clock {
public:
    gpu_stage_clock(stage_timer& timer, cudaStream_t st) : timer_(timer), st_(st), recording_(timer.recording()) {}

    /// timer.time(name, f), with the stage's GPU interval recorded on the stream.
    template <class F>
    auto time(const char* name, F&& f) {
        if (!recording_) return timer_.time(name, f);
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
    void finish() {
        if (marks_.empty()) return;
        const double now = timer_.now_ms();
        const gpu::event& last = marks_.back().end;
        for (auto& m : marks_) {
            const double start = now - last.elapsed_ms_since(m.start), end = now - last.elapsed_ms_since(m.end);
            timer_.set_gpu_interval(m.stage, std::min(now, start), std::min(now, end));
        }
    }

private:
    struct mark {
        size_t stage;
        gpu::event start, end;
    };
    stage_timer& timer_;
    cudaStream_t st_;
    bool recording_;
    std::vector<mark> marks_;
};

}  // namespace cuzk::groth16::detail
