// SPDX-License-Identifier: MIT OR Apache-2.0
// Witness MSMs on one GPU: sum_i s_i P_i where most s_i are 0 or 1, as in real circuits'
// witnesses (Filecoin's are almost all bits).
//
//   size_t bytes = cuzk::msm::msm_witness_workspace_bytes<G>(n);
//   jacobian<G> r = cuzk::msm::msm_witness_device<G>(d_points, d_scalars, n, ws, bytes, stream);
//
// One call, one result, any scalars (the split is an optimisation, never a precondition):
//  1. classify  one thread per scalar: reduced mod r, is it 0, 1 or other (one byte each).
//  2. partition CUB three-way partition of the indices 0..n-1: the ones, the others, the zeros
//              (dropped). Both lists keep the input order. Their sizes go to the host (one wait
//              on the stream), which plans the rest.
//  3. ones      sum_{s_i = 1} P_i by a parallel reduction: each thread adds a strided share of
//              the points (mixed additions), warps and blocks fold by shuffles, a second one-block
//              pass adds the blocks' partial sums. No digits, no sort, no buckets.
//  4. others    Pippenger (pippenger_device.cuh) over the other indices only: its digit kernel
//              reads scalar and point through the index list, so nothing is copied.
// With a table of shifted bases (fixed_bases.cuh) step 4 uses the table and step 3 its first
// row (the points themselves).
//
// Steps 1, 2 and the digits and sort of step 4 read only the scalars: they are a witness plan
// (witness_plan.cuh). The call above makes its own in the front of its workspace; several MSMs
// over the same scalars and bases of the same length can share one instead:
//
//   msm::witness_plan<Fr> plan(d_scalars, n, buf, msm::witness_plan_bytes<Fr>(n), stream);
//   size_t bytes = msm::msm_witness_workspace_bytes<G>(plan);       // the rest: ones, buckets
//   jacobian<G> r = msm::msm_witness_device<G>(d_points, plan, ws, bytes, stream);
//
// At 90% bits this replaces ~n bucket additions per window (~13 windows at 2^24) by ~0.9 n
// additions in all plus Pippenger on 0.1 n points.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "cuzk/core/error.hpp"
#include "cuzk/gpu/cuda_error.hpp"
#include "cuzk/gpu/result_area.hpp"
#include "cuzk/gpu/stream.hpp"
#include "cuzk/msm/fixed_bases.cuh"
#include "cuzk/msm/pending_sum.cuh"
#include "cuzk/msm/pippenger_device.cuh"
#include "cuzk/msm/witness_plan.cuh"

namespace cuzk::msm {

namespace detail {

inline constexpr unsigned witness_sum_block = 256;      // threads per block of the ones sum
inline constexpr unsigned witness_sum_max_blocks = 1024;  // partial sums the second pass adds

/// Adds a warp's values into lane 0 (full additions as calls: this runs once per warp).
template <class G>
__device__ xyzz<G> witness_warp_sum(xyzz<G> v) {
#pragma unroll 1
    for (unsigned d = 16; d > 0; d /= 2) v = add_outline(v, msm_shfl_down(v, d));
    return v;
}

/// Adds the warps of a block into thread 0's return value (others return garbage).
template <class G>
__device__ xyzz<G> witness_block_sum(xyzz<G> v) {
    // Raw storage: a __shared__ array of a type with constructors is not allowed.
    __shared__ alignas(16) unsigned char raw[sizeof(xyzz<G>) * (witness_sum_block / 32)];
    xyzz<G>* warp_sums = reinterpret_cast<xyzz<G>*>(raw);
    v = witness_warp_sum(v);
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (unsigned w = 1; w < blockDim.x / 32; ++w) v = add_outline(v, warp_sums[w]);
    }
    return v;
}

/// Step 3, first pass: partials[b] = block b's share of sum P[idx[i]] for i < *count.
template <class G>
__global__ void __launch_bounds__(witness_sum_block) witness_ones_kernel(xyzz<G>* partials, const affine<G>* points,
                                                                         const uint32_t* idx, const uint32_t* count) {
    const size_t threads = size_t(gridDim.x) * blockDim.x, n = *count;
    xyzz<G> acc = xyzz<G>::identity();
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += threads) acc += points[idx[i]];
    acc = witness_block_sum(acc);
    if (threadIdx.x == 0) partials[blockIdx.x] = acc;
}

/// Step 3, second pass (one block): *out = sum of the blocks' partial sums.
template <class G>
__global__ void __launch_bounds__(witness_sum_block) witness_fold_kernel(xyzz<G>* out, const xyzz<G>* partials,
                                                                         unsigned count) {
    xyzz<G> acc = xyzz<G>::identity();
    for (unsigned i = threadIdx.x; i < count; i += blockDim.x) acc = add_outline(acc, partials[i]);
    acc = witness_block_sum(acc);
    if (threadIdx.x == 0) *out = acc;
}

/// Regions of the workspace of one witness MSM over a plan (host): the ones' partial sums and
/// the accumulation region of Pippenger over the others, sized for a plan whose digits fit in
/// `bound` (all n scalars others) and the given accumulation.
template <class G>
struct witness_msm_layout {
    using bucket = xyzz<G>;
    device_plan<G> rest;  // Pippenger over all n: the most the others can need
    size_t o_partials = 0, o_result = 0, o_accumulation = 0, total = 0;

    witness_msm_layout(const digit_plan<typename G::scalar>& bound, device_options::accumulation accumulate)
        : rest(bound, accumulate) {
        workspace_layout ws;
        o_partials = ws.take(witness_sum_max_blocks * sizeof(bucket));
        o_result = ws.take(sizeof(bucket));
        o_accumulation = ws.take(rest.accumulation_bytes);
        total = ws.total;
    }
};

/// Steps 3 and 4 over a built plan, enqueued on `stream` with their results queued into `out`
/// (pending_sum.cuh): the ones' sum, and the accumulation of the others' buckets from the plan's
/// sorted digits. The one function per group that launches the witness MSM's own kernels
/// (cuzk::instances precompiles it). points: plain bases, or a table of shifted bases when the
/// plan's digits were made for one.
template <class G>
pending_sum<G> msm_witness_planned_enqueue(const affine<G>* points, const witness_plan_state<typename G::scalar>& plan,
                                           void* workspace, size_t workspace_bytes, cudaStream_t stream,
                                           device_options::accumulation accumulate, gpu::result_area& out) {
    using bucket = xyzz<G>;
    pending_sum<G> r;
    if (plan.n == 0) return r;
    const witness_msm_layout<G> layout(plan.bound, accumulate);
    if (workspace_bytes < layout.total)
        throw invalid_argument("msm_witness_device: workspace of " + std::to_string(workspace_bytes) + " bytes, need " +
                               std::to_string(layout.total));
    char* ws = static_cast<char*>(workspace);
    bucket* partials = reinterpret_cast<bucket*>(ws + layout.o_partials);
    bucket* result = reinterpret_cast<bucket*>(ws + layout.o_result);

    if (plan.n_ones != 0) {
        const size_t per_block = size_t(witness_sum_block) * 8;  // at least ~8 additions per thread
        const unsigned blocks = unsigned(
            std::min<size_t>(witness_sum_max_blocks, (plan.n_ones + per_block - 1) / per_block));
        witness_ones_kernel<G><<<blocks, witness_sum_block, 0, stream>>>(partials, points, plan.ones, plan.counts);
        CUZK_CUDA_CHECK_LAUNCH("witness_ones_kernel");
        witness_fold_kernel<G><<<1, witness_sum_block, 0, stream>>>(result, partials, blocks);
        CUZK_CUDA_CHECK_LAUNCH("witness_fold_kernel");
        r.add_point(out.download(result, 1, stream));
    }
    if (plan.n_others != 0) {
        // The accumulation chosen for the plan's digits (their own width, witness_plan_build)
        // may differ from the one the workspace was sized for (all n scalars others) and need
        // more; that one then serves with its segment length (no shorter: no more segments).
        // For the automatic widths a model of these sizes (n up to 2^27, any count of others,
        // both curves, G1 and G2) finds it always fits; the error is the guard.
        device_plan<G> p(plan.digits, accumulate);
        if (p.accumulation_bytes > layout.rest.accumulation_bytes) {
            using acc = device_options::accumulation;
            p = device_plan<G>(plan.digits, layout.rest.batch_affine ? acc::batch_affine : acc::xyzz,
                               layout.rest.seg_len);
            if (p.accumulation_bytes > layout.rest.accumulation_bytes)
                throw error("msm_witness_device: the plan's digits outgrow the workspace sized for them");
        }
        r += msm_accumulate_enqueue<G>(p, plan.sorted, points, ws + layout.o_accumulation, stream, out);
    }
    return r;
}

/// Workspace bytes of a witness MSM that makes its own plan: the plan's buffer, then the MSM's.
template <class G>
size_t witness_workspace_bytes(size_t n, const device_options& opt, bool shifted_bases) {
    if (n == 0) return 0;
    const witness_plan_layout<typename G::scalar> plan(n, opt, shifted_bases);
    return plan.total + witness_msm_layout<G>(plan.bound, opt.accumulate).total;
}

/// A witness MSM with its own plan in the front of its workspace, enqueued on `stream` (the plan
/// waits once, for its counts) with its results queued into `out`. points: the bases, or a table
/// of shifted bases with table_stride points per window and window width table_c (0 for plain
/// bases).
template <class G>
pending_sum<G> msm_witness_run_enqueue(const affine<G>* points, size_t table_stride, unsigned table_c,
                                       const typename G::scalar::integer* scalars, size_t n, void* workspace,
                                       size_t workspace_bytes, cudaStream_t stream, const device_options& opt,
                                       gpu::result_area& out) {
    if (n == 0) return {};
    if (n >= (size_t(1) << 31)) throw invalid_argument("msm_witness_device: n must be below 2^31");
    device_options o = opt;
    if (table_stride != 0) o.window_bits = table_c;
    const size_t plan_bytes = witness_plan_layout<typename G::scalar>(n, o, table_stride != 0).total;
    const size_t need = witness_workspace_bytes<G>(n, o, table_stride != 0);
    if (workspace_bytes < need)
        throw invalid_argument("msm_witness_device: workspace of " + std::to_string(workspace_bytes) + " bytes, need " +
                               std::to_string(need));
    char* ws = static_cast<char*>(workspace);
    const auto plan = witness_plan_build<typename G::scalar>(scalars, n, table_stride, ws, plan_bytes, stream, o, out);
    return msm_witness_planned_enqueue<G>(points, plan, ws + plan_bytes, workspace_bytes - plan_bytes, stream,
                                          o.accumulate, out);
}

}  // namespace detail

/// Workspace bytes msm_witness_device needs for n points (and the same options): its own plan
/// (witness_plan_bytes) and the MSM over it.
template <class G>
size_t msm_witness_workspace_bytes(size_t n, const device_options& opt = {}) {
    return detail::witness_workspace_bytes<G>(n, opt, false);
}

/// Workspace bytes msm_witness_device(table, ...) needs for the first n bases of the table.
template <class G>
size_t msm_witness_workspace_bytes(const fixed_bases<G>& table, size_t n) {
    return detail::witness_workspace_bytes<G>(n, device_options{.window_bits = table.window_bits()}, true);
}

/// Workspace bytes a witness MSM over n bases of a table of width window_bits needs (0: the
/// width a table of n bases chooses), for sizing before the table exists.
template <class G>
size_t witness_fixed_bases_workspace_bytes(size_t n, unsigned window_bits = 0) {
    if (n == 0) return 0;
    const unsigned c = window_bits != 0 ? window_bits : fixed_bases_window_bits(n, unsigned(G::scalar::modulus_bits));
    return detail::witness_workspace_bytes<G>(n, device_options{.window_bits = c}, true);
}

/// Workspace bytes msm_witness_device(points, plan, ...) needs, for this plan and accumulation
/// (beside the plan's own buffer: witness_plan_bytes).
template <class G>
size_t msm_witness_workspace_bytes(const witness_plan<typename G::scalar>& plan,
                                   device_options::accumulation accumulate = device_options::accumulation::automatic) {
    if (plan.size() == 0) return 0;
    return detail::witness_msm_layout<G>(plan.state().bound, accumulate).total;
}

/// The same before the plan exists: for any plan of n scalars made with opt (its window_bits,
/// scalar_bits) and MSMs with opt.accumulate.
template <class G>
size_t msm_witness_planned_workspace_bytes(size_t n, const device_options& opt = {}) {
    if (n == 0) return 0;
    return detail::witness_msm_layout<G>(detail::digit_plan<typename G::scalar>(n, opt), opt.accumulate).total;
}

/// sum_i scalars[i] * points[i] like msm_device_enqueue (same contract: device memory, the
/// caller's workspace of msm_witness_workspace_bytes<G>(n, opt) bytes, enqueued on `stream`, the
/// results queued into `out`; pending_sum.cuh), fastest when most scalars are 0 or 1: zeros are
/// dropped, ones are summed without buckets, the rest go through Pippenger. Correct for any
/// scalars. Its own plan waits for `stream` once (the split's counts are host arguments of the
/// sort).
template <class G>
pending_sum<G> msm_witness_device_enqueue(const affine<G>* points, const typename G::scalar::integer* scalars, size_t n,
                                          void* workspace, size_t workspace_bytes, cudaStream_t stream,
                                          gpu::result_area& out, const device_options& opt = {}) {
    return detail::msm_witness_run_enqueue<G>(points, 0, 0, scalars, n, workspace, workspace_bytes, stream, opt, out);
}

/// The same, waited for (twice in all: the plan's counts, then the end): the sum.
template <class G>
jacobian<G> msm_witness_device(const affine<G>* points, const typename G::scalar::integer* scalars, size_t n,
                               void* workspace, size_t workspace_bytes, cudaStream_t stream,
                               const device_options& opt = {}) {
    if (n == 0) return jacobian<G>::identity();
    return detail::waited_sum<G>(stream, [&](gpu::result_area& area) {
        return msm_witness_device_enqueue<G>(points, scalars, n, workspace, workspace_bytes, stream, area, opt);
    });
}

/// The witness MSM over a plan of its scalars (witness_plan.cuh): sum_i s_i * points[i] for the
/// plan's scalars s and plan.size() plain bases in device memory, the same sum as the calls above.
/// Only the ones' sum and the buckets are computed: the split and the others' sorted digits are
/// the plan's, so any number of MSMs (G1 or G2 bases) can share them. The workspace holds
/// msm_witness_workspace_bytes<G>(plan, accumulate) bytes (checked); the plan's buffer is read
/// and must be untouched since the plan was built on `stream` (or on a stream this one waits
/// for). Enqueued with its results queued into `out`: no wait.
template <class G>
pending_sum<G> msm_witness_device_enqueue(
    const affine<G>* points, const witness_plan<typename G::scalar>& plan, void* workspace, size_t workspace_bytes,
    cudaStream_t stream, gpu::result_area& out,
    device_options::accumulation accumulate = device_options::accumulation::automatic) {
    if (plan.state().table_stride != 0)
        throw invalid_argument("msm_witness_device: the plan's digits are for a table of shifted bases");
    return detail::msm_witness_planned_enqueue<G>(points, plan.state(), workspace, workspace_bytes, stream, accumulate,
                                                  out);
}

/// The same, waited for once: the sum.
template <class G>
jacobian<G> msm_witness_device(const affine<G>* points, const witness_plan<typename G::scalar>& plan, void* workspace,
                               size_t workspace_bytes, cudaStream_t stream,
                               device_options::accumulation accumulate = device_options::accumulation::automatic) {
    if (plan.size() == 0) return jacobian<G>::identity();
    return detail::waited_sum<G>(stream, [&](gpu::result_area& area) {
        return msm_witness_device_enqueue<G>(points, plan, workspace, workspace_bytes, stream, area, accumulate);
    });
}

/// The witness MSM over the first n bases of a table of shifted bases (fixed_bases.cuh), enqueued
/// into `out`. It makes its own plan (one wait): a plan's digits name plain bases (the table's
/// need its width and its copies' offsets).
template <class G>
pending_sum<G> msm_witness_device_enqueue(const fixed_bases<G>& table, const typename G::scalar::integer* scalars,
                                          size_t n, void* workspace, size_t workspace_bytes, cudaStream_t stream,
                                          gpu::result_area& out, scalar_form form = scalar_form::canonical) {
    if (n > table.size())
        throw invalid_argument("msm_witness_device: " + std::to_string(n) + " scalars for a table of " +
                               std::to_string(table.size()) + " bases");
    return detail::msm_witness_run_enqueue<G>(table.data(), table.size(), table.window_bits(), scalars, n, workspace,
                                              workspace_bytes, stream, device_options{.form = form}, out);
}

/// The same, waited for: the sum.
template <class G>
jacobian<G> msm_witness_device(const fixed_bases<G>& table, const typename G::scalar::integer* scalars, size_t n,
                               void* workspace, size_t workspace_bytes, cudaStream_t stream,
                               scalar_form form = scalar_form::canonical) {
    if (n == 0) return jacobian<G>::identity();
    return detail::waited_sum<G>(stream, [&](gpu::result_area& area) {
        return msm_witness_device_enqueue(table, scalars, n, workspace, workspace_bytes, stream, area, form);
    });
}

}  // namespace cuzk::msm

/// Explicit instantiation (prefix empty) or extern declaration (prefix `extern`) of the witness
/// MSM for group G: see cuzk/instances.hpp.
#define CUZK_WITNESS_MSM_INSTANCES(prefix, G)                                                               \
    prefix template ::cuzk::msm::pending_sum<G> cuzk::msm::detail::msm_witness_planned_enqueue<G>(          \
        const ::cuzk::affine<G>*, const ::cuzk::msm::detail::witness_plan_state<G::scalar>&, void*, size_t, \
        cudaStream_t, ::cuzk::msm::device_options::accumulation, ::cuzk::gpu::result_area&);

/// The family's group-independent part (src/instances/msm_bn254_g1.cu compiles it): the plans
/// (witness_plan.cuh).
#define CUZK_WITNESS_MSM_SHARED_INSTANCES(prefix) CUZK_WITNESS_PLAN_SHARED_INSTANCES(prefix)

#if defined(CUZK_PRECOMPILED)
#include "cuzk/instances.hpp"
CUZK_FOR_EACH_INSTANCE_GROUP(CUZK_WITNESS_MSM_INSTANCES, extern)
#endif
