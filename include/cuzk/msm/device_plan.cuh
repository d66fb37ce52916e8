// SPDX-License-Identifier: MIT OR Apache-2.0
// The host side of one device MSM's plan (msm/pippenger_device.cuh): the options, the window
// width and accumulation the dispatcher picks, and every size and workspace offset of a call
// (digit_plan: steps 1-3, per scalar field; device_plan: with the group's accumulation, steps
// 4-7), derived from (n, c) on the host before anything is enqueued. What a caller sizes its
// workspace with (msm_device_workspace_bytes) and what the kernels are launched over.
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

namespace cuzk::msm {

/// Options of the device MSM. Zero means "choose automatically".
struct device_options {
    /// Window width c in [1, device_max_window_bits]; 0 picks it from n (device_window_bits).
    unsigned window_bits = 0;
    /// How the scalar words are to be read (reduced mod r either way).
    scalar_form form = scalar_form::canonical;
    /// A promise that every (reduced) scalar is below 2^scalar_bits, in [1, r's bit length]; 0
    /// means r's bit length. Fewer bits, fewer windows (e.g. the halves or quarters of an
    /// endomorphism split). A scalar that breaks the promise is detected and the call throws
    /// invalid_argument instead of returning a wrong sum.
    unsigned scalar_bits = 0;
    /// How bucket sums are accumulated (step 4): XYZZ mixed additions, or affine sums whose
    /// additions share inversions (batch_affine_device.cuh); automatic picks by the number of
    /// sorted pairs (device_accumulation).
    enum class accumulation { automatic, xyzz, batch_affine };
    accumulation accumulate = accumulation::automatic;
};

/// Window width the device dispatcher picks for n points with scalars of scalar_bits bits:
/// minimises W(c) * (n + 3 * 2^(c-1)) over c in [4, device_max_window_bits] (device_buckets).
inline unsigned device_window_bits(size_t n, unsigned scalar_bits) {
    return choose_window_bits(n, scalar_bits, device_buckets);
}

/// The accumulation the device dispatcher picks for `items` sorted pairs (n points times the
/// windows) of group G: batch-affine for groups over an extension field (G2) from
/// affine_min_items on, XYZZ otherwise. On the H200 (docs/log/2026-12.md "Batch-affine
/// accumulation") batch-affine takes 0.86-0.89x XYZZ's time for BLS12-381 G2 at 2^20..2^24
/// points, for BN254 G2 0.95-0.98x at 2^22..2^24 and 1.03x at 2^20, and 1.29-1.51x for G1 of
/// both curves: over Fp the shared inversion and the sums' round trips through local memory
/// cost more than the 4 multiplications saved per point.
/// The threshold for G2 over a base field of `limbs` words: 2^22 pairs for BLS12-381 (6 limbs;
/// it wins from 2^20 points, ~2^24 pairs), 2^25 for BN254 (4 limbs; ~2^24 pairs at 2^20 points
/// lose 3%, ~2^26 at 2^22 win 5%).
constexpr size_t affine_min_items(size_t limbs) { return limbs >= 6 ? size_t(1) << 22 : size_t(1) << 25; }
template <class G>
device_options::accumulation device_accumulation(size_t items) {
    if constexpr (requires { G::field::degree; }) {
        if (items >= affine_min_items(G::field::base::limbs)) return device_options::accumulation::batch_affine;
    }
    return device_options::accumulation::xyzz;
}

namespace detail {

inline constexpr unsigned msm_block = 128;  // threads per block of the point kernels

inline constexpr unsigned msm_fold2_block = 128;  // threads per window in fold level 2

constexpr size_t align_up(size_t x, size_t a) { return (x + a - 1) / a * a; }
constexpr unsigned log2_floor(uint64_t x) {
    unsigned r = 0;
    while (x > 1) {
        x >>= 1;
        ++r;
    }
    return r;
}

/// Regions of a caller's workspace, laid out one after another at 256-byte alignment.
struct workspace_layout {
    size_t total = 0;
    /// The offset of a new region of `bytes` bytes.
    size_t take(size_t bytes) {
        const size_t o = total;
        total = align_up(total + bytes, 256);
        return o;
    }
};

/// Temporary bytes CUB's radix sort needs for `items` (key, value) pairs of Key with key_bits-bit
/// keys. A template (Key is uint32_t) only so that cuzk::instances can compile it once: the size
/// query instantiates CUB's sort kernels, which every TU that plans an MSM would compile again.
template <class Key>
size_t radix_sort_bytes(size_t items, unsigned key_bits) {
    size_t bytes = 0;
    cub::DoubleBuffer<Key> k(nullptr, nullptr), v(nullptr, nullptr);
    CUZK_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, k, v, int(items), 0, int(key_bits)));
    return bytes;
}

/// The group-independent half of an MSM's plan: windows, bucket keys, how the fold groups the
/// buckets, and the region of steps 1-3 (digits, their sort, the bucket starts). It depends on
/// the number of scalars and the window shape only, so one set of sorted digits serves
/// accumulations over bases of any group with scalar field Fr (the witness plan shares them
/// between G1 and G2 MSMs so: witness_plan.cuh).
template <class Fr>
struct digit_plan {
    size_t n = 0;
    unsigned c = 0, windows = 0, key_bits = 0;
    uint32_t buckets = 0;        // per window, B = 2^(c-1)
    unsigned bucket_sets = 0;    // W, or 1 with a table of shifted bases (fixed_bases.cuh)
    uint32_t keys = 0;           // K = bucket_sets * B (the sentinel key is K)
    size_t items = 0;            // W * n sorted pairs
    bool shifted_bases = false;  // the points are a table of shifted bases
    unsigned fold_sets = 0;      // V: groups the fold treats as windows (W; or 64+ for one big set)
    uint32_t fold_buckets = 0;   // buckets per fold group (B, or B / V)
    uint32_t fold_len = 0;       // M: buckets per level-1 fold thread (power of two)
    uint32_t fold_segs = 0;      // S = fold_buckets / M per group
    uint32_t fold2_len = 0;      // Q: level-1 segments per level-2 thread
    uint32_t fold2_threads = 0;
    size_t cub_bytes = 0;
    // byte offsets into the digit region, and its size
    size_t o_keys0 = 0, o_keys1 = 0, o_vals0 = 0, o_vals1 = 0, o_cub = 0, o_start = 0, o_overflow = 0, bytes = 0;

    digit_plan() = default;
    /// `shifted_bases`: the points come with copies 2^(cw) P for every window w, so every window
    /// adds into one set of buckets (then opt.window_bits is the table's c).
    digit_plan(size_t n_, const device_options& opt, bool shifted_bases_ = false)
        : n(n_), shifted_bases(shifted_bases_) {
        if (opt.scalar_bits > Fr::modulus_bits)
            throw invalid_argument("msm_device: scalar_bits " + std::to_string(opt.scalar_bits) + " exceeds the " +
                                   std::to_string(Fr::modulus_bits) + " bits of the scalar field");
        const unsigned bits = opt.scalar_bits != 0 ? opt.scalar_bits : unsigned(Fr::modulus_bits);
        if (opt.window_bits > device_max_window_bits)
            throw invalid_argument("msm_device: window_bits " + std::to_string(opt.window_bits) + " exceeds " +
                                   std::to_string(device_max_window_bits));
        c = opt.window_bits != 0 ? opt.window_bits : device_window_bits(n, bits);
        windows = num_windows(bits, c);
        buckets = buckets_per_window(c);
        bucket_sets = shifted_bases ? 1 : windows;
        keys = bucket_sets * buckets;
        key_bits = log2_floor(keys) + 1;  // holds 0 .. K
        items = size_t(windows) * n;
        if (items >= (size_t(1) << 31))
            throw invalid_argument("msm_device: n = " + std::to_string(n) + " with " + std::to_string(windows) +
                                   " windows exceeds 2^31 sorted pairs; split the MSM");
        if (!shifted_bases) {
            // Fold level 1: about 32k threads; level 2: up to msm_fold2_block threads per window.
            fold_sets = windows;
            fold_buckets = buckets;
            uint64_t m = 1;
            while (m < buckets && uint64_t(keys) / m > 32768) m *= 2;
            fold_len = uint32_t(m);
        } else {
            // One big bucket set: a single level-2 block would add thousands of segments in
            // series (17 ms at 2^15 buckets), so the set is folded as V groups of B / V buckets,
            // each like a window, and the host adds the groups' offsets (pending_sum.cuh).
            fold_sets = std::max<uint32_t>(std::min<uint32_t>(buckets, 64), buckets >> 13);
            fold_buckets = buckets / fold_sets;
            fold_len = std::max<uint32_t>(1, fold_buckets / msm_fold2_block);
        }
        fold_segs = fold_buckets / fold_len;
        fold2_threads = std::min<uint32_t>(fold_segs, msm_fold2_block);
        fold2_len = fold_segs / fold2_threads;
        if (items != 0) cub_bytes = radix_sort_bytes<uint32_t>(items, key_bits);
        workspace_layout ws;
        auto take = [&](size_t b) { return ws.take(b); };
        o_keys0 = take(items * 4);
        o_keys1 = take(items * 4);
        o_vals0 = take(items * 4);
        o_vals1 = take(items * 4);
        o_cub = take(cub_bytes);
        o_start = take((size_t(keys) + 1) * 4);
        o_overflow = take(sizeof(uint32_t));  // set by a scalar that does not fit the windows
        bytes = ws.total;
    }
};

/// Every size and workspace offset of one MSM call, derived from (n, c) on the host: the digit
/// plan (steps 1-3) and the group's accumulation (steps 4-7). One MSM's workspace is the digit
/// region followed by the accumulation region.
template <class G>
struct device_plan {
    using bucket = xyzz<G>;
    digit_plan<typename G::scalar> digits;
    bool batch_affine = false;  // step 4 by msm_accumulate_affine_kernel
    size_t seg_len = 0;         // L: pairs per accumulation thread (batch-affine: 0, chosen in msm_accumulate_enqueue)
    size_t segs = 0;            // T = ceil(items / L) (batch-affine: the most threads)
    // byte offsets into the accumulation region, and its size
    size_t o_buckets, o_head, o_tail, o_run, o_acc, o_win, o_tot, accumulation_bytes;
    size_t total;  // digits.bytes + accumulation_bytes: a whole MSM's workspace

    /// `shifted_bases`: see digit_plan. `min_seg_len`: a floor on L, so that a plan for fewer
    /// points with the same c and accumulation needs no more of any region than the plan it is
    /// bounded by (the witness MSM sizes its workspace so).
    device_plan(size_t n, const device_options& opt, bool shifted_bases = false, size_t min_seg_len = 0)
        : device_plan(digit_plan<typename G::scalar>(n, opt, shifted_bases), opt.accumulate, min_seg_len) {}

    /// The accumulation over given digits.
    device_plan(const digit_plan<typename G::scalar>& d, device_options::accumulation accumulate,
                size_t min_seg_len = 0)
        : digits(d) {
        const size_t items = d.items;
        // Accumulation: XYZZ, about 64k threads in flight, at least 8 pairs each. Batch-affine:
        // segments are threads too, but their number (one wave) and length are chosen at run
        // time (msm_accumulate_enqueue asks the occupancy API); segs is then the most threads there can be.
        using acc = device_options::accumulation;
        batch_affine = (accumulate == acc::automatic ? device_accumulation<G>(items) : accumulate) == acc::batch_affine;
        if (batch_affine) {
            const size_t per_thread = size_t(affine_chains) * affine_min_chain;
            segs = std::max<size_t>(1, std::min(affine_max_threads, (items + per_thread - 1) / per_thread));
            seg_len = 0;
        } else {
            seg_len = std::max<size_t>({8, (items + 65535) / 65536, min_seg_len});
            segs = std::max<size_t>(1, (items + seg_len - 1) / seg_len);
        }
        workspace_layout ws;
        auto take = [&](size_t bytes) { return ws.take(bytes); };
        o_buckets = take(size_t(d.keys) * sizeof(bucket));
        o_head = take(segs * sizeof(bucket));
        o_tail = take(segs * sizeof(bucket));
        o_run = take(size_t(d.fold_sets) * d.fold_segs * sizeof(bucket));
        o_acc = take(size_t(d.fold_sets) * d.fold_segs * sizeof(bucket));
        o_win = take(size_t(d.fold_sets) * sizeof(bucket));
        // T scratch per group, then V totals
        o_tot = take(size_t(d.fold_sets) * (d.fold2_threads + 1) * sizeof(bucket));
        accumulation_bytes = ws.total;
        total = d.bytes + accumulation_bytes;
    }
};

}  // namespace detail

/// Workspace bytes msm_device needs for n points (and the same options).
template <class G>
size_t msm_device_workspace_bytes(size_t n, const device_options& opt = {}) {
    if (n == 0) return 0;
    return detail::device_plan<G>(n, opt).total;
}

}  // namespace cuzk::msm
