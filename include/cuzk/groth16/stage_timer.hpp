// Per-stage wall-clock times of a proof: always on, a few clock reads per stage.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace cuzk::groth16 {

/// Start/end of every stage of one proof, in milliseconds from the proof's start.
struct stage_times {
    struct stage {
        std::string name;
        double start_ms, end_ms;
        double ms() const { return end_ms - start_ms; }
    };
    std::vector<stage> stages;

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
    explicit stage_timer(stage_times* out) : out_(out), origin_(clock::now()) {}

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
    double now_ms() const { return std::chrono::duration<double, std::milli>(clock::now() - origin_).count(); }
    stage_times* out_;
    clock::time_point origin_;
};

}  // namespace cuzk::groth16
