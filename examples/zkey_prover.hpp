// SPDX-License-Identifier: MIT OR Apache-2.0
// cuzk-prove's file modes: a snarkjs zkey read once and kept resident, proving witness files.
//
//   single  cuzk-prove KEY.zkey W.wtns PROOF.json PUBLIC.json      (rapidsnark's interface)
//   batch   cuzk-prove KEY.zkey --out DIR W1.wtns [W2.wtns ...]    DIR/W1.proof.json, DIR/W1.public.json, ...
//                                                                  [--workers N] [--trace FILE]
//   serve   cuzk-prove KEY.zkey --serve [--out DIR] [--workers N]  one witness path per stdin line, one JSON
//                                                                  line per proof on stdout
//
// All three are shells over the front door (service::zkey_prover, the C API's prover too: the
// same checks, the same error messages, the key resident on the CPU or the GPU). One
// witness_pipeline drives it: the calling thread reads each witness and evaluates a, b, c (the
// front door's read), its engine (--workers N per device) proves, and a finishing thread has each
// proof verified and formatted (finish), writes its files and reports it. So reading
// witness k + 1 overlaps proving k, and the engine's max_queued_bytes bounds the witnesses held.
// Answers come in request order (batch's lines, serve's JSON lines): proofs of one key take about
// the same time and the engine takes them first in, first out, so holding a finished proof behind
// an earlier one costs little, and a client can pair answers with requests by position.
//
// A witness that does not satisfy the circuit writes nothing and counts as a failure (the zkey
// holds no C matrix to check the witness against beforehand, so only the proof's verification
// tells). Batch and serve go on after a failed witness and report it; batch exits 1 if any
// failed. Included by cuzk-prove.cpp only.
#pragma once

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <functional>
#include <future>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "cuzk/engine/trace.hpp"
#include "cuzk/io/atomic_file.hpp"
#include "cuzk/io/snarkjs_json.hpp"
#include "cuzk/service/zkey_prover.hpp"
#include "cuzk_prove_gpu.hpp"

namespace cuzk_prove {

using namespace cuzk::groth16;

/// One witness file and where its proof and public signals go.
struct request {
    std::string wtns, proof_path, public_path;
};

/// What proving one witness file gave.
struct outcome {
    bool ok = false;
    std::string error;  // why not, when !ok
    double read_s = 0;  // wtns read and checked, a, b, c evaluated
    double prove_s = 0, verify_s = 0;
    stage_times times;  // the prover's stages (times on the engine's clock)
};

/// A zkey read once and kept resident on the front door (service::zkey_prover: the CPU's prover,
/// or the GPU backend's with the key resident on the device), with the path and read time the
/// modes print. Workers per device: `workers`, or 0 for the front door's default (on the CPU one,
/// since one proof already uses every core; on the GPU two, one uploading while one computes).
template <class IoCurve>
class resident_zkey {
public:
    using prover = cuzk::service::zkey_prover<IoCurve>;
    using curve = typename prover::curve;
    using fr = typename curve::fr;

    /// backend: "auto" (GPU when present and built), "cpu" or "gpu" (an error without one).
    /// copy_key: read the key into memory of its own (io::file_source) instead of mapping it.
    resident_zkey(const std::string& path, const std::string& where, unsigned workers, bool copy_key = false)
        : path_(path) {
        using cuzk::service::backend;
        cuzk::service::prover_options o;
        o.where = where == "gpu" ? backend::gpu : where == "cpu" ? backend::cpu : backend::automatic;
        o.workers_per_device = workers;
        const auto t0 = std::chrono::steady_clock::now();
        p_ = prover::open(cuzk::service::reading(cuzk::service::errc::io,
                                                 [&]() -> std::shared_ptr<const cuzk::io::byte_source> {
                                                     if (copy_key) return std::make_shared<const cuzk::io::file_source>(path);
                                                     return std::make_shared<const cuzk::io::mapped_source>(path);
                                                 }),
                          o);
        read_s_ = seconds_since(t0);
    }

    prover& front_door() const { return *p_; }
    const std::string& path() const { return path_; }
    bool on_gpu() const { return p_->on_gpu(); }
    unsigned workers() const { return p_->workers(); }
    double read_seconds() const { return read_s_; }
    const proving_key<curve>& key() const { return p_->key(); }

private:
    std::string path_;
    double read_s_ = 0;
    std::unique_ptr<prover> p_;
};

/// The proving steps of every file mode, written once. add() reads a witness and evaluates a, b,
/// c on the calling thread, then queues it on the engine (waiting while the engine holds
/// workers + 1 witnesses, its max_queued_bytes); the engine's workers prove; a finishing thread
/// takes the proofs in request order, verifies each, writes its files and calls `report` with
/// the outcome. A witness fails alone: unreadable, of another circuit, or not satisfying the
/// circuit (its proof does not verify) is a failed outcome with its message, never an exception.
template <class IoCurve>
class witness_pipeline {
public:
    using curve = typename resident_zkey<IoCurve>::curve;
    using fr = typename curve::fr;
    /// Called on the finishing thread, once per request in the order added: (0-based index, the
    /// request, its outcome). Must not throw.
    using reporter = std::function<void(size_t, const request&, const outcome&)>;

    /// keep_traces: keep every partition's trace for traces() (batch); else each is dropped once
    /// reported, so that a long-running server stays bounded.
    witness_pipeline(const resident_zkey<IoCurve>& key, reporter report, bool keep_traces)
        : key_(key), report_(std::move(report)), keep_traces_(keep_traces), finisher_([this] { finish_all(); }) {}
    ~witness_pipeline() { close(); }
    witness_pipeline(const witness_pipeline&) = delete;
    witness_pipeline& operator=(const witness_pipeline&) = delete;

    /// Reads r.wtns, evaluates a, b, c and queues the proof (waits while the engine is full).
    void add(request r) {
        pending p{.req = std::move(r)};
        try {
            auto w = key_.front_door().read_file(p.req.wtns);
            p.publics = std::move(w.publics);
            p.out.read_s = w.read_s;
            p.proved = key_.front_door().submit(std::move(w.part));
            p.engine_index = submitted_++;  // the engine numbers what it accepted, in order
        } catch (const std::exception& e) {
            p.out.error = e.what();
        }
        {
            std::lock_guard lock(m_);
            queue_.push_back(std::move(p));
        }
        cv_.notify_one();
    }

    /// Waits until every request added has been reported. Idempotent.
    void close() {
        {
            std::lock_guard lock(m_);
            closed_ = true;
        }
        cv_.notify_one();
        if (finisher_.joinable()) finisher_.join();
    }

    /// After close(), with keep_traces: every proved partition's trace, its index the request's
    /// (0-based) and a proof that did not verify marked failed.
    const std::vector<partition_trace>& traces() const { return kept_; }

private:
    struct pending {
        request req;
        outcome out{};
        std::future<proof<curve>> proved{};  // invalid: failed before reaching the engine
        std::vector<fr> publics{};
        size_t engine_index = 0;
    };

    void finish_all() {
        for (size_t index = 0;; ++index) {
            pending p;
            {
                std::unique_lock lock(m_);
                cv_.wait(lock, [&] { return !queue_.empty() || closed_; });
                if (queue_.empty()) return;
                p = std::move(queue_.front());
                queue_.pop_front();
            }
            if (p.proved.valid()) finish(p, index);
            report_(index, p.req, p.out);
        }
    }

    void finish(pending& p, size_t index) {
        auto& door = key_.front_door();
        std::optional<proof<curve>> pi;
        try {
            pi = door.wait(p.proved);
        } catch (const std::exception& e) {
            p.out.error = e.what();
        }
        // The engine records a partition's trace before handing over its proof or error.
        for (partition_trace& t : door.take_trace()) unmatched_.emplace(t.index, std::move(t));
        std::optional<partition_trace> trace;
        if (auto it = unmatched_.find(p.engine_index); it != unmatched_.end()) {
            trace = std::move(it->second);
            unmatched_.erase(it);
            p.out.prove_s = 1e-3 * (trace->end_ms - trace->start_ms);
            p.out.times.stages = trace->stages;
        }
        if (pi) {
            try {
                const auto t0 = std::chrono::steady_clock::now();
                const cuzk::service::proof_texts t = door.finish(*pi, p.publics);  // verified first
                p.out.verify_s = seconds_since(t0);
                // public.json first, proof.json last (io/atomic_file.hpp): a proof.json that exists
                // is complete and its public.json is the one beside it, whatever fails or is killed.
                cuzk::io::write_files_atomically({{p.req.public_path, t.pub}, {p.req.proof_path, t.proof}});
                p.out.ok = true;
            } catch (const std::exception& e) {
                p.out.error = e.what();
            }
        }
        if (trace && keep_traces_) {
            trace->index = index;
            if (!p.out.ok && trace->ok) trace->ok = false, trace->error = p.out.error;
            kept_.push_back(std::move(*trace));
        }
    }

    const resident_zkey<IoCurve>& key_;
    reporter report_;
    bool keep_traces_;
    size_t submitted_ = 0;  // the producer's
    // The finisher's:
    std::map<size_t, partition_trace> unmatched_;  // taken from the engine, not yet reported
    std::vector<partition_trace> kept_;
    std::mutex m_;
    std::condition_variable cv_;
    std::deque<pending> queue_;
    bool closed_ = false;
    std::thread finisher_;  // last: started once everything above exists
};

/// DIR/<name without .wtns>.proof.json and .public.json for a witness path.
inline std::pair<std::string, std::string> output_paths(const std::string& dir, const std::string& wtns_path) {
    std::filesystem::path stem = std::filesystem::path(wtns_path).filename();
    if (stem.extension() == ".wtns") stem.replace_extension();
    const std::filesystem::path base = std::filesystem::path(dir) / stem;
    return {base.string() + ".proof.json", base.string() + ".public.json"};
}

/// Refuses outputs that name one file (the proof would be overwritten by the public signals)
/// or an input (the key or the witness would be overwritten), before the key is read.
inline void check_outputs(const std::string& zkey, const std::string& wtns, const std::string& proof_path,
                          const std::string& public_path) {
    using cuzk::io::same_file;
    if (same_file(proof_path, public_path))
        throw cuzk::invalid_argument(proof_path + " is given for both proof.json and public.json: one would " +
                                     "overwrite the other");
    for (const std::string& out : {proof_path, public_path})
        for (const std::string& in : {zkey, wtns})
            if (same_file(out, in)) throw cuzk::invalid_argument(out + " is an input too: writing it would destroy it");
}

/// Single mode: rapidsnark's interface. Exit status 0 or 1.
template <class IoCurve>
int prove_single(const std::string& zkey, const std::string& wtns, const std::string& proof_path,
                 const std::string& public_path, const std::string& backend, bool print_stages,
                 bool copy_key = false) {
    check_outputs(zkey, wtns, proof_path, public_path);
    resident_zkey<IoCurve> key(zkey, backend, 1, copy_key);
    outcome r;
    {
        witness_pipeline<IoCurve> pipe(
            key, [&](size_t, const request&, const outcome& o) { r = o; }, false);
        pipe.add({wtns, proof_path, public_path});
    }
    if (!r.ok) {
        std::fprintf(stderr, "cuzk-prove: error: %s: %s\n", wtns.c_str(), r.error.c_str());
        return 1;
    }
    std::fprintf(stderr, "cuzk-prove: %s, %zu variables, domain %zu: read %.3f s, prove %.3f s (%s), verify %.3f s\n",
                 std::string(IoCurve::name).c_str(), key.key().num_variables(), key.key().domain_size(),
                 key.read_seconds() + r.read_s, r.prove_s, key.on_gpu() ? "GPU" : "CPU", r.verify_s);
    if (print_stages) {
        std::fprintf(stderr, "  %-28s %12s\n  %-28s %12.2f\n", "stage", "ms", "read zkey + wtns, evaluate",
                     1e3 * (key.read_seconds() + r.read_s));
        for (const auto& s : r.times.stages) std::fprintf(stderr, "  %-28s %12.2f\n", s.name.c_str(), s.ms());
        std::fprintf(stderr, "  %-28s %12.2f\n", "prove (stages)", r.times.total_ms());
    }
    return 0;
}

/// Batch mode: every witness with the key resident, through the engine with `workers` workers
/// (0: the default); a line each on stdout in witness order, then a summary with the throughput
/// and the engine's; the engine's Chrome trace to trace_path unless empty. Two witnesses whose
/// outputs would share a name are refused before anything is proved. Exit status 0 if every
/// proof verified and was written, else 1.
template <class IoCurve>
int prove_batch(const std::string& zkey, const std::vector<std::string>& witnesses, const std::string& out_dir,
                const std::string& backend, unsigned workers, const std::string& trace_path) {
    std::set<std::string> names;
    for (const std::string& w : witnesses)
        if (!names.insert(output_paths(out_dir, w).first).second)
            throw cuzk::invalid_argument("two witnesses would write " + output_paths(out_dir, w).first +
                                         ": give them different file names");
    std::filesystem::create_directories(out_dir);
    resident_zkey<IoCurve> key(zkey, backend, workers);
    workers = key.workers();
    std::printf(
        "cuzk-prove: %s read in %.3f s (%zu variables, domain %zu), proving %zu witnesses on the %s, %u worker%s\n",
        zkey.c_str(), key.read_seconds(), key.key().num_variables(), key.key().domain_size(), witnesses.size(),
        key.on_gpu() ? "GPU" : "CPU", workers, workers == 1 ? "" : "s");
    std::fflush(stdout);
    size_t failed = 0;
    std::vector<double> prove_ms;
    const auto t0 = std::chrono::steady_clock::now();
    witness_pipeline<IoCurve> pipe(
        key,
        [&](size_t i, const request& q, const outcome& r) {
            if (r.ok) {
                prove_ms.push_back(1e3 * r.prove_s);
                std::printf("  [%zu/%zu] %s: proved in %.1f ms, verified -> %s\n", i + 1, witnesses.size(),
                            q.wtns.c_str(), 1e3 * r.prove_s, q.proof_path.c_str());
            } else {
                ++failed;
                std::printf("  [%zu/%zu] %s: FAILED: %s\n", i + 1, witnesses.size(), q.wtns.c_str(), r.error.c_str());
            }
            std::fflush(stdout);
        },
        true);
    for (const std::string& w : witnesses) {
        const auto [proof_path, public_path] = output_paths(out_dir, w);
        pipe.add({w, proof_path, public_path});
    }
    pipe.close();
    const double wall_s = seconds_since(t0);
    const size_t proved = witnesses.size() - failed;
    std::sort(prove_ms.begin(), prove_ms.end());
    const double median = prove_ms.empty() ? 0 : prove_ms[prove_ms.size() / 2];
    std::printf("cuzk-prove: %zu witnesses: %zu proved and verified, %zu failed; median proof %.1f ms\n",
                witnesses.size(), proved, failed, median);
    // Wall time from the first witness read to the last proof written: what a caller waits for.
    std::printf("cuzk-prove: wall %.3f s (read, prove, verify, write), %.1f ms per proof, %.2f proofs/s; %u worker%s\n",
                wall_s, proved ? 1e3 * wall_s / double(proved) : 0.0, wall_s > 0 ? double(proved) / wall_s : 0.0,
                workers, workers == 1 ? "" : "s");
    std::printf("%s", format_summary(summarise(pipe.traces())).c_str());
    if (!trace_path.empty()) {
        cuzk::io::write_text_file(trace_path, chrome_trace_json(pipe.traces()));
        std::printf("  trace: %s (%zu partitions)\n", trace_path.c_str(), pipe.traces().size());
    }
    return failed == 0 ? 0 : 1;
}

/// Serve mode: reads witness paths from stdin, one per line (the whole line is the path; empty
/// lines are skipped), until end of input; proves them with the key resident, through the engine
/// with `workers` workers (0: the default), reading the next request while earlier ones prove, and
/// answers each with one JSON line on stdout, in request order:
///   {"witness": W, "ok": true, "proof": P, "public": Q, "prove_ms": T}
///   {"witness": W, "ok": false, "error": MESSAGE}
/// Outputs go to out_dir (default: the witness's own directory) as <name>.proof.json and
/// <name>.public.json; a later request for the same name overwrites them (two such requests in
/// flight at once may finish in either order). The first line, {"ready": true, ...}, says the
/// key is loaded. Exit status 0 at end of input, once every request is answered.
template <class IoCurve>
int serve(const std::string& zkey, const std::string& out_dir, const std::string& backend, unsigned workers) {
    if (!out_dir.empty()) std::filesystem::create_directories(out_dir);
    resident_zkey<IoCurve> key(zkey, backend, workers);
    workers = key.workers();
    witness_pipeline<IoCurve> pipe(
        key,
        [](size_t, const request& q, const outcome& r) {
            if (r.ok)
                std::printf("{\"witness\": %s, \"ok\": true, \"proof\": %s, \"public\": %s, \"prove_ms\": %.1f}\n",
                            cuzk::io::json::quote(q.wtns).c_str(), cuzk::io::json::quote(q.proof_path).c_str(),
                            cuzk::io::json::quote(q.public_path).c_str(), 1e3 * r.prove_s);
            else
                std::printf("{\"witness\": %s, \"ok\": false, \"error\": %s}\n", cuzk::io::json::quote(q.wtns).c_str(),
                            cuzk::io::json::quote(r.error).c_str());
            std::fflush(stdout);
        },
        false);
    // Printed before any answer: the finisher prints only after the first add().
    std::printf(
        "{\"ready\": true, \"curve\": %s, \"variables\": %zu, \"domain\": %zu, \"backend\": \"%s\", "
        "\"workers\": %u, \"read_ms\": %.1f}\n",
        cuzk::io::json::quote(std::string(IoCurve::name)).c_str(), key.key().num_variables(), key.key().domain_size(),
        key.on_gpu() ? "gpu" : "cpu", workers, 1e3 * key.read_seconds());
    std::fflush(stdout);
    std::string line;
    while (std::getline(std::cin, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        const std::string dir = out_dir.empty() ? std::filesystem::path(line).parent_path().string() : out_dir;
        const auto [proof_path, public_path] = output_paths(dir.empty() ? "." : dir, line);
        pipe.add({line, proof_path, public_path});
    }
    pipe.close();
    return 0;
}

}  // namespace cuzk_prove
