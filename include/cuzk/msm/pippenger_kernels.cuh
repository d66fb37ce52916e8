// SPDX-License-Identifier: MIT OR Apache-2.0
// The kernels of the device MSM (msm/pippenger_device.cuh, whose header comment names the steps):
// digits (step 1), bucket starts (3), accumulation and its fixups (4), the two fold levels (5, 6).
// Launched by msm_sort_digits and msm_accumulate_enqueue over a device_plan (msm/device_plan.cuh).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cub/device/device_radix_sort.cuh>
#include <functional>
#include <string>
#include <vector>

#include "cuzk/core/error.hpp"
#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/outline.hpp"
#include "cuzk/ec/xyzz.hpp"
#include "cuzk/gpu/cuda_error.hpp"
#include "cuzk/gpu/device_buffer.hpp"
#include "cuzk/gpu/event.hpp"
#include "cuzk/gpu/stream.hpp"
#include "cuzk/msm/batch_affine_device.cuh"
#include "cuzk/msm/signed_digits.hpp"
#include "cuzk/msm/window_cost.hpp"
#include "cuzk/msm/device_plan.cuh"

namespace cuzk::msm::detail {

using cuzk::detail::add_outline;  // full additions and doublings as calls (ec/outline.hpp)
using cuzk::detail::dbl_outline;

/// Step 1: signed digits of scalar i for every window, as sort keys and values. With a table
/// of shifted bases (table_stride != 0) every window uses the same buckets and the value
/// names the window's copy of the point, w * table_stride + i. With `indices`, item i is the
/// scalar and point indices[i] (a subset of the inputs, e.g. the witness MSM's non-bits).
/// A scalar that the windows cannot represent (above the caller's scalar_bits) sets *overflow.
template <class Fr>
__global__ void __launch_bounds__(msm_block)
    msm_digits_kernel(uint32_t* keys, uint32_t* vals, uint32_t* overflow, const typename Fr::integer* scalars,
                      const uint32_t* indices, size_t n, unsigned c, unsigned windows, scalar_form form,
                      size_t table_stride) {
    const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t >= n) return;
    const size_t i = indices != nullptr ? indices[t] : t;
    const uint32_t B = buckets_per_window(c), K = table_stride != 0 ? B : windows * B;
    typename Fr::integer s = reduce_scalar<Fr>(scalars[i], form);
    signed_digit_walker<Fr::limbs> walk(s, c);
    for (unsigned w = 0; w < windows; ++w) {
        signed_digit d = walk.next();
        const uint32_t set = table_stride != 0 ? 0 : w, point = uint32_t(table_stride != 0 ? w * table_stride + i : i);
        keys[size_t(w) * n + t] = d.magnitude == 0 ? K : set * B + d.magnitude - 1;
        vals[size_t(w) * n + t] = point | (d.negative ? 0x80000000u : 0u);
    }
    if (walk.carry != 0 || !s.shr(size_t(windows) * c).is_zero()) *overflow = 1;
}

/// Step 3: start[k] = first sorted position with key >= k, for k in [0, K]; start[K] is the
/// number of non-zero digits. Each entry is written by exactly one thread. (A template, like
/// every kernel in a header: a plain __global__ function would be defined in every TU.)
template <class Key>
__global__ void __launch_bounds__(256) msm_starts_kernel(uint32_t* start, const Key* keys, size_t items, Key K) {
    const size_t p = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (p > items) return;
    const int64_t prev = p == 0 ? -1 : int64_t(keys[p - 1]);
    const int64_t cur = p == items ? int64_t(K) : int64_t(keys[p]);
    for (int64_t k = prev + 1; k <= cur; ++k) start[k] = uint32_t(p);
}

/// Step 4: one thread per segment of seg_len sorted pairs (see the header comment).
template <class G>
__global__ void __launch_bounds__(msm_block)
    msm_accumulate_kernel(xyzz<G>* buckets, xyzz<G>* head, xyzz<G>* tail, const uint32_t* keys, const uint32_t* vals,
                          const uint32_t* start, const affine<G>* points, size_t seg_len, size_t segs, uint32_t K) {
    const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t >= segs) return;
    const size_t total = start[K];  // pairs with a non-zero digit
    const size_t a = t * seg_len;
    if (a >= total) return;
    const size_t e = a + seg_len < total ? a + seg_len : total;

    uint32_t k = keys[a];
    bool started_before = a > 0 && keys[a - 1] == k;
    xyzz<G> acc = xyzz<G>::identity();
    uint32_t v = vals[a];
    affine<G> q = points[v & 0x7fffffffu];
    for (size_t p = a; p < e; ++p) {
        // Load the next pair's point now: its (random) global load overlaps this addition.
        uint32_t v_next = 0;
        affine<G> q_next{};
        if (p + 1 < e) {
            v_next = vals[p + 1];
            q_next = points[v_next & 0x7fffffffu];
        }
        const uint32_t kp = keys[p];
        if (kp != k) {  // the run of k ended inside this segment
            if (started_before) head[t] = acc;
            else buckets[k] = acc;
            started_before = false;
            k = kp;
            acc = xyzz<G>::identity();
        }
        if (v >> 31) q = -q;
        acc += q;
        v = v_next;
        q = q_next;
    }
    const bool continues = e < total && keys[e] == k;
    if (started_before) head[t] = acc;
    else if (continues) tail[t] = acc;
    else buckets[k] = acc;
}

/// Shuffles a trivially copyable value down the warp word by word.
template <class T>
__device__ __forceinline__ T msm_shfl_down(const T& x, unsigned delta) {
    static_assert(sizeof(T) % 4 == 0, "shuffled by 32-bit words");
    T r;
    const uint32_t* src = reinterpret_cast<const uint32_t*>(&x);
    uint32_t* dst = reinterpret_cast<uint32_t*>(&r);
#pragma unroll
    for (size_t i = 0; i < sizeof(T) / 4; ++i) dst[i] = __shfl_down_sync(0xffffffffu, src[i], delta);
    return r;
}

/// Runs cut into at most this many later segments are completed by one thread (fixup_short);
/// longer ones by a warp (fixup_long).
inline constexpr size_t fixup_short_span = 32;

/// The run that leaves segment t, if it starts in segment t and is cut: its key, and the last
/// segment it reaches (0 if there is none).
struct cut_run {
    uint32_t key = 0;
    size_t last = 0;
};
__device__ __forceinline__ cut_run msm_cut_run(size_t t, const uint32_t* keys, const uint32_t* start, size_t seg_len,
                                               size_t total) {
    const size_t a = t * seg_len;
    if (a >= total) return {};
    const size_t e_seg = a + seg_len < total ? a + seg_len : total;
    const uint32_t k = keys[e_seg - 1];
    const size_t s = start[k], e = start[k + 1];
    if (s < a || e <= e_seg) return {};  // starts in an earlier segment, or ends inside this one
    return {k, (e - 1) / seg_len};
}

/// Step 4b: completes every bucket whose run was cut by segment edges, short runs: one thread
/// per segment t adds the heads of the (at most fixup_short_span) later segments to its tail.
template <class G>
__global__ void __launch_bounds__(msm_block)
    msm_fixup_short_kernel(xyzz<G>* buckets, const xyzz<G>* head, const xyzz<G>* tail, const uint32_t* keys,
                           const uint32_t* start, size_t seg_len, size_t segs, uint32_t K) {
    const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t >= segs) return;
    const cut_run r = msm_cut_run(t, keys, start, seg_len, start[K]);
    if (r.last == 0 || r.last - t > fixup_short_span) return;
    xyzz<G> sum = tail[t];
    for (size_t g = t + 1; g <= r.last; ++g) sum = add_outline(sum, head[g]);
    buckets[r.key] = sum;
}

/// Step 4b, long runs: one warp per segment t; the run that leaves segment t is completed by the
/// warp of the segment where it starts: lanes sum the heads of the later segments in parallel,
/// a shuffle tree adds the lanes, lane 0 writes tail + sum to the bucket. A run of length R
/// costs R / (32 L) serial additions per lane instead of R / L in one thread (long runs: a
/// nearly empty top window, or all scalars equal).
template <class G>
__global__ void __launch_bounds__(msm_block)
    msm_fixup_long_kernel(xyzz<G>* buckets, const xyzz<G>* head, const xyzz<G>* tail, const uint32_t* keys,
                          const uint32_t* start, size_t seg_len, size_t segs, uint32_t K) {
    const size_t t = (size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    const unsigned lane = threadIdx.x % 32;
    if (t >= segs) return;  // whole warps leave together (blockDim is a multiple of 32)
    const cut_run r = msm_cut_run(t, keys, start, seg_len, start[K]);
    if (r.last == 0 || r.last - t <= fixup_short_span) return;
    xyzz<G> sum = xyzz<G>::identity();
    for (size_t g = t + 1 + lane; g <= r.last; g += 32) sum = add_outline(sum, head[g]);
#pragma unroll
    for (unsigned d = 16; d > 0; d /= 2) {
        xyzz<G> other = msm_shfl_down(sum, d);
        sum = add_outline(sum, other);
    }
    if (lane == 0) buckets[r.key] = add_outline(tail[t], sum);
}

/// The full sum of bucket k (empty buckets were never written: identity).
template <class G>
__device__ __forceinline__ xyzz<G> msm_load_bucket(uint32_t k, const xyzz<G>* buckets, const uint32_t* start) {
    return start[k] == start[k + 1] ? xyzz<G>::identity() : buckets[k];
}

/// Step 5: per (window, segment j): run_j = sum B_b and acc_j = sum (b - jM + 1) B_b over the
/// segment's M buckets, by suffix sums from the top bucket down.
template <class G>
__global__ void __launch_bounds__(msm_block)
    msm_fold1_kernel(xyzz<G>* run_out, xyzz<G>* acc_out, const xyzz<G>* buckets, const uint32_t* start, uint32_t B,
                     uint32_t M, uint32_t S, unsigned windows) {
    const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t >= size_t(windows) * S) return;
    const uint32_t w = uint32_t(t / S), j = uint32_t(t % S);
    const uint32_t base = w * B + j * M;
    xyzz<G> run = xyzz<G>::identity(), acc = xyzz<G>::identity();
    for (uint32_t b = M; b-- > 0;) {
        run = add_outline(run, msm_load_bucket<G>(base + b, buckets, start));
        acc = add_outline(acc, run);
    }
    run_out[t] = run;
    acc_out[t] = acc;
}

/// [k]P for a small public k by double-and-add from the top bit.
template <class G>
__device__ __forceinline__ xyzz<G> msm_small_mul(const xyzz<G>& p, uint32_t k) {
    xyzz<G> r = xyzz<G>::identity();
    if (k == 0) return r;
    for (int bit = 31 - __clz(k); bit >= 0; --bit) {
        r = dbl_outline(r);
        if ((k >> bit) & 1) r = add_outline(r, p);
    }
    return r;
}

/// Step 6: one block per window (fold group). Thread t takes level-1 segments j in [tQ, tQ + Q):
/// U_t = sum_j j run_j (running sums plus [tQ] of their total), V_t = sum_j acc_j; a tree in
/// global scratch (run/acc rows of this window, no longer needed) sums them; the window's
/// value is sum V + M * sum U (M a power of two: log2 M doublings). The plain sum of the
/// group's buckets goes to totals[w] (its tree runs in tot_scratch, T entries per group).
template <class G>
__global__ void __launch_bounds__(msm_fold2_block)
    msm_fold2_kernel(xyzz<G>* window_sums, xyzz<G>* totals, xyzz<G>* run, xyzz<G>* acc, xyzz<G>* tot_scratch,
                     uint32_t M, uint32_t S, uint32_t Q) {
    const uint32_t w = blockIdx.x, t = threadIdx.x, T = blockDim.x;
    xyzz<G>* run_w = run + size_t(w) * S;
    xyzz<G>* acc_w = acc + size_t(w) * S;
    xyzz<G>* tot_w = tot_scratch + size_t(w) * T;
    xyzz<G> u = xyzz<G>::identity(), v = xyzz<G>::identity(), tot = xyzz<G>::identity();
    if (t < S / Q) {
        const uint32_t lo = t * Q;
        for (uint32_t j = lo + Q; j-- > lo;) {
            if (j != lo + Q - 1) u = add_outline(u, tot);  // u = sum_{j > lo} (j - lo) run_j
            tot = add_outline(tot, run_w[j]);
            v = add_outline(v, acc_w[j]);
        }
        if (lo != 0) u = add_outline(u, msm_small_mul<G>(tot, lo));
    }
    __syncthreads();  // every thread has read its inputs before the tree overwrites them
    run_w[t] = u;
    acc_w[t] = v;
    tot_w[t] = tot;
    for (uint32_t half = T / 2; half > 0; half /= 2) {
        __syncthreads();
        if (t < half) {
            run_w[t] = add_outline(run_w[t], run_w[t + half]);
            acc_w[t] = add_outline(acc_w[t], acc_w[t + half]);
            tot_w[t] = add_outline(tot_w[t], tot_w[t + half]);
        }
    }
    if (t == 0) {
        xyzz<G> r = run_w[0];
        for (uint32_t m = M; m > 1; m /= 2) r = dbl_outline(r);
        window_sums[w] = add_outline(r, acc_w[0]);
        totals[w] = tot_w[0];
    }
}

}  // namespace cuzk::msm::detail
