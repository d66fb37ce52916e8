// SPDX-License-Identifier: MIT OR Apache-2.0
// The front door: a snarkjs zkey loaded once, proving many witnesses from many threads, on the
// CPU or the GPU, every proof checked against the key's verifying key before it is returned.
// The C API (src/c_api), cuzk-prove's file modes and, through the C API, the Python binding are
// shells over it.
//
//   auto p = service::resident_prover::open(std::make_shared<io::mapped_source>("c.zkey"), {});
//
// A mapped key (io::mapped_source) proved on the CPU stays in the page cache: its points are
// checked where they lie and the MSMs read them there (io/zkey.hpp, zkey_read_options::zero_copy).
// A key for the GPU is copied as before: the CUDA backends page-lock their host copy, which a
// read-only file mapping cannot be.
//   service::proof_texts t = p.prove(wtns_bytes);            // proof.json, public.json
//
// One proof in three steps, each callable on its own (cuzk-prove reads witness k + 1 while k
// proves):
//   read    the .wtns (curve, length and value 0 checked), a | b | c on the domain from the key's
//           coefficients (io::abc_rows: snarkjs keys hold no C matrix, so nothing can check the
//           constraints here);
//   submit  r and s drawn on the calling thread (random_bytes, else the OS CSPRNG in the
//           engine), the partition queued on the engine, whose workers are the only pool of
//           provers (CPU, or the GPU backend's CUDA provers and their kept workers);
//   finish  the proof verified (a few ms: this is where a witness that does not satisfy the
//           circuit is caught), then snarkjs's JSON.
// Errors are service::error with an errc; a failed proof fails alone.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <future>
#include <memory>
#include <new>
#include <optional>
#include <semaphore>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "cuzk/engine/engine.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/binfile.hpp"
#include "cuzk/io/mapped_file.hpp"
#include "cuzk/io/snarkjs_json.hpp"
#include "cuzk/io/wtns.hpp"
#include "cuzk/io/zkey.hpp"
#include "cuzk/io/zkey_groth16.hpp"
#include "cuzk/service/gpu_backend.hpp"
#include "cuzk/service/options.hpp"
#include "cuzk/service/reading.hpp"
#include "cuzk/service/thread_scope.hpp"
#include "cuzk/service/verify.hpp"

namespace cuzk::service {

/// The randomisers' source as a UniformRandomBitGenerator over random_bytes.
class random_bytes_generator {
public:
    using result_type = uint64_t;
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return ~result_type(0); }
    explicit random_bytes_generator(const random_bytes& fill) : fill_(fill) {}
    result_type operator()() {
        unsigned char bytes[sizeof(result_type)];
        fill_(bytes);
        result_type v;
        std::memcpy(&v, bytes, sizeof v);  // little-endian bytes as the integer (the platform's order)
        groth16::secure_wipe(bytes);
        return v;
    }

private:
    const random_bytes& fill_;
};

template <class IoCurve>  // io::bn128 or io::bls12381
class zkey_prover {
public:
    using io_curve = IoCurve;
    using curve = io::groth16_curve_t<IoCurve>;
    using fr = typename curve::fr;
    /// One witness, read and ready to submit.
    struct witness {
        groth16::partition<fr> part;
        std::vector<fr> publics;
        double read_s = 0;  ///< reading, checks and a, b, c
    };

    /// Reads the zkey (errc::invalid_zkey, io) and makes the backend `o` asks for.
    static std::unique_ptr<zkey_prover> open(std::shared_ptr<const io::byte_source> zkey, const prover_options& o) {
        io::zkey_read_options ro;
        ro.zero_copy = o.where == backend::cpu || !gpu_backend_compiled() ||
                       (o.where == backend::automatic && gpu_device_count() == 0);
        auto z = reading(errc::invalid_zkey, [&] { return io::zkey<IoCurve>::read(std::move(zkey), ro); });
        return std::unique_ptr<zkey_prover>(new zkey_prover(std::move(z), o));
    }

    /// The witness in .wtns bytes (errc::curve_mismatch, invalid_witness, witness_length).
    witness read(std::span<const uint8_t> wtns) const {
        return read_from(std::make_shared<io::memory_source>(wtns, "wtns buffer"));
    }
    witness read_file(const std::string& path) const {
        return read_from(reading(errc::io, [&] { return std::make_shared<const io::file_source>(path); }));
    }

    /// Queues a witness's partition; r and s from `rnd` (drawn here) or the OS CSPRNG.
    std::future<groth16::proof<curve>> submit(groth16::partition<fr>&& part, const random_bytes& rnd = {}) {
        if (rnd) {
            random_bytes_generator g(rnd);
            groth16::given_randomisers<fr> rs{};
            groth16::draw_randomisers(rs.r, rs.s, g);
            part.randomisers = rs;
        }
        return engine_->submit(std::move(part));
    }

    /// The proof of a future from submit(), the engine's and backend's errors given their codes.
    groth16::proof<curve> wait(std::future<groth16::proof<curve>>& f) const {
        try {
            return f.get();
        } catch (const error&) {
            throw;
        } catch (const std::bad_alloc&) {
            throw error(errc::out_of_memory, "out of host memory");
        } catch (...) {
            const std::exception_ptr e = std::current_exception();
            std::optional<errc> code = classify_ ? classify_(e) : std::nullopt;
            try {
                std::rethrow_exception(e);
            } catch (const cuzk::invalid_argument& x) {
                throw error(code.value_or(errc::invalid_argument), x.what());
            } catch (const std::exception& x) {
                if (code) throw error(*code, x.what());
                throw;
            }
        }
    }

    /// proof.json and public.json of a proof, verified first unless the options say not to
    /// (errc::verify_failed: nothing is returned).
    proof_texts finish(const groth16::proof<curve>& pi, std::span<const fr> publics) const {
        if (opt_.verify) {
            const groth16::verdict v = groth16::verify_verdict(pk_->vk, publics, pi);
            if (v != groth16::verdict::ok)
                throw error(errc::verify_failed, std::string("the proof does not verify against the key's verifying key (") +
                                                     groth16::to_string(v) +
                                                     "): the witness does not satisfy the circuit (or the key's parts do not "
                                                     "belong together); no proof was written");
        }
        return {io::proof_to_json<IoCurve>(io::from_groth16<IoCurve>(pi)), io::public_to_json<IoCurve>(publics)};
    }

    /// read, submit, wait and finish, on the calling thread (the proof itself on a worker).
    proof_texts prove(std::span<const uint8_t> wtns, const random_bytes& rnd = {}) {
        admission a(slots_);  // first: the witness's memory counts too
        thread_scope threads(opt_.threads);
        witness w = read(wtns);
        auto f = submit(std::move(w.part), rnd);
        return finish(wait(f), w.publics);
    }

    prover_info info() const {
        using g1 = affine<typename curve::g1>;
        using g2 = affine<typename curve::g2>;
        const auto& pk = *pk_;
        prover_info i;
        i.curve = std::string(IoCurve::name);
        i.snarkjs_name = std::string(IoCurve::snarkjs_name);
        i.bn254 = std::is_same_v<IoCurve, io::bn128>;
        i.in_use = on_gpu() ? backend::gpu : backend::cpu;
        i.verify = opt_.verify;
        i.threads = opt_.threads;
        i.max_in_flight = opt_.max_in_flight;
        i.workers = workers_;
        i.n_vars = n_vars_;
        i.n_public = n_public_;
        i.domain_size = domain_size_;
        i.proof_json_max_bytes = io::proof_json_max_bytes<IoCurve>();
        i.public_json_max_bytes = io::public_json_max_bytes<IoCurve>(n_public_);
        i.host_key_bytes = (pk.a.size() + pk.b_g1.size() + pk.l.size() + pk.h.size() + pk.vk.ic.size()) * sizeof(g1) +
                           pk.b_g2.size() * sizeof(g2) + rows_.bytes();
        // The witness, a | b | c, and the largest split-off MSM input (msm_witness_host copies
        // the points and scalars that are neither 0 nor 1 when they are fewer than half; B2's
        // are the widest).
        const size_t nv = n_vars_;
        i.host_proof_bytes = (nv + 3 * size_t(domain_size_)) * sizeof(fr) +
                             (on_gpu() ? 0 : nv / 2 * (std::max(sizeof(g1), sizeof(g2)) + sizeof(fr)));
        if (gpu_) {
            i.gpu_device = opt_.devices.front();
            i.key_resident_on_gpu = gpu_->key_resident;
            i.vram_budget_bytes = gpu_->vram_budget_bytes;
            i.device_key_bytes = gpu_->device_key_bytes;
            i.device_proof_bytes = gpu_->device_proof_bytes;
        }
        i.note = note_;
        return i;
    }

    bool on_gpu() const { return gpu_.has_value(); }
    const groth16::proving_key<curve>& key() const { return *pk_; }
    const prover_options& options() const { return opt_; }
    unsigned workers() const { return workers_; }
    /// Host bytes of one witness's partition: the witness and a | b | c on the domain.
    size_t partition_bytes() const { return groth16::partition<fr>::bytes_with_abc(n_vars_, domain_size_); }
    /// The stages of every proof proved since the last call.
    std::vector<groth16::partition_trace> take_trace() { return engine_->take_trace(); }

private:
    static constexpr unsigned max_gpu_workers = 16;

    /// At most max_in_flight proofs at once (0: no limit); the others wait their turn.
    class admission {
    public:
        explicit admission(std::optional<std::counting_semaphore<>>& s) : s_(s) {
            if (s_) s_->acquire();
        }
        ~admission() {
            if (s_) s_->release();
        }
        admission(const admission&) = delete;
        admission& operator=(const admission&) = delete;

    private:
        std::optional<std::counting_semaphore<>>& s_;
    };

    zkey_prover(io::zkey<IoCurve>&& z, const prover_options& o)
        : opt_(o), n_vars_(z.n_vars), n_public_(z.n_public), domain_size_(z.domain_size) {
        if (opt_.devices.empty()) opt_.devices = {0};
        // Any count is a valid limit; the semaphore holds at most its max() (INT_MAX in libstdc++).
        if (opt_.max_in_flight)
            slots_.emplace(std::min<std::ptrdiff_t>(opt_.max_in_flight, std::counting_semaphore<>::max()));
        rows_ = reading(errc::invalid_zkey, [&] { return io::abc_rows<fr>(z.coeffs, z.domain_size, z.n_vars); });
        std::vector<io::zkey_coefficient<fr>>().swap(z.coeffs);  // rows_ holds them now
        pk_ = std::make_shared<const groth16::proving_key<curve>>(io::to_proving_key(std::move(z)));
        choose_backend();
        workers_ = worker_count();
        std::vector<groth16::engine_slot<curve>> slots;
        if (gpu_) slots = gpu_->slots;
        else slots.push_back({-1, std::make_shared<const groth16::prover<curve>>(pk_)});
        groth16::engine_options eo{.workers_per_slot = workers_,
                                   .max_queued_bytes = (size_t(slots.size()) * workers_ + 1) * partition_bytes()};
        if (gpu_) eo.device_lost = gpu_->device_lost, classify_ = gpu_->classify;
        if (opt_.threads) eo.on_worker_start = [t = opt_.threads](size_t, unsigned) { set_thread_count(t); };
        engine_ = std::make_unique<groth16::engine<curve>>(std::move(slots), std::move(eo));
    }

    void choose_backend() {
        if (opt_.where == backend::cpu) return;
        if (opt_.where == backend::gpu) {
            gpu_ = make_gpu_backend<curve>(pk_, opt_);
        } else if (!gpu_backend_compiled()) {
            return;
        } else if (gpu_device_count() == 0) {
            note_ = "no CUDA device is present: proving on the CPU";
            return;
        } else {
            try {
                gpu_ = make_gpu_backend<curve>(pk_, opt_);
            } catch (const std::exception& e) {
                note_ = std::string("GPU not used, proving on the CPU: ") + e.what();
                return;
            }
        }
        note_ = gpu_->note;
    }

    unsigned worker_count() const {
        if (opt_.workers_per_device) return opt_.workers_per_device;
        // On the GPU a worker per proof allowed in flight, up to max_gpu_workers: each proof needs
        // its own VRAM share, so more threads than the budget holds proofs would only wait.
        if (gpu_) return opt_.max_in_flight ? std::min(opt_.max_in_flight, max_gpu_workers) : 2;
        if (!opt_.threads) return 1;
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        const unsigned fit = std::max(1u, cores / opt_.threads);
        return opt_.max_in_flight ? std::min(fit, opt_.max_in_flight) : fit;
    }

    witness read_from(std::shared_ptr<const io::byte_source> src) const {
        const auto t0 = std::chrono::steady_clock::now();
        constexpr io::curve_id mine = std::is_same_v<IoCurve, io::bn128> ? io::curve_id::bn254 : io::curve_id::bls12_381;
        if (const auto other = io::wtns_curve(src); other && *other != mine)
            throw error(errc::curve_mismatch, std::string("the witness is for ") + std::string(io::curve_label(*other)) +
                                                  " (its field prime), the key for " + std::string(io::curve_label(mine)));
        io::wtns<IoCurve> w = reading(errc::invalid_witness, [&] { return io::wtns<IoCurve>::read(std::move(src)); });
        if (w.values.size() != n_vars_)
            throw error(errc::witness_length, "Invalid witness length. Circuit: " + std::to_string(n_vars_) +
                                                  ", witness: " + std::to_string(w.values.size()));
        witness out;
        out.publics.assign(w.values.begin() + 1, w.values.begin() + 1 + std::ptrdiff_t(n_public_));
        out.part.abc = rows_.evaluate(w.values);
        out.part.z = std::move(w.values);
        out.read_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return out;
    }

    prover_options opt_;
    uint32_t n_vars_, n_public_, domain_size_;
    io::abc_rows<fr> rows_;
    std::shared_ptr<const groth16::proving_key<curve>> pk_;
    std::optional<gpu_backend<curve>> gpu_;
    std::function<std::optional<errc>(std::exception_ptr)> classify_;
    std::string note_;
    unsigned workers_ = 1;
    std::optional<std::counting_semaphore<>> slots_;
    std::unique_ptr<groth16::engine<curve>> engine_;  // last: its workers use everything above
};

/// A zkey_prover of either curve, the curve read from the zkey's header: what the C handle holds.
class resident_prover {
public:
    static resident_prover open(std::shared_ptr<const io::byte_source> zkey, const prover_options& o) {
        const io::curve_id c = reading(errc::invalid_zkey, [&] {
            return io::zkey_curve(io::binfile(zkey, "zkey", 1, &io::zkey<io::bn128>::section_name));
        });
        if (c == io::curve_id::bn254) return resident_prover(zkey_prover<io::bn128>::open(std::move(zkey), o));
        return resident_prover(zkey_prover<io::bls12381>::open(std::move(zkey), o));
    }
    proof_texts prove(std::span<const uint8_t> wtns, const random_bytes& rnd = {}) {
        return std::visit([&](auto& p) { return p->prove(wtns, rnd); }, p_);
    }
    prover_info info() const {
        return std::visit([](const auto& p) { return p->info(); }, p_);
    }
    /// A proof's texts against the key's verifying key (service/verify.hpp). Thread-safe.
    verify_outcome verify(std::string_view proof_json, std::string_view public_json) const {
        return std::visit([&]<class P>(const std::unique_ptr<P>& p) {
            return verify_texts<typename P::io_curve>(p->key().vk, proof_json, public_json);
        }, p_);
    }

private:
    using variant = std::variant<std::unique_ptr<zkey_prover<io::bn128>>, std::unique_ptr<zkey_prover<io::bls12381>>>;
    explicit resident_prover(variant p) : p_(std::move(p)) {}
    variant p_;
};

/// Bytes (with the NUL) that hold any public.json of the key's circuit, from its header alone.
inline unsigned long long public_json_max_bytes(std::shared_ptr<const io::byte_source> zkey) {
    return reading(errc::invalid_zkey, [&] {
        io::binfile f(std::move(zkey), "zkey", 1, &io::zkey<io::bn128>::section_name);
        if (io::zkey_curve(f) == io::curve_id::bn254)
            return io::public_json_max_bytes<io::bn128>(io::zkey_n_public<io::bn128>(f));
        return io::public_json_max_bytes<io::bls12381>(io::zkey_n_public<io::bls12381>(f));
    });
}

// Compiled once, in cuzk::service (src/service/zkey_prover.cpp).
extern template class zkey_prover<io::bn128>;
extern template class zkey_prover<io::bls12381>;

/// Bytes (with the NUL) that hold any proof.json of either curve.
inline unsigned long long proof_json_max_bytes() {
    return std::max(io::proof_json_max_bytes<io::bn128>(), io::proof_json_max_bytes<io::bls12381>());
}

}  // namespace cuzk::service
