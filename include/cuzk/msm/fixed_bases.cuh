// SPDX-License-Identifier: MIT OR Apache-2.0
// Fixed bases with precomputed shifted copies: memory for speed when the same points (a
// proving key) serve many MSMs.
//
//   msm::fixed_bases<G> table(d_points, n, stream);        // P_i, 2^c P_i, 2^2c P_i, ... once
//   size_t bytes = msm::msm_device_workspace_bytes(table, n);
//   jacobian<G> r = msm::msm_device(table, d_scalars, n, ws, bytes, stream);
//
// With the copies 2^(cw) P_i at hand, digit d of window w adds 2^(cw) P_i into bucket |d| of a
// single bucket set, so the bucket fold runs once instead of once per window and there is no
// Horner step. That makes wide windows cheap: for 2^24 bases the chosen c = 22 needs 12 windows
// for 255-bit scalars where the plain MSM's best c needs 16, so a quarter fewer point additions.
// The price is W copies of the points (12 x 1.6 GB for 2^24 BLS12-381 G1 points).
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "cuzk/core/error.hpp"
#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/batch_normalize.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/gpu/cuda_error.hpp"
#include "cuzk/gpu/device_buffer.hpp"
#include "cuzk/gpu/result_area.hpp"
#include "cuzk/gpu/stream.hpp"
#include "cuzk/msm/pending_sum.cuh"
#include "cuzk/msm/pippenger_device.cuh"
#include "cuzk/msm/window_cost.hpp"

namespace cuzk::msm {

/// Most windows a table may have (bounds the windows a thread keeps in local memory); its
/// narrowest width is fixed_bases_min_window_bits (window_cost.hpp).
inline constexpr unsigned fixed_bases_max_windows = 33;

/// The window width a table of n bases uses unless told otherwise: minimises the point
/// additions W(c) * n plus the single fold's ~3 * 2^(c-1), over the widths a table allows
/// (table_buckets).
inline unsigned fixed_bases_window_bits(size_t n, unsigned scalar_bits) {
    return choose_window_bits(n, scalar_bits, table_buckets);
}

namespace detail {

/// Thread i writes table[w * n + i] = 2^(cw) P_i for every window w: c doublings per window in
/// Jacobian coordinates, then one inversion for the whole row (Montgomery's trick).
template <class G>
__global__ void __launch_bounds__(128) fixed_bases_kernel(affine<G>* table, const affine<G>* points, size_t n,
                                                          unsigned c, unsigned windows) {
    using F = typename G::field;
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n) return;
    jacobian<G> row[fixed_bases_max_windows];
    F prefix[fixed_bases_max_windows];  // product of the non-identity Z before window w
    F product = F::one();
    jacobian<G> p = jacobian<G>::from_affine(points[i]);
    for (unsigned w = 0; w < windows; ++w) {
        row[w] = p;
        prefix[w] = product;
        if (!p.is_identity()) product *= p.z;
        if (w + 1 < windows)
            for (unsigned k = 0; k < c; ++k) p = p.dbl();
    }
    F inv = product.inverse_vartime();  // the inverse of every Z so far (public points: binary GCD)
    for (unsigned w = windows; w-- > 0;) {
        affine<G> a{};  // the identity is (0, 0)
        if (!row[w].is_identity()) {
            a = cuzk::detail::from_inverse(row[w], inv * prefix[w]);
            inv *= row[w].z;
        }
        table[size_t(w) * n + i] = a;
    }
}

/// Fills a table of `windows` rows of n points on `stream` (one thread per point).
template <class G>
void fill_fixed_bases(affine<G>* table, const affine<G>* points, size_t n, unsigned c, unsigned windows,
                      cudaStream_t stream) {
    const unsigned block = 128;
    fixed_bases_kernel<G><<<unsigned((n + block - 1) / block), block, 0, stream>>>(table, points, n, c, windows);
    CUZK_CUDA_CHECK_LAUNCH("fixed_bases_kernel");
}

}  // namespace detail

/// n device points with their shifted copies 2^(cw) P for every window w of c bits, in device
/// memory owned by this object (allocated and filled on the given stream).
template <class G>
class fixed_bases {
public:
    /// window_bits = 0 picks fixed_bases_window_bits(n). The copies are computed on `stream`
    /// (about c doublings per window and one inversion per point: ~2 s for 2^24 BLS12-381 G1).
    fixed_bases(const affine<G>* d_points, size_t n, cudaStream_t stream, unsigned window_bits = 0)
        : n_(n), c_(window_bits != 0 ? window_bits : fixed_bases_window_bits(n, scalar_bits)),
          windows_(num_windows(scalar_bits, c_)) {
        if (c_ < fixed_bases_min_window_bits || c_ > device_max_window_bits)
            throw invalid_argument("fixed_bases: window_bits must be in [" + std::to_string(fixed_bases_min_window_bits) +
                                   ", " + std::to_string(device_max_window_bits) + "], got " + std::to_string(c_));
        if (n == 0) throw invalid_argument("fixed_bases: no points");
        if (size_t(windows_) * n >= (size_t(1) << 31))
            throw invalid_argument("fixed_bases: " + std::to_string(n) + " points x " + std::to_string(windows_) +
                                   " windows exceed 2^31 table entries; use wider windows or split the bases");
        table_ = gpu::device_buffer<affine<G>>(size_t(windows_) * n, stream);
        detail::fill_fixed_bases<G>(table_.data(), d_points, n, c_, windows_, stream);
    }

    /// Device bytes of the table for n points and window width c (0: the automatic choice).
    static size_t bytes_for(size_t n, unsigned window_bits = 0) {
        const unsigned c = window_bits != 0 ? window_bits : fixed_bases_window_bits(n, scalar_bits);
        return size_t(num_windows(scalar_bits, c)) * n * sizeof(affine<G>);
    }

    size_t size() const { return n_; }
    unsigned window_bits() const { return c_; }
    unsigned windows() const { return windows_; }
    /// Window w's copies start at data() + w * size().
    const affine<G>* data() const { return table_.data(); }

private:
    static constexpr unsigned scalar_bits = unsigned(G::scalar::modulus_bits);
    size_t n_;
    unsigned c_, windows_;
    gpu::device_buffer<affine<G>> table_;
};

/// Workspace bytes an MSM over n bases of a table of width window_bits needs (0: the width a
/// table of n bases chooses), for sizing before the table exists.
template <class G>
size_t fixed_bases_workspace_bytes(size_t n, unsigned window_bits = 0) {
    if (n == 0) return 0;
    const unsigned c = window_bits != 0 ? window_bits : fixed_bases_window_bits(n, unsigned(G::scalar::modulus_bits));
    return detail::device_plan<G>(n, device_options{.window_bits = c}, true).total;
}

/// Workspace bytes msm_device(table, ...) needs for the first n bases.
template <class G>
size_t msm_device_workspace_bytes(const fixed_bases<G>& table, size_t n) {
    return fixed_bases_workspace_bytes<G>(n, table.window_bits());
}

/// sum_i scalars[i] * P_i over the first n bases of the table (n <= table.size()), scalars in
/// device memory in the given form, enqueued on `stream` into `out` (pending_sum.cuh). Same
/// contract as the plain msm_device_enqueue (stream, workspace, errors); the table must be
/// complete on `stream` (same stream, or the caller orders them).
template <class G>
pending_sum<G> msm_device_enqueue(const fixed_bases<G>& table, const typename G::scalar::integer* scalars, size_t n,
                                  void* workspace, size_t workspace_bytes, cudaStream_t stream, gpu::result_area& out,
                                  scalar_form form = scalar_form::canonical) {
    if (n == 0) return {};
    if (n > table.size())
        throw invalid_argument("msm_device: " + std::to_string(n) + " scalars for a table of " +
                               std::to_string(table.size()) + " bases");
    const detail::device_plan<G> plan(n, device_options{.window_bits = table.window_bits()}, true);
    return detail::msm_run_enqueue<G>(plan, table.data(), table.size(), scalars, nullptr, workspace, workspace_bytes,
                                      stream, form, {}, out);
}

/// The same, waited for: the sum.
template <class G>
jacobian<G> msm_device(const fixed_bases<G>& table, const typename G::scalar::integer* scalars, size_t n,
                       void* workspace, size_t workspace_bytes, cudaStream_t stream,
                       scalar_form form = scalar_form::canonical) {
    if (n == 0) return jacobian<G>::identity();
    return detail::waited_sum<G>(stream, [&](gpu::result_area& area) {
        return msm_device_enqueue(table, scalars, n, workspace, workspace_bytes, stream, area, form);
    });
}

}  // namespace cuzk::msm

/// Explicit instantiation (prefix empty) or extern declaration (prefix `extern`) of the table
/// fill for group G: see cuzk/instances.hpp.
#define CUZK_FIXED_BASES_INSTANCES(prefix, G) \
    prefix template void cuzk::msm::detail::fill_fixed_bases<G>(::cuzk::affine<G>*, const ::cuzk::affine<G>*, size_t, \
                                                               unsigned, unsigned, cudaStream_t);

#if defined(CUZK_PRECOMPILED)
#include "cuzk/instances.hpp"
CUZK_FOR_EACH_INSTANCE_GROUP(CUZK_FIXED_BASES_INSTANCES, extern)
#endif
