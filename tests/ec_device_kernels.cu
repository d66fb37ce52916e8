// SPDX-License-Identifier: MIT OR Apache-2.0
// The kernels of tests/ec_device_kernels.hpp, compiled once for test_ec_device and
// bench_ec_device: every op for every group (the test runs them all; the benchmark a subset).
// One formula per kernel keeps nvcc's compile time reasonable: its cost grows faster than
// linearly with function size.
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/gpu/cuda_error.hpp"
#include "ec_device_kernels.hpp"

namespace cuzk::ec_kernels {

namespace {

template <class G, op O>
__global__ void chain_kernel(size_t n, chain_shape s, const typename op_types<G, O>::acc* first,
                             const typename op_types<G, O>::addend* second, typename op_types<G, O>::acc* out) {
    for (size_t tid = blockIdx.x * size_t(blockDim.x) + threadIdx.x; tid < n; tid += size_t(gridDim.x) * blockDim.x)
        out[tid] = chain<G, O>(tid, s, first, second);
}

template <class G, bool CT>
__global__ void mul_kernel(size_t n, size_t mask, const jacobian<G>* p, const typename G::scalar* k, jacobian<G>* out) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        if constexpr (CT) {
            out[i] = mul(p[i & mask], k[i & mask]);
        } else {
            out[i] = mul_vartime(p[i & mask], k[i & mask]);
        }
    }
}

}  // namespace

template <class G, op O>
void launch_chain(unsigned blocks, unsigned block, cudaStream_t st, size_t n, const chain_shape& s,
                  const typename op_types<G, O>::acc* first, const typename op_types<G, O>::addend* second,
                  typename op_types<G, O>::acc* out) {
    chain_kernel<G, O><<<blocks, block, 0, st>>>(n, s, first, second, out);
    CUZK_CUDA_CHECK_LAUNCH("chain_kernel");
}

template <class G, op O>
int chain_blocks_per_sm(int block) {
    int per_sm = 0;
    CUZK_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, chain_kernel<G, O>, block, 0));
    return per_sm;
}

template <class G, bool CT>
void launch_mul(unsigned blocks, unsigned block, cudaStream_t st, size_t n, size_t mask, const jacobian<G>* p,
                const typename G::scalar* k, jacobian<G>* out) {
    mul_kernel<G, CT><<<blocks, block, 0, st>>>(n, mask, p, k, out);
    CUZK_CUDA_CHECK_LAUNCH("mul_kernel");
}

template <class G, bool CT>
int mul_blocks_per_sm(int block) {
    int per_sm = 0;
    CUZK_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, mul_kernel<G, CT>, block, 0));
    return per_sm;
}

#define CUZK_EC_KERNEL_CHAIN(G, O)                                                                          \
    template void launch_chain<G, op::O>(unsigned, unsigned, cudaStream_t, size_t, const chain_shape&,      \
                                         const op_types<G, op::O>::acc*, const op_types<G, op::O>::addend*, \
                                         op_types<G, op::O>::acc*);                                         \
    template int chain_blocks_per_sm<G, op::O>(int);
#define CUZK_EC_KERNEL_MUL(G, CT)                                                                         \
    template void launch_mul<G, CT>(unsigned, unsigned, cudaStream_t, size_t, size_t, const jacobian<G>*, \
                                    const G::scalar*, jacobian<G>*);                                      \
    template int mul_blocks_per_sm<G, CT>(int);
#define CUZK_EC_KERNEL_INSTANCES(G)             \
    CUZK_EC_KERNEL_CHAIN(G, xyzz_mixed_add)     \
    CUZK_EC_KERNEL_CHAIN(G, xyzz_add)           \
    CUZK_EC_KERNEL_CHAIN(G, xyzz_double)        \
    CUZK_EC_KERNEL_CHAIN(G, jacobian_mixed_add) \
    CUZK_EC_KERNEL_CHAIN(G, jacobian_add)       \
    CUZK_EC_KERNEL_CHAIN(G, jacobian_double)    \
    CUZK_EC_KERNEL_MUL(G, true)                 \
    CUZK_EC_KERNEL_MUL(G, false)

CUZK_EC_KERNEL_GROUPS(CUZK_EC_KERNEL_INSTANCES)

}  // namespace cuzk::ec_kernels
