// SPDX-License-Identifier: MIT OR Apache-2.0
// Multi-scalar multiplication on one GPU: Pippenger with signed digits, buckets grouped by a
// radix sort, load-balanced accumulation, and a two-level parallel bucket fold.
//
//   size_t bytes = cuzk::msm::msm_device_workspace_bytes<G>(n);          // 1. ask
//   void* ws;  cudaMallocAsync(&ws, bytes, stream);                      // 2. caller allocates
//   jacobian<G> r = cuzk::msm::msm_device<G>(d_points, d_scalars, n, ws, bytes, stream);
//   // or, several MSMs on one stream and one wait (pending_sum.cuh):
//   msm::pending_sum<G> p = cuzk::msm::msm_device_enqueue<G>(d_points, d_scalars, n, ws, bytes, stream, area);
//
// Pipeline (all on the caller's stream; no device-global call anywhere):
//  1. digits   one thread per scalar: reduce mod r, write for every window w a key
//              w * 2^(c-1) + |d| - 1 (or the sentinel K = W * 2^(c-1) for d = 0) and a value
//              (point index | sign << 31).
//  2. sort     CUB radix sort of the W * n (key, value) pairs on the key's bits only; equal keys
//              (one bucket) become contiguous runs; zero digits sink to the end.
//  3. starts   start[k] = first position of key k (one pass over the sorted keys).
//  4. accumulate  the sorted array is cut into equal segments of L pairs, one thread each, so
//              the work per thread is the same whatever the bucket sizes (all scalars equal is as
//              fast as random ones). A thread adds its runs into XYZZ sums; a run wholly inside
//              its segment is written to its bucket; a run cut by a segment edge leaves a partial
//              sum (tail of the segment where it starts, head of every later one), which a
//              thread (a warp for a long run) per cut run adds up (fixup kernels). Or (G2 from
//              affine_min_items pairs on: device_accumulation) batch-affine, batch_affine_device.cuh:
//              a thread walks 32 chains of its segment in lockstep, affine sums sharing one
//              inversion per step, and emits the same buckets, head and tail.
//  5. fold (level 1)  per window, the 2^(c-1) buckets are cut into S segments of M; a thread
//              computes run_j = sum B_b and acc_j = sum (b - jM + 1) B_b by running sums.
//  6. fold (level 2)  one block per window: sum_b (b+1) B_b = sum_j acc_j + M sum_j j run_j; the
//              inner sum is the same running-sum trick over the S segments, then a block-wide tree.
//              (With shifted bases there is one big bucket set: it is folded as V groups of
//              buckets, each like a window, and the host adds each group's offset g L times its
//              plain total; see pending_sum.cuh.)
//  7. combine  the W window sums are queued into page-locked memory (a gpu::result_area) and
//              combined by Horner's rule on the host after the stream's wait (pending_sum.cuh):
//              c doublings per window are a long serial chain, fast on a CPU core and slow on
//              one GPU thread. msm_device waits itself; msm_device_enqueue leaves the wait to the
//              caller, so several MSMs on one stream cost one wait.
//
// Steps 1-3 read only the scalars (msm_sort_digits, per scalar field), steps 4-7 the sorted digits
// and the points (msm_accumulate_enqueue, per group): one set of sorted digits can serve several
// accumulations over different bases (the witness plan's, witness_plan.cuh).
// Scalars are reduced mod r (signed_digits.hpp); points are affine with (0, 0) as the identity.
// Time depends on the scalars (vartime): MSM inputs are public or the caller accepts the leak.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cuzk/core/error.hpp"
#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/xyzz.hpp"
#include "cuzk/gpu/cuda_error.hpp"
#include "cuzk/gpu/device_buffer.hpp"
#include "cuzk/gpu/event.hpp"
#include "cuzk/gpu/result_area.hpp"
#include "cuzk/gpu/stream.hpp"
#include "cuzk/msm/device_plan.cuh"
#include "cuzk/msm/pending_sum.cuh"
#include "cuzk/msm/pippenger_kernels.cuh"

namespace cuzk::msm {

namespace detail {

/// Device pointers to one MSM's sorted digits (steps 1-3, in a digit_plan's region): what the
/// accumulation (steps 4-7) reads, and never writes.
struct sorted_digits {
    const uint32_t* keys = nullptr;      // sorted keys: bucket k, or the sentinel K for a zero digit
    const uint32_t* vals = nullptr;      // point index | sign << 31, in the keys' order
    const uint32_t* start = nullptr;     // start[k]: first position of key k, k in [0, K]
    const uint32_t* overflow = nullptr;  // non-zero when a scalar does not fit the windows
};

/// Steps 1-3 for a digit plan into its region (plan.bytes bytes at `region`), on `stream`:
/// table_stride != 0 when the points are a table of shifted bases (fixed_bases.cuh) with that
/// many points per window; with `indices` (device memory, plan.n entries) the digits are those
/// of the scalars at those indices, and name their points so. Reads only the scalars: the
/// result serves accumulations over any bases of the same shape.
template <class Fr>
sorted_digits msm_sort_digits(const digit_plan<Fr>& plan, const typename Fr::integer* scalars, const uint32_t* indices,
                              size_t table_stride, void* region, cudaStream_t stream, scalar_form form) {
    char* ws = static_cast<char*>(region);
    uint32_t* keys0 = reinterpret_cast<uint32_t*>(ws + plan.o_keys0);
    uint32_t* keys1 = reinterpret_cast<uint32_t*>(ws + plan.o_keys1);
    uint32_t* vals0 = reinterpret_cast<uint32_t*>(ws + plan.o_vals0);
    uint32_t* vals1 = reinterpret_cast<uint32_t*>(ws + plan.o_vals1);
    uint32_t* start = reinterpret_cast<uint32_t*>(ws + plan.o_start);
    uint32_t* overflow = reinterpret_cast<uint32_t*>(ws + plan.o_overflow);
    const unsigned blk = detail::msm_block;
    auto grid = [](size_t threads, unsigned block) { return unsigned((threads + block - 1) / block); };

    CUZK_CUDA_CHECK(cudaMemsetAsync(overflow, 0, sizeof(uint32_t), stream));
    detail::msm_digits_kernel<Fr><<<grid(plan.n, blk), blk, 0, stream>>>(
        keys0, vals0, overflow, scalars, indices, plan.n, plan.c, plan.windows, form, table_stride);
    CUZK_CUDA_CHECK_LAUNCH("msm_digits_kernel");

    cub::DoubleBuffer<uint32_t> dk(keys0, keys1), dv(vals0, vals1);
    size_t cub_bytes = plan.cub_bytes;
    CUZK_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(ws + plan.o_cub, cub_bytes, dk, dv, int(plan.items), 0,
                                                    int(plan.key_bits), stream));

    detail::msm_starts_kernel<uint32_t>
        <<<grid(plan.items + 1, 256), 256, 0, stream>>>(start, dk.Current(), plan.items, plan.keys);
    CUZK_CUDA_CHECK_LAUNCH("msm_starts_kernel");
    return {dk.Current(), dv.Current(), start, overflow};
}

/// Steps 4-7 for a plan over sorted digits (plan.digits' shape), its accumulation region
/// (plan.accumulation_bytes bytes at `region`) and the points the digits name, enqueued on
/// `stream`; the window sums and the overflow flag are queued into `out`, and the returned sum is
/// theirs once the stream has passed them (pending_sum.cuh). The digits are only read: several
/// accumulations (over different bases) may use them one after another.
template <class G>
pending_sum<G> msm_accumulate_enqueue(const device_plan<G>& plan, const sorted_digits& d, const affine<G>* points,
                                      void* region, cudaStream_t stream, gpu::result_area& out) {
    using bucket = xyzz<G>;
    const auto& dp = plan.digits;
    char* ws = static_cast<char*>(region);
    bucket* buckets = reinterpret_cast<bucket*>(ws + plan.o_buckets);
    bucket* head = reinterpret_cast<bucket*>(ws + plan.o_head);
    bucket* tail = reinterpret_cast<bucket*>(ws + plan.o_tail);
    bucket* run = reinterpret_cast<bucket*>(ws + plan.o_run);
    bucket* acc = reinterpret_cast<bucket*>(ws + plan.o_acc);
    bucket* win = reinterpret_cast<bucket*>(ws + plan.o_win);
    bucket* tot = reinterpret_cast<bucket*>(ws + plan.o_tot);  // T scratch rows, then the V totals

    const unsigned blk = detail::msm_block;
    auto grid = [](size_t threads, unsigned block) { return unsigned((threads + block - 1) / block); };

    size_t seg_len = plan.seg_len, segs = plan.segs;
    if (plan.batch_affine) {
        // One full wave: as many threads as fit on the GPU at once (at most plan.segs), each
        // with affine_chains chains of the same length.
        int device = 0, sms = 0, per_sm = 0;
        CUZK_CUDA_CHECK(cudaGetDevice(&device));
        CUZK_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        CUZK_CUDA_CHECK(
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, msm_accumulate_affine_kernel<G>, affine_block, 0));
        const size_t wave = std::max<size_t>(1, size_t(sms) * size_t(per_sm) * affine_block);
        const size_t threads = std::min(plan.segs, wave);
        const size_t chain_len = (dp.items + threads * affine_chains - 1) / (threads * affine_chains);
        seg_len = chain_len * affine_chains;
        segs = (dp.items + seg_len - 1) / seg_len;
        detail::msm_accumulate_affine_kernel<G><<<grid(segs, affine_block), affine_block, 0, stream>>>(
            buckets, head, tail, d.keys, d.vals, d.start, points, chain_len, segs, dp.keys);
        CUZK_CUDA_CHECK_LAUNCH("msm_accumulate_affine_kernel");
    } else {
        detail::msm_accumulate_kernel<G><<<grid(segs, blk), blk, 0, stream>>>(buckets, head, tail, d.keys, d.vals,
                                                                              d.start, points, seg_len, segs, dp.keys);
        CUZK_CUDA_CHECK_LAUNCH("msm_accumulate_kernel");
    }

    detail::msm_fixup_short_kernel<G>
        <<<grid(segs, blk), blk, 0, stream>>>(buckets, head, tail, d.keys, d.start, seg_len, segs, dp.keys);
    CUZK_CUDA_CHECK_LAUNCH("msm_fixup_short_kernel");
    detail::msm_fixup_long_kernel<G>
        <<<grid(segs * 32, blk), blk, 0, stream>>>(buckets, head, tail, d.keys, d.start, seg_len, segs, dp.keys);
    CUZK_CUDA_CHECK_LAUNCH("msm_fixup_long_kernel");

    detail::msm_fold1_kernel<G><<<grid(size_t(dp.fold_sets) * dp.fold_segs, blk), blk, 0, stream>>>(
        run, acc, buckets, d.start, dp.fold_buckets, dp.fold_len, dp.fold_segs, dp.fold_sets);
    CUZK_CUDA_CHECK_LAUNCH("msm_fold1_kernel");

    bucket* totals = tot + size_t(dp.fold_sets) * dp.fold2_threads;
    detail::msm_fold2_kernel<G><<<dp.fold_sets, dp.fold2_threads, 0, stream>>>(win, totals, run, acc, tot, dp.fold_len,
                                                                               dp.fold_segs, dp.fold2_len);
    CUZK_CUDA_CHECK_LAUNCH("msm_fold2_kernel");

    // The W window sums (or a table's V group sums and totals) go to the host and are combined
    // there (Horner's rule): c doublings per window are a long serial chain, fast on a CPU core
    // and slow on one GPU thread.
    pending_sum<G> r;
    const uint32_t* overflow = out.download(d.overflow, 1, stream);
    const bucket* sums = out.download(win, dp.fold_sets, stream);
    const bucket* group_totals = dp.shifted_bases ? out.download(totals, dp.fold_sets, stream) : nullptr;
    r.add_windows({.windows = dp.windows,
                   .c = dp.c,
                   .fold_sets = dp.fold_sets,
                   .fold_buckets = dp.fold_buckets,
                   .shifted_bases = dp.shifted_bases},
                  sums, group_totals, overflow);
    return r;
}

/// Steps 1-7 for a plan, enqueued on `stream` with the results queued into `out`;
/// table_stride != 0 when `points` is a table of shifted bases (fixed_bases.cuh) with that many
/// points per window. With `indices` (device memory, plan.n entries) the MSM is over the scalars
/// and points at those indices only. `points_needed`, if set, runs on the host once steps 1-3
/// (which read only the scalars) are enqueued and before the first kernel that reads the points:
/// msm_device_from_host uploads the points there, overlapping the sort. The kernels are launched
/// by msm_sort_digits (per scalar field) and msm_accumulate_enqueue (per group), the units
/// cuzk::instances precompiles (cuzk/instances.hpp).
template <class G>
pending_sum<G> msm_run_enqueue(const device_plan<G>& plan, const affine<G>* points, size_t table_stride,
                               const typename G::scalar::integer* scalars, const uint32_t* indices, void* workspace,
                               size_t workspace_bytes, cudaStream_t stream, scalar_form form,
                               const std::function<void()>& points_needed, gpu::result_area& out) {
    if (workspace_bytes < plan.total)
        throw invalid_argument("msm_device: workspace of " + std::to_string(workspace_bytes) + " bytes, need " +
                               std::to_string(plan.total));
    char* ws = static_cast<char*>(workspace);
    const sorted_digits d = msm_sort_digits(plan.digits, scalars, indices, table_stride, ws, stream, form);
    if (points_needed) points_needed();
    return msm_accumulate_enqueue<G>(plan, d, points, ws + plan.digits.bytes, stream, out);
}

/// What every blocking device MSM is: enqueue(area) into the calling thread's result area, one
/// wait on `stream`, the sum.
template <class G, class Enqueue>
jacobian<G> waited_sum(cudaStream_t stream, Enqueue&& enqueue) {
    gpu::result_area& area = gpu::thread_result_area();
    area.reset();
    const pending_sum<G> r = enqueue(area);
    gpu::wait(stream);
    return r.get();
}

/// msm_run_enqueue, waited for.
template <class G>
jacobian<G> msm_run(const device_plan<G>& plan, const affine<G>* points, size_t table_stride,
                    const typename G::scalar::integer* scalars, const uint32_t* indices, void* workspace,
                    size_t workspace_bytes, cudaStream_t stream, scalar_form form,
                    const std::function<void()>& points_needed) {
    return waited_sum<G>(stream, [&](gpu::result_area& area) {
        return msm_run_enqueue<G>(plan, points, table_stride, scalars, indices, workspace, workspace_bytes, stream,
                                  form, points_needed, area);
    });
}

}  // namespace detail

/// sum_i scalars[i] * points[i] for n affine points and n scalars, both in device memory.
/// Enqueues everything on `stream`, waits for that stream once, and returns the result
/// (Jacobian). `workspace` must hold msm_device_workspace_bytes<G>(n, opt) bytes (checked;
/// 256-byte alignment). Throws cuda_error naming the failing call, or invalid_argument.
/// Scalars are n words of G::scalar::integer in opt.form; n = 0 returns the identity.
template <class G>
jacobian<G> msm_device(const affine<G>* points, const typename G::scalar::integer* scalars, size_t n, void* workspace,
                       size_t workspace_bytes, cudaStream_t stream, const device_options& opt = {}) {
    if (n == 0) return jacobian<G>::identity();
    if (n >= (size_t(1) << 31)) throw invalid_argument("msm_device: n must be below 2^31");
    return detail::msm_run<G>(detail::device_plan<G>(n, opt), points, 0, scalars, nullptr, workspace, workspace_bytes,
                              stream, opt.form, {});
}

/// msm_device without the wait: everything is enqueued on `stream`, what its end reads is queued
/// into `out`, and the returned sum's get() gives the result once the stream has passed it
/// (pending_sum.cuh). Several MSMs on one stream then cost one wait; the workspace may be reused
/// by the next MSM on the same stream at once.
template <class G>
pending_sum<G> msm_device_enqueue(const affine<G>* points, const typename G::scalar::integer* scalars, size_t n,
                                  void* workspace, size_t workspace_bytes, cudaStream_t stream, gpu::result_area& out,
                                  const device_options& opt = {}) {
    if (n == 0) return {};
    if (n >= (size_t(1) << 31)) throw invalid_argument("msm_device: n must be below 2^31");
    return detail::msm_run_enqueue<G>(detail::device_plan<G>(n, opt), points, 0, scalars, nullptr, workspace,
                                      workspace_bytes, stream, opt.form, {}, out);
}

/// Convenience: points and scalars in host memory (pageable or pinned). Allocates device
/// copies and the workspace on `stream` (stream-ordered), uploads the scalars, enqueues the
/// digits and the sort, and only then uploads the points (on a second stream that `stream`
/// waits for), so the point upload overlaps the sort; frees everything in stream order.
template <class G>
jacobian<G> msm_device_from_host(const affine<G>* points, const typename G::scalar::integer* scalars, size_t n,
                                 cudaStream_t stream, const device_options& opt = {}) {
    if (n == 0) return jacobian<G>::identity();
    if (n >= (size_t(1) << 31)) throw invalid_argument("msm_device: n must be below 2^31");
    using integer = typename G::scalar::integer;
    const detail::device_plan<G> plan(n, opt);
    gpu::stream copy;
    gpu::event allocated(false), uploaded(false);
    gpu::device_buffer<affine<G>> dp(n, stream);
    gpu::device_buffer<integer> ds(n, stream);
    gpu::device_buffer<char> ws(plan.total, stream);
    ds.upload(scalars, stream);
    allocated.record(stream);
    const std::function<void()> upload_points = [&] {
        CUZK_CUDA_CHECK(cudaStreamWaitEvent(copy, allocated, 0));
        dp.upload(points, copy);
        uploaded.record(copy);
        CUZK_CUDA_CHECK(cudaStreamWaitEvent(stream, uploaded, 0));
    };
    jacobian<G> r = detail::msm_run<G>(plan, dp.data(), 0, ds.data(), nullptr, ws.data(), ws.bytes(), stream, opt.form,
                                       upload_points);
    return r;  // msm_run waited for `stream`, which waited for `copy`: the buffers may go
}

}  // namespace cuzk::msm

/// Explicit instantiation (prefix empty) or its extern declaration (prefix `extern`) of the
/// device MSM for group G (its accumulation; the digits are per scalar field, below): see
/// cuzk/instances.hpp.
#define CUZK_MSM_INSTANCES(prefix, G)                                                          \
    prefix template ::cuzk::msm::pending_sum<G> cuzk::msm::detail::msm_accumulate_enqueue<G>(  \
        const ::cuzk::msm::detail::device_plan<G>&, const ::cuzk::msm::detail::sorted_digits&, \
        const ::cuzk::affine<G>*, void*, cudaStream_t, ::cuzk::gpu::result_area&);

/// The same for the digits and their sort over scalar field F (shared by G1 and G2).
#define CUZK_MSM_FIELD_INSTANCES(prefix, F)                                                                         \
    prefix template ::cuzk::msm::detail::sorted_digits cuzk::msm::detail::msm_sort_digits<F>(                       \
        const ::cuzk::msm::detail::digit_plan<F>&, const F::integer*, const uint32_t*, size_t, void*, cudaStream_t, \
        ::cuzk::msm::scalar_form);

/// The family's group-independent part (src/instances/msm_bn254_g1.cu compiles it): the CUB size
/// query and the digits of every scalar field.
#define CUZK_MSM_SHARED_INSTANCES(prefix)                                                   \
    prefix template size_t cuzk::msm::detail::radix_sort_bytes<uint32_t>(size_t, unsigned); \
    CUZK_FOR_EACH_INSTANCE_FIELD(CUZK_MSM_FIELD_INSTANCES, prefix)

#if defined(CUZK_PRECOMPILED)
#include "cuzk/instances.hpp"
CUZK_FOR_EACH_INSTANCE_GROUP(CUZK_MSM_INSTANCES, extern)
CUZK_MSM_SHARED_INSTANCES(extern)
#endif
