// Multi-scalar multiplication on one GPU: Pippenger with signed digits, buckets grouped by a
// radix sort, load-balanced accumulation, and a two-level parallel bucket fold.
//
//   size_t bytes = cuzk::msm::msm_device_workspace_bytes<G>(n);          // 1. ask
//   void* ws;  cudaMallocAsync(&ws, bytes, stream);                      // 2. caller allocates
//   jacobian<G> r = cuzk::msm::msm_device<G>(d_points, d_scalars, n, ws, bytes, stream);
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
//              plain total; see msm_accumulate.)
//  7. combine  the W window sums are copied to the host (one stream-ordered copy and a stream
//              synchronisation) and combined by Horner's rule there: c doublings per window are
//              a long serial chain, fast on a CPU core and slow on one GPU thread.
//
// Steps 1-3 read only the scalars (msm_sort_digits, per scalar field), steps 4-7 the sorted digits
// and the points (msm_accumulate, per group): one set of sorted digits can serve several
// accumulations over different bases (the witness plan's, witness_plan.cuh).
// Scalars are reduced mod r (signed_digits.hpp); points are affine with (0, 0) as the identity.
// Time depends on the scalars (vartime): MSM inputs are public or the caller accepts the leak.
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
            // each like a window, and the host adds the groups' offsets (msm_accumulate).
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
    size_t seg_len = 0;         // L: pairs per accumulation thread (batch-affine: 0, chosen in msm_accumulate)
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
        // time (msm_accumulate asks the occupancy API); segs is then the most threads there can be.
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

}  // namespace detail

/// Workspace bytes msm_device needs for n points (and the same options).
template <class G>
size_t msm_device_workspace_bytes(size_t n, const device_options& opt = {}) {
    if (n == 0) return 0;
    return detail::device_plan<G>(n, opt).total;
}

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
/// (plan.accumulation_bytes bytes at `region`) and the points the digits name, on `stream`;
/// waits for `stream` and returns the sum. The digits are only read: several accumulations
/// (over different bases) may use them one after another.
template <class G>
jacobian<G> msm_accumulate(const device_plan<G>& plan, const sorted_digits& d, const affine<G>* points, void* region,
                           cudaStream_t stream) {
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

    std::vector<bucket> window_sums(dp.fold_sets), group_totals(dp.fold_sets);
    uint32_t overflowed = 0;
    gpu::download_blocking(&overflowed, d.overflow, sizeof overflowed, stream);
    gpu::download_blocking(window_sums.data(), win, dp.fold_sets * sizeof(bucket), stream);
    if (dp.shifted_bases) gpu::download_blocking(group_totals.data(), totals, dp.fold_sets * sizeof(bucket), stream);
    gpu::wait(stream);
    if (overflowed != 0)
        throw invalid_argument("msm_device: a scalar does not fit in " + std::to_string(dp.windows) + " windows of " +
                               std::to_string(dp.c) + " bits (scalar_bits promised too few)");

    if (dp.shifted_bases) {
        // One bucket set folded as V groups of L buckets: group g's weights are off by g L, so
        // sum_b (b + 1) B_b = sum_g window_g + L * sum_g g total_g (running sums from the top).
        bucket sum = bucket::identity(), running = bucket::identity(), weighted = bucket::identity();
        for (const bucket& w : window_sums) sum += w;
        for (unsigned g = dp.fold_sets - 1; g > 0; --g) {
            running += group_totals[g];
            weighted += running;
        }
        for (uint32_t l = dp.fold_buckets; l > 1; l /= 2) weighted = weighted.dbl();
        return to_jacobian(sum + weighted);
    }

    // Horner on the host: R = 2^c R + window_w from the top window down.
    bucket r = bucket::identity();
    for (unsigned w = dp.windows; w-- > 0;) {
        if (w + 1 != dp.windows)
            for (unsigned k = 0; k < dp.c; ++k) r = r.dbl();
        r += window_sums[w];
    }
    return to_jacobian(r);
}

/// Steps 1-7 for a plan; table_stride != 0 when `points` is a table of shifted bases
/// (fixed_bases.cuh) with that many points per window. With `indices` (device memory, plan.n
/// entries) the MSM is over the scalars and points at those indices only. `points_needed`, if
/// set, runs on the host once steps 1-3 (which read only the scalars) are enqueued and before
/// the first kernel that reads the points: msm_device_from_host uploads the points there,
/// overlapping the sort. The kernels are launched by msm_sort_digits (per scalar field) and
/// msm_accumulate (per group), the units cuzk::instances precompiles (cuzk/instances.hpp).
template <class G>
jacobian<G> msm_run(const device_plan<G>& plan, const affine<G>* points, size_t table_stride,
                    const typename G::scalar::integer* scalars, const uint32_t* indices, void* workspace,
                    size_t workspace_bytes, cudaStream_t stream, scalar_form form,
                    const std::function<void()>& points_needed) {
    if (workspace_bytes < plan.total)
        throw invalid_argument("msm_device: workspace of " + std::to_string(workspace_bytes) + " bytes, need " +
                               std::to_string(plan.total));
    char* ws = static_cast<char*>(workspace);
    const sorted_digits d = msm_sort_digits(plan.digits, scalars, indices, table_stride, ws, stream, form);
    if (points_needed) points_needed();
    return msm_accumulate<G>(plan, d, points, ws + plan.digits.bytes, stream);
}

}  // namespace detail

/// sum_i scalars[i] * points[i] for n affine points and n scalars, both in device memory.
/// Enqueues everything on `stream`, waits for that stream only, and returns the result
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
    return r;  // msm_run synchronised `stream`, which waited for `copy`: the buffers may go
}

}  // namespace cuzk::msm

/// Explicit instantiation (prefix empty) or its extern declaration (prefix `extern`) of the
/// device MSM for group G (its accumulation; the digits are per scalar field, below): see
/// cuzk/instances.hpp.
#define CUZK_MSM_INSTANCES(prefix, G)                                                          \
    prefix template ::cuzk::jacobian<G> cuzk::msm::detail::msm_accumulate<G>(                  \
        const ::cuzk::msm::detail::device_plan<G>&, const ::cuzk::msm::detail::sorted_digits&, \
        const ::cuzk::affine<G>*, void*, cudaStream_t);

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
