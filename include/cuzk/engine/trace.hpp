// SPDX-License-Identifier: MIT OR Apache-2.0
// The engine's telemetry: every partition's stages per worker, as a Chrome trace (Perfetto opens
// it) and as a summary (wall time, proofs per hour, busy time per worker and per GPU).
//
//   std::vector<partition_trace> t = engine.take_trace();
//   write_text(path, chrome_trace_json(t));          // ui.perfetto.dev, or chrome://tracing
//   std::puts(format_summary(summarise(t)).c_str());
//
// Tracks: one process per engine slot (pid = slot, named after its device), in it one thread per
// worker for its host-clock stages (tid = 2 * worker) and one for the GPU intervals of its stream
// (tid = 2 * worker + 1, CUDA backend only). GPU busy is the union, over every worker of a device,
// of the intervals in which its streams were working through a stage, over the wall time.
#pragma once

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/groth16/stage_timer.hpp"
#include "cuzk/io/json.hpp"

namespace cuzk::groth16 {

/// One partition as a worker proved it; times in ms from the engine's start.
struct partition_trace {
    size_t index = 0;     ///< submission order
    size_t slot = 0;      ///< the engine slot whose worker proved it
    int device = -1;      ///< that slot's device (-1: the CPU)
    unsigned worker = 0;  ///< the worker within the slot
    double start_ms = 0, end_ms = 0;
    bool ok = false;
    std::string error{};  ///< why not, when !ok
    /// The prover's stages, shifted to the engine's clock.
    std::vector<stage_times::stage> stages{};
    /// Its blocking calls on the GPU, and of those the ones that found it busy (stage_times).
    uint64_t host_waits = 0, stalls = 0;
};

/// What a batch's traces add up to.
struct trace_summary {
    struct worker_busy {
        size_t slot;
        int device;
        unsigned worker;
        double busy_ms;  ///< inside a partition
    };
    struct gpu_busy {
        int device;
        double busy_ms;  ///< union of the GPU intervals of every worker on the device
    };
    double wall_ms = 0;  ///< first partition's start to last one's end
    size_t done = 0, failed = 0;
    double proofs_per_hour = 0;
    double median_latency_ms = 0;  ///< one partition, start to end, proved ones
    uint64_t median_host_waits = 0, median_stalls = 0;  ///< per proved partition
    std::vector<worker_busy> workers;
    std::vector<gpu_busy> gpus;  ///< empty on the CPU backend
};

namespace detail {

/// Length of the union of [start, end) intervals.
inline double union_length(std::vector<std::pair<double, double>> v) {
    std::sort(v.begin(), v.end());
    double total = 0, lo = 0, hi = -1;
    for (const auto& [a, b] : v) {
        if (a > hi) {
            if (hi > lo) total += hi - lo;
            lo = a, hi = b;
        } else {
            hi = std::max(hi, b);
        }
    }
    if (hi > lo) total += hi - lo;
    return total;
}

inline void append_number(std::string& out, double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", x);
    out += buf;
}

}  // namespace detail

inline trace_summary summarise(const std::vector<partition_trace>& traces) {
    trace_summary s;
    if (traces.empty()) return s;
    double first = traces.front().start_ms, last = traces.front().end_ms;
    std::map<std::pair<size_t, unsigned>, trace_summary::worker_busy> workers;
    std::map<int, std::vector<std::pair<double, double>>> gpu_intervals;
    std::vector<double> latencies;
    std::vector<uint64_t> waits, stalls;
    for (const auto& t : traces) {
        first = std::min(first, t.start_ms);
        last = std::max(last, t.end_ms);
        (t.ok ? s.done : s.failed) += 1;
        if (t.ok) latencies.push_back(t.end_ms - t.start_ms), waits.push_back(t.host_waits), stalls.push_back(t.stalls);
        auto& w = workers.try_emplace({t.slot, t.worker}, trace_summary::worker_busy{t.slot, t.device, t.worker, 0})
                      .first->second;
        w.busy_ms += t.end_ms - t.start_ms;
        for (const auto& st : t.stages)
            if (st.on_gpu()) gpu_intervals[t.device].emplace_back(st.gpu_start_ms, st.gpu_end_ms);
    }
    s.wall_ms = last - first;
    s.proofs_per_hour = s.wall_ms > 0 ? double(s.done) * 3.6e6 / s.wall_ms : 0;
    std::sort(latencies.begin(), latencies.end());
    if (!latencies.empty()) s.median_latency_ms = latencies[latencies.size() / 2];
    std::sort(waits.begin(), waits.end());
    std::sort(stalls.begin(), stalls.end());
    if (!waits.empty()) s.median_host_waits = waits[waits.size() / 2], s.median_stalls = stalls[stalls.size() / 2];
    for (const auto& [key, w] : workers) s.workers.push_back(w);
    for (auto& [device, v] : gpu_intervals) s.gpus.push_back({device, detail::union_length(std::move(v))});
    return s;
}

/// The summary as a few lines of text.
inline std::string format_summary(const trace_summary& s) {
    std::string out;
    char line[160];
    std::snprintf(line, sizeof line,
                  "  wall %.1f ms: %zu proved, %zu failed, %.0f proofs/hour, median latency %.1f ms\n", s.wall_ms,
                  s.done, s.failed, s.proofs_per_hour, s.median_latency_ms);
    out += line;
    if (s.median_host_waits) {
        std::snprintf(line, sizeof line, "  host waits on the GPU per proof (median): %llu, of which stalls %llu\n",
                      (unsigned long long)s.median_host_waits, (unsigned long long)s.median_stalls);
        out += line;
    }
    const double wall = s.wall_ms > 0 ? s.wall_ms : 1;
    for (const auto& w : s.workers) {
        const std::string where = w.device < 0 ? "CPU" : "GPU " + std::to_string(w.device);
        std::snprintf(line, sizeof line, "  slot %zu (%s) worker %u: busy %.1f ms (%.1f%%)\n", w.slot, where.c_str(),
                      w.worker, w.busy_ms, 100 * w.busy_ms / wall);
        out += line;
    }
    for (const auto& g : s.gpus) {
        std::snprintf(line, sizeof line, "  GPU %d: busy %.1f ms of %.1f (%.1f%%)\n", g.device, g.busy_ms, s.wall_ms,
                      100 * g.busy_ms / wall);
        out += line;
    }
    return out;
}

/// The traces as Chrome trace JSON (traceEvents, complete events "X" in microseconds): a
/// "partition k" event per proof on its worker's track with its stages nested inside, and the
/// GPU intervals on the worker's GPU track.
inline std::string chrome_trace_json(const std::vector<partition_trace>& traces) {
    using detail::append_number;
    std::string out = "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[";
    bool first = true;
    auto begin_event = [&] {
        if (!first) out += ",\n";
        first = false;
    };
    auto event = [&](const std::string& name, size_t pid, unsigned tid, double start_ms, double end_ms,
                     const partition_trace& t) {
        begin_event();
        out += "{\"ph\":\"X\",\"name\":";
        out += io::json::quote(name);
        out += ",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) + ",\"ts\":";
        append_number(out, 1e3 * start_ms);
        out += ",\"dur\":";
        append_number(out, 1e3 * std::max(0.0, end_ms - start_ms));
        out += ",\"args\":{\"partition\":" + std::to_string(t.index);
        if (name.rfind("partition", 0) == 0 && (t.host_waits || t.stalls))
            out += ",\"host_waits\":" + std::to_string(t.host_waits) + ",\"stalls\":" + std::to_string(t.stalls);
        if (!t.ok) {
            out += ",\"error\":";
            out += io::json::quote(t.error);
        }
        out += "}}";
    };
    auto metadata = [&](const char* what, size_t pid, const unsigned* tid, const std::string& name) {
        begin_event();
        out += std::string("{\"ph\":\"M\",\"name\":\"") + what + "\",\"pid\":" + std::to_string(pid);
        if (tid) out += ",\"tid\":" + std::to_string(*tid);
        out += ",\"args\":{\"name\":";
        out += io::json::quote(name);
        out += "}}";
    };
    std::map<size_t, int> slots;
    std::set<std::pair<size_t, unsigned>> tracks;  // (slot, tid)
    for (const auto& t : traces) {
        slots.emplace(t.slot, t.device);
        const unsigned host_tid = 2 * t.worker, gpu_tid = host_tid + 1;
        tracks.insert({t.slot, host_tid});
        event((t.ok ? "partition " : "partition (failed) ") + std::to_string(t.index), t.slot, host_tid, t.start_ms,
              t.end_ms, t);
        for (const auto& st : t.stages) {
            event(st.name, t.slot, host_tid, st.start_ms, st.end_ms, t);
            if (st.on_gpu()) {
                tracks.insert({t.slot, gpu_tid});
                event(st.name, t.slot, gpu_tid, st.gpu_start_ms, st.gpu_end_ms, t);
            }
        }
    }
    // scripts/engine-scaling.sh counts the devices and GPU-stream tracks by these two names
    for (const auto& [slot, device] : slots)
        metadata("process_name", slot, nullptr,
                 "slot " + std::to_string(slot) + (device < 0 ? ": CPU" : ": GPU " + std::to_string(device)));
    for (const auto& [slot, tid] : tracks) {
        metadata("thread_name", slot, &tid, "worker " + std::to_string(tid / 2) + (tid % 2 ? " GPU stream" : ""));
    }
    out += "]}\n";
    return out;
}

}  // namespace cuzk::groth16
