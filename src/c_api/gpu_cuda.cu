// The GPU backend of libcuzk_prover: groth16::prover with a cuda_policy over a resident key.
// Compiled only when CUDA is enabled (src/c_api/CMakeLists.txt); the CPU-only build uses
// gpu_none.cpp instead. With cuzk::instances linked (CUZK_PRECOMPILED) this TU compiles none of
// the heavy kernels.
#include <cuda_runtime.h>

#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cuzk/groth16/cuda/prover.cuh"
#include "engine.hpp"

namespace cuzk::c_api {

namespace {

/// Split locks (a worker uploads while another computes), the key staged once when the budget
/// holds it beside one proof, G2 on the GPU: the policy for many threads on one key
/// (docs/GROTH16.md).
using policy = groth16::cuda_policy<groth16::lock_granularity::split, groth16::staging::prestaged, true>;

[[noreturn]] void rethrow_as_failure(const char* what_failed) {
    try {
        throw;
    } catch (const failure&) {
        throw;
    } catch (const cuda_error& e) {
        const int code = e.code() == cudaErrorMemoryAllocation ? CUZK_PROVER_ERROR_OUT_OF_MEMORY
                                                               : CUZK_PROVER_ERROR_GPU;
        throw failure(code, std::string(what_failed) + ": " + e.what());
    }
}

/// The device's memory, the default budget's base (a property of the device, not a query of
/// what is free: the budget is ours to account, gpu/vram_budget.hpp).
size_t checked_budget(const gpu_settings& s) {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        (void)cudaGetLastError();
        throw failure(CUZK_PROVER_ERROR_NO_GPU, "backend GPU: no CUDA device is present");
    }
    if (s.device < 0 || s.device >= n)
        throw failure(CUZK_PROVER_ERROR_INVALID_ARGUMENT,
                      "gpu_device " + std::to_string(s.device) + " does not exist (" + std::to_string(n) + " devices)");
    if (s.vram_budget_bytes) return s.vram_budget_bytes;
    cudaDeviceProp prop{};
    CUZK_CUDA_CHECK(cudaGetDeviceProperties(&prop, s.device));
    return size_t(0.9 * double(prop.totalGlobalMem));
}

/// The workers (groth16::cuda_worker: streams, one proof's device buffers, an upload ring, a
/// share of the budget) that a prover's proofs run on, kept between proofs and shared by the
/// calling threads: a proof takes a free one, else one is made while the budget has room (and
/// fewer than `limit` exist, 0: no limit), else it waits for one to be given back. One thread
/// makes a worker at a time, so that two first proofs cannot both miss the room for one. Before,
/// every proof made its own and freed it (streams, buffers, the page-locked ring: set-up that a
/// kept worker pays once). Destroyed before the prover (declared after it).
template <class Prover>
class worker_pool {
public:
    using worker = typename Prover::worker;

    worker_pool(const Prover& prover, size_t limit) : prover_(prover), limit_(limit) {}

    /// A worker of the pool, given back by its destructor.
    class lease {
    public:
        lease(worker_pool& pool, std::unique_ptr<worker> w) : pool_(pool), w_(std::move(w)) {}
        ~lease() { pool_.give_back(std::move(w_)); }
        lease(const lease&) = delete;
        lease& operator=(const lease&) = delete;
        worker& get() { return *w_; }

    private:
        worker_pool& pool_;
        std::unique_ptr<worker> w_;
    };

    lease take() {
        std::unique_lock lock(m_);
        for (;;) {
            if (!free_.empty()) {
                std::unique_ptr<worker> w = std::move(free_.back());
                free_.pop_back();
                return lease(*this, std::move(w));
            }
            if (making_) {
                cv_.wait(lock, [&] { return !making_ || !free_.empty(); });
                continue;
            }
            if (limit_ == 0 || made_ < limit_) {
                making_ = true;
                lock.unlock();
                std::unique_ptr<worker> w;
                try {
                    w = prover_.try_make_worker();
                } catch (...) {
                    lock.lock();
                    making_ = false;
                    cv_.notify_all();
                    throw;
                }
                lock.lock();
                making_ = false;
                cv_.notify_all();
                if (w) {
                    free_.reserve(made_ + 1);  // give_back (from a destructor) never allocates
                    ++made_;
                    return lease(*this, std::move(w));
                }
                // No room. The budget holds the resident part and one proof (the constructor
                // checked), and only workers draw on it after that: none exists only if that changed.
                if (made_ == 0)
                    throw failure(CUZK_PROVER_ERROR_OUT_OF_MEMORY, "no worker (one proof's " +
                                                                       std::to_string(prover_.per_proof_bytes()) +
                                                                       " bytes of VRAM) fits the budget");
            }
            cv_.wait(lock, [&] { return !free_.empty(); });
        }
    }

private:
    void give_back(std::unique_ptr<worker> w) {
        std::lock_guard lock(m_);
        free_.push_back(std::move(w));
        cv_.notify_all();
    }

    const Prover& prover_;
    const size_t limit_;
    std::mutex m_;
    std::condition_variable cv_;
    std::vector<std::unique_ptr<worker>> free_;
    size_t made_ = 0;
    bool making_ = false;
};

template <class Curve>
class cuda_backend final : public gpu_prover<Curve> {
public:
    using fr = typename Curve::fr;

    cuda_backend(std::shared_ptr<const groth16::proving_key<Curve>> pk, const gpu_settings& s, size_t budget)
        : ctx_(s.device, budget), prover_(std::move(pk), ctx_), workers_(prover_, s.max_workers) {
        // One proof must fit beside the resident part, else every prove would fail: say so now.
        const size_t need = prover_.per_proof_bytes(), left = budget - ctx_.budget().resident();
        if (need > left)
            throw failure(CUZK_PROVER_ERROR_OUT_OF_MEMORY,
                          "one proof needs " + std::to_string(need) + " bytes of VRAM, the budget of " +
                              std::to_string(budget) + " bytes leaves " + std::to_string(left));
    }

    groth16::proof<Curve> prove_from_abc(std::span<const fr> z, std::vector<fr> abc,
                                         random_source& rng) const override {
        try {
            auto w = workers_.take();
            return prover_.prove_from_abc(w.get(), z, std::move(abc), rng);
        } catch (...) {
            rethrow_as_failure("GPU proof");
        }
    }
    bool key_resident() const override { return prover_.key_resident(); }
    size_t vram_budget_bytes() const override { return ctx_.budget().capacity(); }
    size_t device_key_bytes() const override {
        return prover_.key_resident() ? groth16::detail::device_key<Curve>::bytes_for(prover_.key()) : 0;
    }
    size_t device_proof_bytes() const override { return prover_.per_proof_bytes(); }
    std::string note() const override { return prover_.fallback_reason(); }

private:
    using prover_type = groth16::prover<Curve, policy>;
    mutable groth16::gpu_context ctx_;  // outlives prover_ (declared first); its locks are taken by const proves
    prover_type prover_;
    mutable worker_pool<prover_type> workers_;  // destroyed first: its workers hold shares of ctx_'s budget
};

}  // namespace

int gpu_device_count() {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return n;
}

bool gpu_backend_compiled() { return true; }

template <class Curve>
std::unique_ptr<gpu_prover<Curve>> make_gpu_prover(std::shared_ptr<const groth16::proving_key<Curve>> pk,
                                                   const gpu_settings& settings) {
    try {
        const size_t budget = checked_budget(settings);
        return std::make_unique<cuda_backend<Curve>>(std::move(pk), settings, budget);
    } catch (...) {
        rethrow_as_failure("GPU prover set-up");
    }
}

template std::unique_ptr<gpu_prover<bn254::curve>> make_gpu_prover(
    std::shared_ptr<const groth16::proving_key<bn254::curve>>, const gpu_settings&);
template std::unique_ptr<gpu_prover<bls12_381::curve>> make_gpu_prover(
    std::shared_ptr<const groth16::proving_key<bls12_381::curve>>, const gpu_settings&);

}  // namespace cuzk::c_api
