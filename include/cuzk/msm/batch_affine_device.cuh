// SPDX-License-Identifier: MIT OR Apache-2.0
// Batch-affine bucket accumulation on the device (step 4 of pippenger_device.cuh, the
// alternative to XYZZ sums): a thread owns `affine_chains` consecutive segments of the sorted
// (bucket, point) pairs and walks them in lockstep, one pair per segment per step. The chains'
// running sums stay affine, so the additions of one step are independent and share one field
// inversion (Montgomery's trick):
//
//   forward   d_j = x_P - x_A (2 y_A for P == A), prefix_j = d_0 ... d_{j-1}
//   invert    inv = (d_0 ... d_{m-1})^-1            (binary GCD, field/binary_gcd.hpp)
//   backward  1/d_j = inv * prefix_j, inv *= d_j; lambda = (y_P - y_A) / d_j (3 x_A^2 / d_j),
//             x' = lambda^2 - x_A - x_P, y' = lambda (x_A - x') - y_A
//
// That is 6M + 1S per pair plus one inversion per step shared by the chains (an inversion costs
// ~85 multiplications for BLS12-381 Fp: docs/log/2026-12.md "Field inversion"), against the XYZZ
// mixed addition's 8M + 2S. Every lane of a warp runs the inversion anyway (SIMT), so the batch
// is per thread, not per warp; the chains' sums, staged points and prefixes live in local memory.
//
// Whole runs inside a chain go to their buckets; at the end the thread joins the pieces of runs
// that cross its chains' edges (XYZZ mixed additions), so it emits exactly what an XYZZ thread
// over the same m chains would (buckets, a head and a tail) and the fixup and fold kernels are
// shared. Exceptional pairs: an empty sum takes the point; P + P is a doubling (denominator
// 2 y); P + (-P), and 2P with y = 0, empty the sum; identity points are skipped.
//
// The grid is one full wave of the GPU (msm_accumulate_enqueue asks the occupancy API), so every thread walks
// chains of the same length and none waits for a second wave.
#pragma once

#include <cstdint>

#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/xyzz.hpp"

namespace cuzk::msm::detail {

/// Segments per thread of the batch-affine accumulation: the additions that share one
/// inversion. 32 makes the shared inversion ~3 multiplications per pair.
inline constexpr unsigned affine_chains = 32;

/// Threads of the batch-affine accumulation kernel per block.
inline constexpr unsigned affine_block = 128;

/// At most this many threads (a wave of an H200 is 132 SMs x 3-5 blocks x 128; the bound sizes
/// the head and tail arrays), and chains of at least affine_min_chain pairs.
inline constexpr size_t affine_max_threads = size_t(1) << 17;
inline constexpr size_t affine_min_chain = 16;

template <class G>
__global__ void __launch_bounds__(affine_block)
    msm_accumulate_affine_kernel(xyzz<G>* buckets, xyzz<G>* head, xyzz<G>* tail, const uint32_t* keys,
                                 const uint32_t* vals, const uint32_t* start, const affine<G>* points, size_t chain_len,
                                 size_t threads, uint32_t K) {
    using field = typename G::field;
    constexpr unsigned m = affine_chains;
    // flags: still stepping; in its first run, which began before the chain; an addition staged
    // this step; began inside a run; its key changed at least once.
    constexpr uint8_t live = 1, first_run = 2, staged = 4, started = 8, changed = 16;

    const size_t u = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (u >= threads) return;
    const size_t total = start[K];  // pairs with a non-zero digit
    const size_t a0 = u * m * chain_len;
    if (a0 >= total) return;

    affine<G> sum[m], pending[m], head_piece[m];
    field prefix[m];
    uint32_t key[m];
    uint8_t flags[m];

#pragma unroll 1
    for (unsigned j = 0; j < m; ++j) {
        const size_t a = a0 + j * chain_len;
        flags[j] = 0;
        key[j] = 0;
        sum[j] = affine<G>::identity();
        if (a < total) {
            key[j] = keys[a];
            const bool before = a > 0 && keys[a - 1] == key[j];
            flags[j] = uint8_t(live | (before ? first_run | started : 0));
        }
    }

#pragma unroll 1
    for (size_t s = 0; s < chain_len; ++s) {
        field run = field::one();
        bool any = false;
#pragma unroll 1
        for (unsigned j = 0; j < m; ++j) {
            if (!(flags[j] & live)) continue;
            const size_t p = a0 + j * chain_len + s;
            if (p >= total) {  // the last non-empty chain ends early
                flags[j] &= uint8_t(~live);
                continue;
            }
            const uint32_t k = keys[p], v = vals[p];
            affine<G> q = points[v & 0x7fffffffu];
            if (v >> 31) q = -q;
            if (k != key[j]) {
                // The run of key[j] ended inside this chain: whole, or the end of a run from an
                // earlier chain (kept for the join below).
                if (flags[j] & first_run) head_piece[j] = sum[j];
                else buckets[key[j]] = xyzz<G>::from_affine(sum[j]);
                flags[j] = uint8_t((flags[j] & ~first_run) | changed);
                key[j] = k;
                sum[j] = affine<G>::identity();
            }
            if (q.is_identity()) continue;
            affine<G>& acc = sum[j];
            if (acc.is_identity()) {
                acc = q;
                continue;
            }
            field d;
            if (acc.x != q.x) {
                d = q.x - acc.x;
            } else if (acc.y == q.y && !acc.y.is_zero()) {
                d = acc.y.dbl();  // P + P
            } else {
                acc = affine<G>::identity();  // P + (-P), or 2P for a point of order 2
                continue;
            }
            prefix[j] = run;
            run *= d;
            pending[j] = q;
            flags[j] |= staged;
            any = true;
        }
        if (!any) continue;
        field inv = run.inverse_vartime();  // public data (MSM timing is value-dependent anyway)
#pragma unroll 1
        for (unsigned j = m; j-- > 0;) {
            if (!(flags[j] & staged)) continue;
            flags[j] &= uint8_t(~staged);
            affine<G>& acc = sum[j];
            const affine<G>& q = pending[j];
            const bool doubling = acc.x == q.x;
            const field d = doubling ? acc.y.dbl() : q.x - acc.x;
            const field inv_d = inv * prefix[j];
            inv *= d;
            field num;
            if (doubling) {
                const field x2 = acc.x.square();
                num = x2.dbl() + x2;
            } else {
                num = q.y - acc.y;
            }
            const field lambda = num * inv_d;
            const field x = lambda.square() - acc.x - q.x;
            acc.y = lambda * (acc.x - x) - acc.y;
            acc.x = x;
        }
    }

    // Join the pieces of runs that cross chain edges inside this thread (XYZZ mixed additions,
    // ~m of them), so that the thread emits what an XYZZ thread over all m chains would: whole
    // runs to their buckets, the run cut by the thread's start to head[u], the one cut by its
    // end to tail[u]; the fixup then joins pieces across threads only.
    const size_t e0 = a0 + m * chain_len < total ? a0 + m * chain_len : total;
    xyzz<G> carry = xyzz<G>::identity();
    uint32_t carry_key = 0;
    bool carrying = false, carry_from_before = (flags[0] & started) != 0;
    auto flush = [&](bool at_end) {
        if (!carrying) return;
        if (carry_from_before) head[u] = carry;
        else if (at_end && e0 < total && keys[e0] == carry_key) tail[u] = carry;
        else buckets[carry_key] = carry;
        carrying = false;
        carry_from_before = false;
    };
#pragma unroll 1
    for (unsigned j = 0; j < m; ++j) {
        const size_t a = a0 + j * chain_len;
        if (a >= total) break;  // chains past the last pair hold nothing
        if (flags[j] & started) {  // continues the carried run (for j = 0: a run from an earlier thread)
            carry += (flags[j] & changed) ? head_piece[j] : sum[j];
            carry_key = keys[a];
            carrying = true;
            if (!(flags[j] & changed)) continue;  // the whole chain was one piece of it
        }
        flush(false);  // the carried run ended at this chain's start or inside it
        carry = xyzz<G>::from_affine(sum[j]);
        carry_key = key[j];
        carrying = true;
    }
    flush(true);
}

}  // namespace cuzk::msm::detail
