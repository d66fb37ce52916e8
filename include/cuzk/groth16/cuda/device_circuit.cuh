// SPDX-License-Identifier: MIT OR Apache-2.0
// An R1CS resident on the GPU, and the evaluation of a, b, c on the proving domain there.
//
//   device_circuit<Fr> dc(cs, stream);                     // upload A, B, C once
//   evaluate_abc_on_device(dc, d_z, d_abc, d_first_bad, stream);
//
// With the circuit resident a proof uploads only the assignment z (one field element per
// variable) instead of a, b, c (three per domain row), and the sparse products run on the GPU
// instead of the host: at 2^24 rows that is ~1 s of host work and 1.6 GB of uploads per proof
// (docs/PERFORMANCE.md). The constraint check (a * b = c on every row) comes with it.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <limits>

#include "cuzk/core/error.hpp"
#include "cuzk/gpu/cuda_error.hpp"
#include "cuzk/gpu/device_buffer.hpp"
#include "cuzk/gpu/stream.hpp"
#include "cuzk/groth16/r1cs.hpp"

namespace cuzk::groth16 {

/// One sparse matrix in device memory, compressed rows with 32-bit offsets.
template <class F>
struct device_sparse_matrix {
    gpu::device_buffer<uint32_t> row_start, column;
    gpu::device_buffer<F> value;

    device_sparse_matrix(const sparse_matrix<F>& m, cudaStream_t s)
        : row_start(m.rows() + 1, s), column(m.entries(), s), value(m.entries(), s) {
        if (m.entries() > std::numeric_limits<uint32_t>::max())
            throw invalid_argument("device_circuit: a matrix with more than 2^32 - 1 entries");
        // 32-bit offsets halve the row array; converted on the host, then copied synchronously
        // so that the temporary can go.
        std::vector<uint32_t> starts(m.row_starts().begin(), m.row_starts().end());
        CUZK_CUDA_CHECK(cudaMemcpyAsync(row_start.data(), starts.data(), row_start.bytes(), cudaMemcpyHostToDevice, s));
        column.upload(m.all_columns().data(), s);
        value.upload(m.all_values().data(), s);
        gpu::wait(s);
    }

    static size_t bytes_for(const sparse_matrix<F>& m) {
        return (m.rows() + 1) * sizeof(uint32_t) + m.entries() * (sizeof(uint32_t) + sizeof(F));
    }
};

/// A constraint system whose matrices live on the GPU (shapes are kept on the host).
template <class F>
class device_circuit {
public:
    device_circuit(const r1cs<F>& cs, cudaStream_t s)
        : num_public_(cs.num_public), num_variables_(cs.num_variables), constraints_(cs.num_constraints()),
          domain_size_(cs.domain_size()), a_(cs.a, s), b_(cs.b, s), c_(cs.c, s) {}

    /// Device bytes the circuit takes.
    static size_t bytes_for(const r1cs<F>& cs) {
        return device_sparse_matrix<F>::bytes_for(cs.a) + device_sparse_matrix<F>::bytes_for(cs.b) +
               device_sparse_matrix<F>::bytes_for(cs.c);
    }

    size_t num_public() const { return num_public_; }
    size_t num_variables() const { return num_variables_; }
    size_t num_constraints() const { return constraints_; }
    size_t domain_size() const { return domain_size_; }
    const device_sparse_matrix<F>& a() const { return a_; }
    const device_sparse_matrix<F>& b() const { return b_; }
    const device_sparse_matrix<F>& c() const { return c_; }

private:
    size_t num_public_, num_variables_, constraints_, domain_size_;
    device_sparse_matrix<F> a_, b_, c_;
};

namespace detail {

template <class F>
struct csr_view {
    const uint32_t* row_start;
    const uint32_t* column;
    const F* value;

    __device__ F dot_row(size_t j, const F* z) const {
        F acc = F::zero();
        for (uint32_t k = row_start[j], end = row_start[j + 1]; k < end; ++k) acc += value[k] * z[column[k]];
        return acc;
    }
};

template <class F>
csr_view<F> view_of(const device_sparse_matrix<F>& m) {
    return {m.row_start.data(), m.column.data(), m.value.data()};
}

/// One thread per domain row: the constraint rows' products (recording the first violated
/// one in *first_bad), then the public-input rows (A = z_k), then zero padding; the same layout
/// as r1cs::evaluate.
template <class F>
__global__ void evaluate_abc_kernel(csr_view<F> a, csr_view<F> b, csr_view<F> c, const F* z, size_t constraints,
                                    size_t num_public, size_t n, F* abc, unsigned long long* first_bad) {
    const size_t j = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (j >= n) return;
    F x = F::zero(), y = F::zero(), w = F::zero();
    if (j < constraints) {
        x = a.dot_row(j, z);
        y = b.dot_row(j, z);
        w = c.dot_row(j, z);
        if (x * y != w) atomicMin(first_bad, (unsigned long long)j);
    } else if (j <= constraints + num_public) {
        x = z[j - constraints];
    }
    abc[j] = x;
    abc[n + j] = y;
    abc[2 * n + j] = w;
}

}  // namespace detail

/// Writes a | b | c (3 * domain_size values, natural order) for the assignment d_z into d_abc
/// and the index of the first violated constraint into *d_first_bad (all ones when none).
/// Queued on `s`; nothing waits.
template <class F>
void evaluate_abc_on_device(const device_circuit<F>& dc, const F* d_z, F* d_abc, unsigned long long* d_first_bad,
                            cudaStream_t s) {
    CUZK_CUDA_CHECK(cudaMemsetAsync(d_first_bad, 0xff, sizeof(unsigned long long), s));
    const size_t n = dc.domain_size();
    const unsigned threads = 256, blocks = unsigned((n + threads - 1) / threads);
    detail::evaluate_abc_kernel<F><<<blocks, threads, 0, s>>>(detail::view_of(dc.a()), detail::view_of(dc.b()),
                                                              detail::view_of(dc.c()), d_z, dc.num_constraints(),
                                                              dc.num_public(), n, d_abc, d_first_bad);
    CUZK_CUDA_CHECK_LAUNCH("evaluate_abc_kernel");
}

}  // namespace cuzk::groth16

/// Explicit instantiation (prefix empty) or extern declaration (prefix `extern`) of the device
/// a, b, c evaluation for field F: see cuzk/instances.hpp.
#define CUZK_DEVICE_CIRCUIT_INSTANCES(prefix, F)                                                                  \
    prefix template void cuzk::groth16::evaluate_abc_on_device<F>(const ::cuzk::groth16::device_circuit<F>&, const F*, \
                                                                  F*, unsigned long long*, cudaStream_t);

#if defined(CUZK_PRECOMPILED)
#include "cuzk/instances.hpp"
CUZK_FOR_EACH_INSTANCE_FIELD(CUZK_DEVICE_CIRCUIT_INSTANCES, extern)
#endif
