// SPDX-License-Identifier: MIT OR Apache-2.0
// Prime-order subgroup membership of many affine points on the GPU: one thread a point, each
// running the exact per-point test of ec/subgroup.hpp (is_in_subgroup: the endomorphism tests
// phi(P) == [-x^2]P on BLS12-381 G1 and psi(P) == [x]P on G2, the seed test on BN254 G2), so the
// device verdict is the host's, point for point. A random linear combination of the points would
// be one scalar multiplication for the whole batch, but it only catches a bad point with
// probability 1 - 1/ell for the smallest prime ell of the cofactor, and BLS12-381 G1's cofactor
// has the factor 3: a third of the combinations would miss a point of order 3r.
//
// Layers:
//   subgroup_verdicts_async(out, pts, n, s)           out[i] = 1 if pts[i] is in the group (device)
//   subgroup_first_bad_async(first, pts, n, base, s)  *first = min(*first, base + i) over the bad i
//   first_not_in_subgroup_device(pts, stream[, staging])
//                                                     host points streamed through the GPU in
//                                                     chunks, copies overlapping the checks
//                                                     (subgroup_staging: reusable slots)
// Points are public (decoded key files), so the checks are variable time, as on the host.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <span>
#include <vector>

#include "cuzk/core/error.hpp"
#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/subgroup.hpp"
#include "cuzk/gpu/cuda_error.hpp"
#include "cuzk/gpu/device_buffer.hpp"
#include "cuzk/gpu/event.hpp"
#include "cuzk/gpu/stream.hpp"

namespace cuzk {

namespace detail {

/// Threads per block of the subgroup kernels. Each thread is one long scalar multiplication with
/// no shared memory, so the block size only sets the granularity of the tail; 128 keeps a block's
/// registers within one SM's share at the register counts these kernels use.
inline constexpr unsigned subgroup_block = 128;

template <class G>
__global__ void subgroup_verdicts_kernel(uint8_t* out, const affine<G>* pts, size_t n) {
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = is_in_subgroup(pts[i]) ? 1 : 0;
}

template <class G>
__global__ void subgroup_first_bad_kernel(unsigned long long* first_bad, const affine<G>* pts, size_t n,
                                          uint64_t base) {
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n) return;
    // A failure already found before this point decides the answer: skip the work. The read may
    // be stale (another block lowering it concurrently), which only costs a redundant test.
    if (base + i >= *static_cast<volatile unsigned long long*>(first_bad)) return;
    if (!is_in_subgroup(pts[i])) atomicMin(first_bad, static_cast<unsigned long long>(base + i));
}

inline unsigned subgroup_grid(size_t n) { return unsigned((n + subgroup_block - 1) / subgroup_block); }

}  // namespace detail

/// Enqueues on `s`: out[i] = 1 when pts[i] (device memory, on the curve, the identity allowed) is
/// in the order-r subgroup, else 0. n < 2^31 * 128.
template <class G>
void subgroup_verdicts_async(uint8_t* out, const affine<G>* pts, size_t n, cudaStream_t s) {
    if (n == 0) return;
    detail::subgroup_verdicts_kernel<G><<<detail::subgroup_grid(n), detail::subgroup_block, 0, s>>>(out, pts, n);
    CUZK_CUDA_CHECK_LAUNCH("subgroup_verdicts_kernel");
}

/// Enqueues on `s`: lowers *first_bad (device memory) to base + i for the least i < n whose
/// pts[i] (device memory, on the curve) is not in the order-r subgroup; points at or past the
/// current *first_bad are skipped. Several calls may share one first_bad from several streams.
template <class G>
void subgroup_first_bad_async(unsigned long long* first_bad, const affine<G>* pts, size_t n, uint64_t base,
                              cudaStream_t s) {
    if (n == 0) return;
    detail::subgroup_first_bad_kernel<G>
        <<<detail::subgroup_grid(n), detail::subgroup_block, 0, s>>>(first_bad, pts, n, base);
    CUZK_CUDA_CHECK_LAUNCH("subgroup_first_bad_kernel");
}

/// How first_not_in_subgroup_device moves the points.
struct subgroup_stream_config {
    /// Points a chunk (one copy and one launch). 2^20 G1 points are 96 MiB: a chunk's check (tens
    /// of ms) is long against the launch and event overheads, and three chunks in flight fit
    /// any card.
    size_t chunk_points = size_t(1) << 20;
    /// Chunks in flight, each with its own stream, page-locked slot and device buffer: with two
    /// or more the copy of one chunk overlaps the check of another.
    unsigned lanes = 3;
};

namespace detail {

/// One page-locked host allocation. cudaFreeHost waits for nothing of ours: the staging below
/// has waited for every copy out of it before it goes.
class pinned_bytes {
public:
    explicit pinned_bytes(size_t bytes) {
        if (bytes != 0) CUZK_CUDA_CHECK(cudaHostAlloc(&p_, bytes, cudaHostAllocPortable));
    }
    ~pinned_bytes() {
        if (p_ != nullptr) cudaFreeHost(p_);
    }
    pinned_bytes(const pinned_bytes&) = delete;
    pinned_bytes& operator=(const pinned_bytes&) = delete;
    void* data() const { return p_; }

private:
    void* p_ = nullptr;
};

}  // namespace detail

/// The reusable resources of first_not_in_subgroup_device, on the device current when it is
/// constructed: `lanes` streams, each with a page-locked slot and a device buffer of `slot_bytes`
/// (allocated here, once: page-locking hundreds of MiB is a cost of its own, not part of a check,
/// so a caller that checks many arrays keeps one). Not for concurrent use by several threads.
class subgroup_staging {
public:
    explicit subgroup_staging(size_t slot_bytes, unsigned lanes = 3)
        : slot_bytes_(slot_bytes), answer_(std::make_unique<detail::pinned_bytes>(sizeof(unsigned long long))) {
        for (unsigned i = 0; i < std::max(1u, lanes); ++i) {
            auto l = std::make_unique<lane>(slot_bytes);
            lanes_.push_back(std::move(l));
        }
    }
    /// Slots for cfg.chunk_points points of group G.
    template <class G>
    static subgroup_staging for_group(const subgroup_stream_config& cfg = {}) {
        return subgroup_staging(std::max<size_t>(1, cfg.chunk_points) * sizeof(affine<G>), cfg.lanes);
    }
    subgroup_staging(subgroup_staging&&) noexcept = default;
    ~subgroup_staging() {
        for (auto& l : lanes_)
            if (l) (void)gpu::wait_noexcept(l->s);  // no copy may still read a slot when it is freed
    }

    size_t slot_bytes() const { return slot_bytes_; }
    unsigned lanes() const { return unsigned(lanes_.size()); }

    /// The body of first_not_in_subgroup_device (which see).
    template <class G>
    uint64_t first_not_in_subgroup(std::span<const affine<G>> pts, cudaStream_t stream) {
        const uint64_t n = pts.size();
        if (n == 0) return 0;
        const size_t chunk = slot_bytes_ / sizeof(affine<G>);
        if (chunk == 0) throw invalid_argument("subgroup_staging: a slot smaller than one point");
        const uint64_t chunks = (n + chunk - 1) / chunk;
        const unsigned used = unsigned(std::min<uint64_t>(lanes_.size(), chunks));
        auto* h_first = static_cast<unsigned long long*>(answer_->data());
        gpu::wait_on_unwind w0(stream);
        for (unsigned i = 0; i < used; ++i) lanes_[i]->filled = false;
        *h_first = n;
        gpu::device_buffer<unsigned long long> d_first(1, stream);
        CUZK_CUDA_CHECK(cudaMemcpyAsync(d_first.data(), h_first, sizeof(*h_first), cudaMemcpyHostToDevice, stream));
        ready_.record(stream);
        // On an exception every lane's queued work finishes before the slots are reused or freed.
        struct drain {
            subgroup_staging& st;
            int exceptions = std::uncaught_exceptions();
            ~drain() {
                if (std::uncaught_exceptions() > exceptions)
                    for (auto& l : st.lanes_) (void)gpu::wait_noexcept(l->s);
            }
        } guard{*this};
        for (unsigned i = 0; i < used; ++i) CUZK_CUDA_CHECK(cudaStreamWaitEvent(lanes_[i]->s, ready_, 0));
        for (uint64_t k = 0; k < chunks; ++k) {
            lane& l = *lanes_[k % used];
            const uint64_t lo = k * chunk;
            const size_t len = size_t(std::min<uint64_t>(chunk, n - lo));
            if (l.filled) l.copied.synchronize();  // the slot's last DMA is done: refill it
            std::memcpy(l.slot.data(), pts.data() + lo, len * sizeof(affine<G>));
            auto* d = reinterpret_cast<affine<G>*>(l.buf.data());
            CUZK_CUDA_CHECK(cudaMemcpyAsync(d, l.slot.data(), len * sizeof(affine<G>), cudaMemcpyHostToDevice, l.s));
            l.copied.record(l.s);
            l.filled = true;
            subgroup_first_bad_async<G>(d_first.data(), d, len, lo, l.s);
        }
        for (unsigned i = 0; i < used; ++i) {
            lanes_[i]->done.record(lanes_[i]->s);
            CUZK_CUDA_CHECK(cudaStreamWaitEvent(stream, lanes_[i]->done, 0));
        }
        d_first.download(h_first, stream);  // page-locked: queued, the wait below is the only one
        gpu::wait(stream);  // after the lanes (stream waited for them): the slots are free again
        return *h_first;
    }

private:
    struct lane {
        explicit lane(size_t bytes) : slot(bytes), buf(bytes, s) {}
        gpu::stream s;
        gpu::event copied{false};
        gpu::event done{false};
        detail::pinned_bytes slot;
        gpu::device_buffer<uint8_t> buf;  // allocated on s, freed on s
        bool filled = false;
    };
    size_t slot_bytes_;
    std::unique_ptr<detail::pinned_bytes> answer_;
    gpu::event ready_{false};
    std::vector<std::unique_ptr<lane>> lanes_;
};

/// The index of the first point of `pts` (host memory, every point on the curve, the identity
/// allowed) that is not in the order-r subgroup, or pts.size() when all are: the verdict of
/// decode_points' subgroup path, checked on the current device. The points go in chunks of
/// staging.slot_bytes() through its lanes, each chunk copied into a page-locked slot, sent and
/// checked on its lane's stream, so the host copy into one slot, the DMA of another and the
/// checks of the others overlap; the lanes start after `stream`'s queued work and `stream` waits
/// for them. Returns once the answer is on the host (it waits on `stream`, never on the device).
/// Throws cuda_error on a CUDA failure.
template <class G>
uint64_t first_not_in_subgroup_device(std::span<const affine<G>> pts, cudaStream_t stream,
                                      subgroup_staging& staging) {
    return staging.template first_not_in_subgroup<G>(pts, stream);
}

/// The same with staging of its own for this call (cfg: chunk size and lanes).
template <class G>
uint64_t first_not_in_subgroup_device(std::span<const affine<G>> pts, cudaStream_t stream,
                                      const subgroup_stream_config& cfg = {}) {
    if (pts.empty()) return 0;
    subgroup_stream_config c = cfg;
    c.chunk_points = std::min<size_t>(std::max<size_t>(1, c.chunk_points), pts.size());
    c.lanes = unsigned(std::min<uint64_t>(std::max(1u, c.lanes), (pts.size() + c.chunk_points - 1) / c.chunk_points));
    auto staging = subgroup_staging::for_group<G>(c);
    return staging.template first_not_in_subgroup<G>(pts, stream);
}

}  // namespace cuzk

/// Explicit instantiation (prefix empty) or its extern declaration (prefix `extern`) of the
/// subgroup kernels' launchers for group G: see cuzk/instances.hpp. The extern declarations for
/// the shipped groups are in io/subgroup_check_device.cuh (ec/ ranks below instances.hpp and
/// names no curve); a TU that includes only this header compiles its own kernels.
#define CUZK_SUBGROUP_INSTANCES(prefix, G)                                                                    \
    prefix template void cuzk::subgroup_verdicts_async<G>(uint8_t*, const ::cuzk::affine<G>*, size_t,         \
                                                          cudaStream_t);                                     \
    prefix template void cuzk::subgroup_first_bad_async<G>(unsigned long long*, const ::cuzk::affine<G>*, size_t, \
                                                           uint64_t, cudaStream_t);
