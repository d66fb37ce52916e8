// Witness MSMs on one GPU: sum_i s_i P_i where most s_i are 0 or 1, as in real circuits'
// witnesses (Filecoin's are almost all bits).
//
//   size_t bytes = cuzk::msm::msm_witness_workspace_bytes<G>(n);
//   jacobian<G> r = cuzk::msm::msm_witness_device<G>(d_points, d_scalars, n, ws, bytes, stream);
//
// One call, one result, any scalars (the split is an optimisation, never a precondition):
//  1. classify  one thread per scalar: reduced mod r, is it 0, 1 or other (one byte each).
//  2. partition CUB three-way partition of the indices 0..n-1: the ones, the others, the zeros
//              (dropped). Both lists keep the input order. Their sizes go to the host (one
//              stream synchronisation), which plans the rest.
//  3. ones      sum_{s_i = 1} P_i by a parallel reduction: each thread adds a strided share of
//              the points (mixed additions), warps and blocks fold by shuffles, a second one-block
//              pass adds the blocks' partial sums. No digits, no sort, no buckets.
//  4. others    Pippenger (pippenger_device.cuh) over the other indices only: its digit kernel
//              reads scalar and point through the index list, so nothing is copied.
// With a table of shifted bases (fixed_bases.cuh) step 4 uses the table and step 3 its first
// row (the points themselves).
//
// At 90% bits this replaces ~n bucket additions per window (~13 windows at 2^24) by ~0.9 n
// additions in all plus Pippenger on 0.1 n points.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cub/device/device_partition.cuh>
#include <string>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>

#include "cuzk/core/error.hpp"
#include "cuzk/gpu/cuda_error.hpp"
#include "cuzk/msm/fixed_bases.cuh"
#include "cuzk/msm/pippenger_device.cuh"

namespace cuzk::msm {

namespace detail {

inline constexpr unsigned witness_sum_block = 256;      // threads per block of the ones sum
inline constexpr unsigned witness_sum_max_blocks = 1024;  // partial sums the second pass adds

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

/// Sizes and workspace offsets of one witness MSM over n scalars (host).
template <class G>
struct witness_plan {
    using bucket = xyzz<G>;
    size_t n = 0, cub_bytes = 0;
    device_plan<G> rest;  // the Pippenger plan for all n (the most the rest can need)
    size_t o_cls, o_ones, o_others, o_counts, o_partials, o_result, o_cub, o_msm, total;

    witness_plan(size_t n_, const device_options& opt, bool shifted_bases) : n(n_), rest(n_, opt, shifted_bases) {
        cub_bytes = witness_partition_bytes<uint32_t>(n);
        workspace_layout ws;
        auto take = [&](size_t bytes) { return ws.take(bytes); };
        o_cls = take(n);
        o_ones = take(n * 4);
        o_others = take(n * 4);
        o_counts = take(2 * 4);
        o_partials = take(witness_sum_max_blocks * sizeof(bucket));
        o_result = take(sizeof(bucket));
        o_cub = take(cub_bytes);
        o_msm = take(rest.total);
        total = ws.total;
    }
};

/// Steps 1-4 (the one function per group that launches the witness kernels; cuzk::instances
/// precompiles it). points: the bases, or a table of shifted bases with table_stride points
/// per window and window width table_c (0 for plain bases).
template <class G>
jacobian<G> msm_witness_run(const affine<G>* points, size_t table_stride, unsigned table_c,
                            const typename G::scalar::integer* scalars, size_t n, void* workspace,
                            size_t workspace_bytes, cudaStream_t stream, const device_options& opt) {
    using Fr = typename G::scalar;
    using bucket = xyzz<G>;
    if (n == 0) return jacobian<G>::identity();
    if (n >= (size_t(1) << 31)) throw invalid_argument("msm_witness_device: n must be below 2^31");
    device_options o = opt;
    if (table_stride != 0) o.window_bits = table_c;
    const witness_plan<G> plan(n, o, table_stride != 0);
    if (workspace_bytes < plan.total)
        throw invalid_argument("msm_witness_device: workspace of " + std::to_string(workspace_bytes) +
                               " bytes, need " + std::to_string(plan.total));
    char* ws = static_cast<char*>(workspace);
    uint8_t* cls = reinterpret_cast<uint8_t*>(ws + plan.o_cls);
    uint32_t* ones = reinterpret_cast<uint32_t*>(ws + plan.o_ones);
    uint32_t* others = reinterpret_cast<uint32_t*>(ws + plan.o_others);
    uint32_t* counts = reinterpret_cast<uint32_t*>(ws + plan.o_counts);
    bucket* partials = reinterpret_cast<bucket*>(ws + plan.o_partials);
    bucket* result = reinterpret_cast<bucket*>(ws + plan.o_result);

    const unsigned blk = 256;
    witness_classify_kernel<Fr><<<unsigned((n + blk - 1) / blk), blk, 0, stream>>>(cls, scalars, n, o.form);
    CUZK_CUDA_CHECK_LAUNCH("witness_classify_kernel");
    size_t cub_bytes = plan.cub_bytes;
    CUZK_CUDA_CHECK(cub::DevicePartition::If(ws + plan.o_cub, cub_bytes, thrust::counting_iterator<uint32_t>(0), ones,
                                             others, thrust::make_discard_iterator(), counts, int64_t(n),
                                             witness_class_is{cls, 1}, witness_class_is{cls, 2}, stream));
    uint32_t count[2] = {0, 0};
    CUZK_CUDA_CHECK(cudaMemcpyAsync(count, counts, sizeof count, cudaMemcpyDeviceToHost, stream));
    CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
    const size_t n_ones = count[0], n_others = count[1];

    bucket ones_sum = bucket::identity();
    if (n_ones != 0) {
        const size_t per_block = size_t(witness_sum_block) * 8;  // at least ~8 additions per thread
        const unsigned blocks =
            unsigned(std::min<size_t>(witness_sum_max_blocks, (n_ones + per_block - 1) / per_block));
        witness_ones_kernel<G><<<blocks, witness_sum_block, 0, stream>>>(partials, points, ones, counts);
        CUZK_CUDA_CHECK_LAUNCH("witness_ones_kernel");
        witness_fold_kernel<G><<<1, witness_sum_block, 0, stream>>>(result, partials, blocks);
        CUZK_CUDA_CHECK_LAUNCH("witness_fold_kernel");
        // Waited for by msm_run's synchronisation below, or by the one after.
        CUZK_CUDA_CHECK(cudaMemcpyAsync(&ones_sum, result, sizeof(bucket), cudaMemcpyDeviceToHost, stream));
    }
    jacobian<G> rest = jacobian<G>::identity();
    if (n_others != 0) {
        device_plan<G> p(n_others, o, table_stride != 0);
        // The window width for fewer points may differ from the one the workspace was sized
        // for; with that width (same c, fewer points) every region is no larger.
        if (p.total > plan.rest.total) {
            device_options same = o;
            same.window_bits = plan.rest.c;
            same.accumulate = plan.rest.batch_affine ? device_options::accumulation::batch_affine
                                                     : device_options::accumulation::xyzz;
            p = device_plan<G>(n_others, same, table_stride != 0, plan.rest.seg_len);
        }
        rest = msm_run<G>(p, points, table_stride, scalars, others, ws + plan.o_msm, plan.rest.total, stream, o.form, {});
    } else {
        CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
    }
    return rest + to_jacobian(ones_sum);
}

}  // namespace detail

/// Workspace bytes msm_witness_device needs for n points (and the same options).
template <class G>
size_t msm_witness_workspace_bytes(size_t n, const device_options& opt = {}) {
    if (n == 0) return 0;
    return detail::witness_plan<G>(n, opt, false).total;
}

/// Workspace bytes msm_witness_device(table, ...) needs for the first n bases of the table.
template <class G>
size_t msm_witness_workspace_bytes(const fixed_bases<G>& table, size_t n) {
    if (n == 0) return 0;
    return detail::witness_plan<G>(n, device_options{.window_bits = table.window_bits()}, true).total;
}

/// Workspace bytes a witness MSM over n bases of a table of width window_bits needs (0: the
/// width a table of n bases chooses), for sizing before the table exists.
template <class G>
size_t witness_fixed_bases_workspace_bytes(size_t n, unsigned window_bits = 0) {
    if (n == 0) return 0;
    const unsigned c = window_bits != 0 ? window_bits : fixed_bases_window_bits(n, unsigned(G::scalar::modulus_bits));
    return detail::witness_plan<G>(n, device_options{.window_bits = c}, true).total;
}

/// sum_i scalars[i] * points[i] like msm_device (same contract: device memory, the caller's
/// workspace of msm_witness_workspace_bytes<G>(n, opt) bytes, enqueued on `stream`, which it
/// synchronises twice), fastest when most scalars are 0 or 1: zeros are dropped, ones are summed
/// without buckets, the rest go through Pippenger. Correct for any scalars.
template <class G>
jacobian<G> msm_witness_device(const affine<G>* points, const typename G::scalar::integer* scalars, size_t n,
                               void* workspace, size_t workspace_bytes, cudaStream_t stream,
                               const device_options& opt = {}) {
    return detail::msm_witness_run<G>(points, 0, 0, scalars, n, workspace, workspace_bytes, stream, opt);
}

/// The witness MSM over the first n bases of a table of shifted bases (fixed_bases.cuh).
template <class G>
jacobian<G> msm_witness_device(const fixed_bases<G>& table, const typename G::scalar::integer* scalars, size_t n,
                               void* workspace, size_t workspace_bytes, cudaStream_t stream,
                               scalar_form form = scalar_form::canonical) {
    if (n > table.size())
        throw invalid_argument("msm_witness_device: " + std::to_string(n) + " scalars for a table of " +
                               std::to_string(table.size()) + " bases");
    return detail::msm_witness_run<G>(table.data(), table.size(), table.window_bits(), scalars, n, workspace,
                                      workspace_bytes, stream, device_options{.form = form});
}

}  // namespace cuzk::msm

/// Explicit instantiation (prefix empty) or extern declaration (prefix `extern`) of the witness
/// MSM for group G: see cuzk/instances.hpp.
#define CUZK_WITNESS_MSM_INSTANCES(prefix, G)                                                                \
    prefix template ::cuzk::jacobian<G> cuzk::msm::detail::msm_witness_run<G>(                               \
        const ::cuzk::affine<G>*, size_t, unsigned, const G::scalar::integer*, size_t, void*, size_t, cudaStream_t, \
        const ::cuzk::msm::device_options&);

/// The family's group-independent part (src/instances/msm_bn254_g1.cu compiles it).
#define CUZK_WITNESS_MSM_SHARED_INSTANCES(prefix) \
    prefix template size_t cuzk::msm::detail::witness_partition_bytes<uint32_t>(size_t);

#if defined(CUZK_PRECOMPILED)
#include "cuzk/instances.hpp"
CUZK_FOR_EACH_INSTANCE_GROUP(CUZK_WITNESS_MSM_INSTANCES, extern)
CUZK_WITNESS_MSM_SHARED_INSTANCES(extern)
#endif
