// SPDX-License-Identifier: MIT OR Apache-2.0
// A witness plan: what a witness MSM (witness_device.cuh) computes from its scalars alone, made
// once and read by several MSMs over different bases of the same length, e.g. a Groth16
// proof's A, B_G1 and B_G2 over the witness z (groth16/cuda/prover.cuh).
//
//   witness_plan_bytes<Fr>(n)                       bytes of the plan's buffer (the caller's)
//   msm::witness_plan<Fr> plan(d_scalars, n, buf, buf_bytes, stream, {.form = scalar_form::montgomery});
//   jacobian<G1> a = msm::msm_witness_device<G1>(d_a, plan, ws, ws_bytes, stream);
//   jacobian<G2> b = msm::msm_witness_device<G2>(d_b, plan, ws, ws_bytes, stream);
//
// Building it (steps 1, 2 and half of 4 of witness_device.cuh):
//  1. classify  one thread per scalar: reduced mod r, is it 0, 1 or other (one byte each).
//  2. partition CUB three-way partition of the indices 0..n-1: the ones, the others, the zeros
//              (dropped). Both lists keep the input order. Their sizes go to the host (one wait
//              on the stream: they set the digits' width and CUB's item count, host arguments).
//  3. digits    the others' signed digits, sorted by bucket, and the bucket starts: steps 1-3 of
//              pippenger_device.cuh over the other indices, for plain bases (the witness MSM
//              over a table of shifted bases builds its own state with the table's width and
//              copies: witness_plan_build's table_stride). They name points by index, and the width
//              is chosen from the count of others (not from the group), so they serve G1 and G2
//              bases alike: each MSM over the plan sums its ones and accumulates its buckets from
//              the same sorted digits.
// The plan lives in the caller's buffer and reads the scalars only while it is built; MSMs over
// it must run on `stream` (or after it), while the buffer is untouched.
#pragma once

#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>

#include <cstdint>
#include <cub/device/device_partition.cuh>
#include <string>

#include "cuzk/core/error.hpp"
#include "cuzk/gpu/cuda_error.hpp"
#include "cuzk/gpu/result_area.hpp"
#include "cuzk/gpu/stream.hpp"
#include "cuzk/msm/pippenger_device.cuh"

namespace cuzk::msm {

namespace detail {

/// Step 1: cls[i] = 0, 1 or 2 for a scalar equal to 0, to 1, or anything else (mod r).
template <class Fr>
__global__ void witness_classify_kernel(uint8_t* cls, const typename Fr::integer* scalars, size_t n, scalar_form form) {
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const typename Fr::integer s = reduce_scalar<Fr>(scalars[i], form);
    cls[i] = s.is_zero() ? 0 : s == Fr::integer::from_u64(1) ? 1 : 2;
}

/// Partition predicate: the scalar at index i has class k.
struct witness_class_is {
    const uint8_t* cls;
    uint8_t k;
    __host__ __device__ bool operator()(uint32_t i) const { return cls[i] == k; }
};

/// Temporary bytes CUB's three-way partition of n Index positions by witness class needs. A
/// template (Index is uint32_t) only so that cuzk::instances can compile it once: the size query
/// instantiates CUB's partition kernels, which every TU that plans a witness MSM would compile again.
template <class Index>
size_t witness_partition_bytes(size_t n) {
    size_t bytes = 0;
    CUZK_CUDA_CHECK(cub::DevicePartition::If(nullptr, bytes, thrust::counting_iterator<Index>(0),
                                             static_cast<Index*>(nullptr), static_cast<Index*>(nullptr),
                                             thrust::make_discard_iterator(), static_cast<Index*>(nullptr), int64_t(n),
                                             witness_class_is{nullptr, 1}, witness_class_is{nullptr, 2}));
    return bytes;
}

/// Regions of a plan's buffer for n scalars (host): the class bytes and CUB's scratch are used
/// while the plan is built, the rest while it is read.
template <class Fr>
struct witness_plan_layout {
    digit_plan<Fr> bound;  // the others' digits if all n were others (the most they can need)
    size_t cub_bytes = 0;
    size_t o_cls = 0, o_ones = 0, o_others = 0, o_counts = 0, o_cub = 0, o_digits = 0, total = 0;

    /// `opt`: window_bits and scalar_bits of the digits; `shifted_bases` for digits over a
    /// table of shifted bases (opt.window_bits is then the table's c).
    witness_plan_layout(size_t n, const device_options& opt, bool shifted_bases) : bound(n, opt, shifted_bases) {
        cub_bytes = witness_partition_bytes<uint32_t>(n);
        workspace_layout ws;
        auto take = [&](size_t b) { return ws.take(b); };
        o_cls = take(n);
        o_ones = take(n * 4);
        o_others = take(n * 4);
        o_counts = take(2 * 4);
        o_cub = take(cub_bytes);
        o_digits = take(bound.bytes);
        total = ws.total;
    }
};

/// What a built plan holds (host values, device pointers into the plan's buffer).
template <class Fr>
struct witness_plan_state {
    size_t n = 0, n_ones = 0, n_others = 0;
    size_t table_stride = 0;           // 0: digits for plain bases; else a table's points per window
    const uint32_t* ones = nullptr;    // device: the indices of the scalars equal to 1
    const uint32_t* counts = nullptr;  // device: n_ones, n_others
    digit_plan<Fr> bound;              // digits for all n: what MSM workspaces over the plan are sized by
    digit_plan<Fr> digits;             // the others' digits (n_others scalars)
    sorted_digits sorted;              // ... sorted, in the buffer (n_others != 0)
};

/// Builds a plan (steps 1-3 above) over scalars[0..n) in `buffer` on `stream`; waits for
/// `stream` once, the counts queued into `area` (page-locked) before it. The one function per
/// scalar field that launches the plan's kernels (cuzk::instances precompiles it).
template <class Fr>
witness_plan_state<Fr> witness_plan_build(const typename Fr::integer* scalars, size_t n, size_t table_stride,
                                          void* buffer, size_t buffer_bytes, cudaStream_t stream,
                                          const device_options& opt, gpu::result_area& area) {
    witness_plan_state<Fr> s;
    s.table_stride = table_stride;
    if (n == 0) return s;
    if (n >= (size_t(1) << 31)) throw invalid_argument("witness_plan: n must be below 2^31");
    const witness_plan_layout<Fr> layout(n, opt, table_stride != 0);
    if (buffer_bytes < layout.total)
        throw invalid_argument("witness_plan: buffer of " + std::to_string(buffer_bytes) + " bytes, need " +
                               std::to_string(layout.total));
    char* buf = static_cast<char*>(buffer);
    uint8_t* cls = reinterpret_cast<uint8_t*>(buf + layout.o_cls);
    uint32_t* ones = reinterpret_cast<uint32_t*>(buf + layout.o_ones);
    uint32_t* others = reinterpret_cast<uint32_t*>(buf + layout.o_others);
    uint32_t* counts = reinterpret_cast<uint32_t*>(buf + layout.o_counts);

    const unsigned blk = 256;
    witness_classify_kernel<Fr><<<unsigned((n + blk - 1) / blk), blk, 0, stream>>>(cls, scalars, n, opt.form);
    CUZK_CUDA_CHECK_LAUNCH("witness_classify_kernel");
    size_t cub_bytes = layout.cub_bytes;
    CUZK_CUDA_CHECK(cub::DevicePartition::If(buf + layout.o_cub, cub_bytes, thrust::counting_iterator<uint32_t>(0),
                                             ones, others, thrust::make_discard_iterator(), counts, int64_t(n),
                                             witness_class_is{cls, 1}, witness_class_is{cls, 2}, stream));
    const uint32_t* count = area.download(counts, 2, stream);
    gpu::wait(stream);

    s.n = n;
    s.n_ones = count[0];
    s.n_others = count[1];
    s.ones = ones;
    s.counts = counts;
    s.bound = layout.bound;
    if (s.n_others != 0) {
        // The width chosen for the others, not the one the buffer was sized for: 10% others of
        // 2^24 take c = 16 (16 windows) where all 2^24 would take c = 20 (13 windows), and c = 20
        // over 1.7M points spends its time folding 6.8M buckets (1.7x the MSM's time on the H200).
        // Only the digit region must fit here; the MSMs over the plan check their own regions
        // (msm_witness_planned). Should the narrower width's digits outgrow the region sized for
        // all n, the sized width serves (same c, fewer points: no region is larger).
        s.digits = digit_plan<Fr>(s.n_others, opt, table_stride != 0);
        if (s.digits.bytes > s.bound.bytes) {
            device_options same = opt;
            same.window_bits = s.bound.c;
            s.digits = digit_plan<Fr>(s.n_others, same, table_stride != 0);
        }
        s.sorted = msm_sort_digits(s.digits, scalars, others, table_stride, buf + layout.o_digits, stream, opt.form);
    }
    return s;
}

}  // namespace detail

/// Bytes of the buffer a witness_plan over n scalars needs (for the same opt.window_bits and
/// opt.scalar_bits; the form does not matter).
template <class Fr>
size_t witness_plan_bytes(size_t n, const device_options& opt = {}) {
    if (n == 0) return 0;
    return detail::witness_plan_layout<Fr>(n, opt, false).total;
}

/// The zero / one / other split of n scalars and the sorted digits of the others, for witness
/// MSMs over any bases (of G1 or G2, scalar field Fr) of n plain points (msm_witness_device(points,
/// plan, ...)): they then only sum their ones and accumulate their buckets. A value type: device
/// pointers into the caller's buffer and host counts.
template <class Fr>
class witness_plan {
public:
    using integer = typename Fr::integer;

    /// The plan of no scalars (its MSMs return the identity).
    witness_plan() = default;

    /// Builds the plan of scalars[0..n) (device memory, in opt.form) in `buffer` (device memory
    /// of witness_plan_bytes<Fr>(n, opt) bytes, checked), on `stream`, which it waits for once
    /// (the counts come to the host, through `area` or the calling thread's result area).
    /// opt.window_bits and opt.scalar_bits are the digits' (0: chosen as msm_device would, for
    /// the count of others). Throws invalid_argument or cuda_error. The scalars are not read
    /// afterwards; the buffer is, by every MSM over the plan.
    witness_plan(const integer* scalars, size_t n, void* buffer, size_t buffer_bytes, cudaStream_t stream,
                 const device_options& opt = {})
        : witness_plan(scalars, n, buffer, buffer_bytes, stream, opt, fresh(gpu::thread_result_area())) {}
    witness_plan(const integer* scalars, size_t n, void* buffer, size_t buffer_bytes, cudaStream_t stream,
                 const device_options& opt, gpu::result_area& area)
        : s_(detail::witness_plan_build<Fr>(scalars, n, 0, buffer, buffer_bytes, stream, opt, area)) {}

    /// The number of scalars (and of bases each MSM over the plan takes).
    size_t size() const { return s_.n; }
    /// How many scalars are 1, and how many neither 0 nor 1 (mod r).
    size_t ones() const { return s_.n_ones; }
    size_t others() const { return s_.n_others; }
    /// The window width of the others' digits (0 when there are none).
    unsigned window_bits() const { return s_.n_others != 0 ? s_.digits.c : 0; }
    /// What the MSMs read (witness_device.cuh).
    const detail::witness_plan_state<Fr>& state() const { return s_; }

private:
    static gpu::result_area& fresh(gpu::result_area& a) {
        a.reset();
        return a;
    }
    detail::witness_plan_state<Fr> s_;
};

}  // namespace cuzk::msm

/// Explicit instantiation (prefix empty) or extern declaration (prefix `extern`) of the plan's
/// build for scalar field F: see cuzk/instances.hpp.
#define CUZK_WITNESS_PLAN_INSTANCES(prefix, F)                                                           \
    prefix template ::cuzk::msm::detail::witness_plan_state<F> cuzk::msm::detail::witness_plan_build<F>( \
        const F::integer*, size_t, size_t, void*, size_t, cudaStream_t, const ::cuzk::msm::device_options&, \
        ::cuzk::gpu::result_area&);

/// The family's shared part (src/instances/msm_bn254_g1.cu compiles it, through witness_device.cuh's
/// CUZK_WITNESS_MSM_SHARED_INSTANCES): the CUB size query and every scalar field's plan.
#define CUZK_WITNESS_PLAN_SHARED_INSTANCES(prefix)                                       \
    prefix template size_t cuzk::msm::detail::witness_partition_bytes<uint32_t>(size_t); \
    CUZK_FOR_EACH_INSTANCE_FIELD(CUZK_WITNESS_PLAN_INSTANCES, prefix)

#if defined(CUZK_PRECOMPILED)
#include "cuzk/instances.hpp"
CUZK_WITNESS_PLAN_SHARED_INSTANCES(extern)
#endif
