// cuzk-prove's file modes: a snarkjs zkey read once and kept resident, proving witness files.
//
//   single  cuzk-prove KEY.zkey W.wtns PROOF.json PUBLIC.json      (rapidsnark's interface)
//   batch   cuzk-prove KEY.zkey --out DIR W1.wtns [W2.wtns ...]    DIR/W1.proof.json, DIR/W1.public.json, ...
//   serve   cuzk-prove KEY.zkey --serve [--out DIR]                one witness path per stdin line, one JSON
//                                                                  line per proof on stdout
//
// Every proof is checked with the key's verifying key before its files are written: a witness
// that does not satisfy the circuit writes nothing and counts as a failure (the zkey holds no C
// matrix to check the witness against beforehand). Batch and serve go on after a failed witness
// and report it; batch exits 1 if any failed. Included by cuzk-prove.cpp only; the GPU prover
// comes type-erased from cuzk_prove_gpu.cu.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "cuzk/groth16/engine.hpp"  // any_prover
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/snarkjs_json.hpp"
#include "cuzk/io/wtns.hpp"
#include "cuzk/io/zkey_groth16.hpp"
#include "cuzk_prove_gpu.hpp"

namespace cuzk_prove {

using namespace cuzk::groth16;

/// What proving one witness file gave.
struct outcome {
    bool ok = false;
    std::string error;  // why not, when !ok
    double read_s = 0, prove_s = 0, verify_s = 0;
    stage_times times;
};

/// A zkey read once (the points into a proving key, the A/B coefficients kept for evaluating
/// a, b, c) with its prover: the GPU's where requested and present, else the CPU's.
template <class IoCurve>
class resident_zkey {
public:
    using curve = cuzk::io::groth16_curve_t<IoCurve>;
    using fr = typename curve::fr;

    /// backend: "auto" (GPU when present), "cpu" or "gpu" (an error without one).
    resident_zkey(const std::string& path, const std::string& backend, bool gpu_present) : path_(path) {
        auto t0 = std::chrono::steady_clock::now();
        auto z = cuzk::io::zkey<IoCurve>::read(path);
        n_vars_ = z.n_vars;
        n_public_ = z.n_public;
        rows_ = cuzk::io::abc_rows<fr>(z.coeffs, z.domain_size, z.n_vars);  // once per key, not per witness
        z.coeffs = {};
        pk_ = std::make_shared<const proving_key<curve>>(cuzk::io::to_proving_key(std::move(z)));
#if defined(CUZK_PROVE_GPU)
        if (backend == "gpu" || (backend == "auto" && gpu_present)) {
            prover_ = make_gpu_file_prover<curve>(pk_);
            on_gpu_ = true;
        }
#else
        if (backend == "gpu") throw cuzk::invalid_argument("--backend gpu, but no GPU backend is available");
        (void)gpu_present;
#endif
        if (!on_gpu_) prover_ = std::make_shared<const prover<curve>>(pk_);
        read_s_ = seconds_since(t0);
    }

    bool on_gpu() const { return on_gpu_; }
    double read_seconds() const { return read_s_; }
    const proving_key<curve>& key() const { return *pk_; }

    /// Proves the witness in wtns_path; writes proof_path and public_path only if the proof
    /// verifies. Bad input (unreadable file, witness of another circuit) is a failed outcome
    /// with its message, not an exception.
    outcome prove(const std::string& wtns_path, const std::string& proof_path, const std::string& public_path) {
        outcome r;
        try {
            auto t0 = std::chrono::steady_clock::now();
            auto w = cuzk::io::wtns<IoCurve>::read(wtns_path);
            if (w.values.size() != n_vars_)
                throw cuzk::invalid_argument(wtns_path + " holds " + std::to_string(w.values.size()) + " values but " +
                                             path_ + " expects " + std::to_string(n_vars_) +
                                             " (witness of another circuit?)");
            if (w.values.empty() || !w.values[0].is_one())
                throw cuzk::invalid_argument(wtns_path + ": the first witness value must be 1");
            std::vector<fr> abc = rows_.evaluate(w.values);
            partition<fr> part{.z = std::move(w.values), .abc = std::move(abc)};  // r, s from the OS CSPRNG
            r.read_s = seconds_since(t0);
            t0 = std::chrono::steady_clock::now();
            const proof<curve> pi = prover_.prove(part, r.times);
            r.prove_s = seconds_since(t0);
            const std::span<const fr> publics(part.z.data() + 1, n_public_);
            t0 = std::chrono::steady_clock::now();
            const verdict v = verify_verdict(pk_->vk, publics, pi);
            r.verify_s = seconds_since(t0);
            if (v != verdict::ok) {
                r.error = std::string("the proof does not verify against the key's verifying key (") + to_string(v) +
                          "): " + wtns_path + " does not satisfy the circuit of " + path_ + "; nothing written";
                return r;
            }
            cuzk::io::write_text_file(proof_path,
                                      cuzk::io::proof_to_json<IoCurve>(cuzk::io::from_groth16<IoCurve>(pi)));
            cuzk::io::write_text_file(public_path, cuzk::io::public_to_json<IoCurve>(publics));
            r.ok = true;
        } catch (const std::exception& e) {
            r.error = e.what();
        }
        return r;
    }

private:
    std::string path_;
    uint32_t n_vars_ = 0, n_public_ = 0;
    double read_s_ = 0;
    cuzk::io::abc_rows<fr> rows_;  // a, b, c from the zkey's A and B rows (c = a b)
    std::shared_ptr<const proving_key<curve>> pk_;
    any_prover<curve> prover_;  // prove_from_abc, on the CPU or (on_gpu_) the GPU
    bool on_gpu_ = false;
};

/// DIR/<name without .wtns>.proof.json and .public.json for a witness path.
inline std::pair<std::string, std::string> output_paths(const std::string& dir, const std::string& wtns_path) {
    std::filesystem::path stem = std::filesystem::path(wtns_path).filename();
    if (stem.extension() == ".wtns") stem.replace_extension();
    const std::filesystem::path base = std::filesystem::path(dir) / stem;
    return {base.string() + ".proof.json", base.string() + ".public.json"};
}

/// Single mode: rapidsnark's interface. Exit status 0 or 1.
template <class IoCurve>
int prove_single(const std::string& zkey, const std::string& wtns, const std::string& proof_path,
                 const std::string& public_path, const std::string& backend, bool gpu_present, bool print_stages) {
    resident_zkey<IoCurve> key(zkey, backend, gpu_present);
    const outcome r = key.prove(wtns, proof_path, public_path);
    if (!r.ok) {
        std::fprintf(stderr, "cuzk-prove: error: %s\n", r.error.c_str());
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

/// Batch mode: every witness with the key resident, a line each on stdout and a summary.
/// Two witnesses whose outputs would share a name are refused before anything is proved.
/// Exit status 0 if every proof verified and was written, else 1.
template <class IoCurve>
int prove_batch(const std::string& zkey, const std::vector<std::string>& witnesses, const std::string& out_dir,
                const std::string& backend, bool gpu_present) {
    std::set<std::string> names;
    for (const std::string& w : witnesses)
        if (!names.insert(output_paths(out_dir, w).first).second)
            throw cuzk::invalid_argument("two witnesses would write " + output_paths(out_dir, w).first +
                                         ": give them different file names");
    std::filesystem::create_directories(out_dir);
    resident_zkey<IoCurve> key(zkey, backend, gpu_present);
    std::printf("cuzk-prove: %s read in %.3f s (%zu variables, domain %zu), proving %zu witnesses on the %s\n",
                zkey.c_str(), key.read_seconds(), key.key().num_variables(), key.key().domain_size(), witnesses.size(),
                key.on_gpu() ? "GPU" : "CPU");
    size_t failed = 0;
    std::vector<double> prove_ms;
    for (size_t i = 0; i < witnesses.size(); ++i) {
        const auto [proof_path, public_path] = output_paths(out_dir, witnesses[i]);
        const outcome r = key.prove(witnesses[i], proof_path, public_path);
        if (r.ok) {
            prove_ms.push_back(1e3 * r.prove_s);
            std::printf("  [%zu/%zu] %s: proved in %.1f ms, verified -> %s\n", i + 1, witnesses.size(),
                        witnesses[i].c_str(), 1e3 * r.prove_s, proof_path.c_str());
        } else {
            ++failed;
            std::printf("  [%zu/%zu] %s: FAILED: %s\n", i + 1, witnesses.size(), witnesses[i].c_str(), r.error.c_str());
        }
        std::fflush(stdout);
    }
    std::sort(prove_ms.begin(), prove_ms.end());
    const double median = prove_ms.empty() ? 0 : prove_ms[prove_ms.size() / 2];
    std::printf("cuzk-prove: %zu witnesses: %zu proved and verified, %zu failed; median proof %.1f ms\n",
                witnesses.size(), witnesses.size() - failed, failed, median);
    return failed == 0 ? 0 : 1;
}

/// Serve mode: reads witness paths from stdin, one per line (the whole line is the path; empty
/// lines are skipped), until end of input; proves each with the key resident and answers with
/// one JSON line on stdout:
///   {"witness": W, "ok": true, "proof": P, "public": Q, "prove_ms": T}
///   {"witness": W, "ok": false, "error": MESSAGE}
/// Outputs go to out_dir (default: the witness's own directory) as <name>.proof.json and
/// <name>.public.json; a later request for the same name overwrites them. The first line,
/// {"ready": true, ...}, says the key is loaded. Exit status 0 at end of input.
template <class IoCurve>
int serve(const std::string& zkey, const std::string& out_dir, const std::string& backend, bool gpu_present) {
    if (!out_dir.empty()) std::filesystem::create_directories(out_dir);
    resident_zkey<IoCurve> key(zkey, backend, gpu_present);
    std::printf(
        "{\"ready\": true, \"curve\": %s, \"variables\": %zu, \"domain\": %zu, \"backend\": \"%s\", "
        "\"read_ms\": %.1f}\n",
        cuzk::io::json::quote(std::string(IoCurve::name)).c_str(), key.key().num_variables(), key.key().domain_size(),
        key.on_gpu() ? "gpu" : "cpu", 1e3 * key.read_seconds());
    std::fflush(stdout);
    std::string line;
    while (std::getline(std::cin, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        const std::string dir = out_dir.empty() ? std::filesystem::path(line).parent_path().string() : out_dir;
        const auto [proof_path, public_path] = output_paths(dir.empty() ? "." : dir, line);
        const outcome r = key.prove(line, proof_path, public_path);
        if (r.ok)
            std::printf("{\"witness\": %s, \"ok\": true, \"proof\": %s, \"public\": %s, \"prove_ms\": %.1f}\n",
                        cuzk::io::json::quote(line).c_str(), cuzk::io::json::quote(proof_path).c_str(),
                        cuzk::io::json::quote(public_path).c_str(), 1e3 * r.prove_s);
        else
            std::printf("{\"witness\": %s, \"ok\": false, \"error\": %s}\n", cuzk::io::json::quote(line).c_str(),
                        cuzk::io::json::quote(r.error).c_str());
        std::fflush(stdout);
    }
    return 0;
}

}  // namespace cuzk_prove
