// SPDX-License-Identifier: MIT OR Apache-2.0
// Device point-operation kernels shared by tests/test_ec_device.cu and
// benchmarks/bench_ec_device.cu, compiled once (tests/ec_device_kernels.cu, the static library
// cuzk_ec_device_kernels of cmake/cuzk_targets.cmake) instead of in each of them: every point
// formula is inlined into its kernel, so these kernels are most of both TUs' compile time.
//
// A kernel runs one chain per thread: acc = first[start], then `iters` times acc += second[k]
// (or acc = acc.dbl()), with start = (tid * stride) & mask and k = (start + offset + it) & mask.
// The benchmark walks a table (stride 40503, offset 1, mask table_size - 1, 64 iterations); the
// test runs one operation per index (stride 1, offset 0, no mask, 1 iteration), so out[i] is
// first[i] + second[i]. chain() is the same function on the host (the oracle) and the device.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"
#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/xyzz.hpp"

namespace cuzk::ec_kernels {

/// M(G) for every group the kernels are compiled for.
#define CUZK_EC_KERNEL_GROUPS(M) \
    M(::cuzk::bls12_381::g1)     \
    M(::cuzk::bls12_381::g2)     \
    M(::cuzk::bn254::g1)         \
    M(::cuzk::bn254::g2)

/// The point operations: accumulator kind, then what is added to it.
enum class op { xyzz_mixed_add, xyzz_add, xyzz_double, jacobian_mixed_add, jacobian_add, jacobian_double };

template <class G, op O>
struct op_types {
    static constexpr bool xyzz_acc = O == op::xyzz_mixed_add || O == op::xyzz_add || O == op::xyzz_double;
    static constexpr bool mixed = O == op::xyzz_mixed_add || O == op::jacobian_mixed_add;
    static constexpr bool doubling = O == op::xyzz_double || O == op::jacobian_double;
    using acc = std::conditional_t<xyzz_acc, xyzz<G>, jacobian<G>>;
    /// What `second` holds (unused by the doublings: pass nullptr).
    using addend = std::conditional_t<mixed, affine<G>, acc>;
};

/// Where a thread's chain starts and what it adds (see the top of the file).
struct chain_shape {
    unsigned iters = 1;
    size_t stride = 1;
    size_t offset = 0;
    size_t mask = ~size_t(0);
};

/// The per-thread chain, shared by the kernel and the host reference.
template <class G, op O>
CUZK_HD typename op_types<G, O>::acc chain(size_t tid, const chain_shape& s, const typename op_types<G, O>::acc* first,
                                           const typename op_types<G, O>::addend* second) {
    const size_t start = (tid * s.stride) & s.mask;
    typename op_types<G, O>::acc acc = first[start];
    for (unsigned it = 0; it < s.iters; ++it) {
        if constexpr (op_types<G, O>::doubling) {
            acc = acc.dbl();
        } else {
            acc += second[(start + s.offset + it) & s.mask];
        }
    }
    return acc;
}

/// out[tid] = chain<G, O>(tid, s, first, second) for tid < n, on `blocks` x `block` threads
/// (grid-stride) of stream st. Reports a launch failure as cuzk::cuda_error.
template <class G, op O>
void launch_chain(unsigned blocks, unsigned block, cudaStream_t st, size_t n, const chain_shape& s,
                  const typename op_types<G, O>::acc* first, const typename op_types<G, O>::addend* second,
                  typename op_types<G, O>::acc* out);

/// Resident blocks of `block` threads per SM for launch_chain<G, O> (cudaOccupancy...).
template <class G, op O>
int chain_blocks_per_sm(int block);

/// out[i] = mul(p[i & mask], k[i & mask]) (CT) or mul_vartime(...) for i < n, grid-stride.
template <class G, bool CT>
void launch_mul(unsigned blocks, unsigned block, cudaStream_t st, size_t n, size_t mask, const jacobian<G>* p,
                const typename G::scalar* k, jacobian<G>* out);

/// Resident blocks of `block` threads per SM for launch_mul<G, CT>.
template <class G, bool CT>
int mul_blocks_per_sm(int block);

}  // namespace cuzk::ec_kernels
