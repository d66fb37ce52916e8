// SPDX-License-Identifier: MIT OR Apache-2.0
// Device NTT: the host API's forward/inverse on device arrays, on an explicit stream.
//
//   gpu::stream s;
//   ntt::device_domain<bls12_381::fr> dd(ntt::domain<bls12_381::fr>(24), s);   // tables, once
//   ntt::forward(dd, std::span(d_data, 3 * dd.size()), ntt::ordering::nr, ntt::coset::none, s);
//
// Each call enqueues kernels on `stream` and returns; it never synchronises the device or
// another stream and allocates nothing. A span of k·n elements is a batch of k polynomials
// transformed together (one launch per pass for the whole batch; k <= 65535).
//
// Kernels: ceil(log n / 10) passes of radix 2^k (pass_plan.hpp); each block loads a tile of
// 512 or 1024 elements into shared memory (swizzled limb planes, so threads hit distinct banks),
// runs k - 2 radix-2 stages and one radix-4 step there, applies the inter-pass twiddles and
// writes the tile back in place. The coset / 1/n scaling is fused into the first (forward) or
// last (inverse) pass; nn and rr orders add a tiled bit-reversal kernel.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <span>
#include <string>

#include "cuzk/core/error.hpp"
#include "cuzk/gpu/cuda_error.hpp"
#include "cuzk/ntt/device_domain.cuh"
#include "cuzk/ntt/ordering.hpp"
#include "cuzk/ntt/pass_plan.hpp"

namespace cuzk::ntt {

namespace detail {

/// Most threads per block (the kernels' launch bound).
inline constexpr uint32_t device_threads = 256;

/// Launch shape of the pass kernels, chosen at run time (the same kernel serves every shape).
/// The defaults are what bench_ntt_device measured best (docs/log/2026-12.md, "## NTT"); the
/// benchmark tries others through detail::run_device.
struct device_tuning {
    /// log2 of the largest tile (elements in shared memory per block); 0 picks
    /// make_device_pass_plan (2^9 or 2^10 elements of 32 bytes).
    uint32_t max_lg_tile = 0;
    /// Butterflies per thread per stage (threads per block = tile / 2 / this, at most 256).
    uint32_t butterflies_per_thread = 2;
};

/// The pass kernel's code shape, chosen at build time (each variant is two more kernels per
/// field to compile). The default is what bench_ntt_device measured best (docs/log/2026-12.md,
/// "## NTT": radix-4 wins, 2-way interleaving does not); tests and benchmarks instantiate others.
template <bool Radix4 = true, uint32_t Ilp = 1>
struct pass_variant {
    /// Radix-4 step for the two smallest-span stages of each pass.
    static constexpr bool radix4 = Radix4;
    /// Work items each thread interleaves per loop (1, or 2 for more ILP and fewer blocks).
    static constexpr uint32_t ilp = Ilp;
};

// The element copies go through 16-byte vectors, so the local copy is 16-byte aligned: an F
// (8-byte alignment) may sit in local memory, where a vector access to it would be misaligned
// (cudaErrorMisalignedAddress with device optimisation off, where nothing is in registers).
template <class F>
__device__ __forceinline__ F load_global(const F* p) {
    static_assert(sizeof(F) % 16 == 0, "device NTT loads elements as 16-byte vectors");
    alignas(16) F r;
    const uint4* s = reinterpret_cast<const uint4*>(p);
    uint4* d = reinterpret_cast<uint4*>(&r);
#pragma unroll
    for (size_t i = 0; i < sizeof(F) / 16; ++i) d[i] = s[i];
    return r;
}
/// Read-only (table) load through the non-coherent cache.
template <class F>
__device__ __forceinline__ F load_table(const F* p) {
    alignas(16) F r;
    const uint4* s = reinterpret_cast<const uint4*>(p);
    uint4* d = reinterpret_cast<uint4*>(&r);
#pragma unroll
    for (size_t i = 0; i < sizeof(F) / 16; ++i) d[i] = __ldg(s + i);
    return r;
}
template <class F>
__device__ __forceinline__ void store_global(F* p, const F& value) {
    alignas(16) const F v = value;
    const uint4* s = reinterpret_cast<const uint4*>(&v);
    uint4* d = reinterpret_cast<uint4*>(p);
#pragma unroll
    for (size_t i = 0; i < sizeof(F) / 16; ++i) d[i] = s[i];
}

/// Shared memory holds elements as limb planes: limb l of element i at plane[l·stride + i].
template <class F>
__device__ __forceinline__ F load_shared(const uint64_t* plane, uint32_t stride, uint32_t i) {
    F r;
#pragma unroll
    for (size_t l = 0; l < F::limbs; ++l) r.mont.limb[l] = plane[l * stride + i];
    return r;
}
template <class F>
__device__ __forceinline__ void store_shared(uint64_t* plane, uint32_t stride, uint32_t i, const F& v) {
#pragma unroll
    for (size_t l = 0; l < F::limbs; ++l) plane[l * stride + i] = v.mont.limb[l];
}

/// w^e (or w^-e when inverse) for e < n, from the table of w^e, e < n/2.
template <class F>
__device__ __forceinline__ F twiddle(const F* tw, uint64_t e, uint32_t lg_n, bool inverse) {
    const uint64_t n = uint64_t(1) << lg_n, half = n >> 1;
    if (inverse) e = (n - e) & (n - 1);
    if (e < half) return load_table(tw + e);
    return -load_table(tw + (e - half));
}

/// The device form of a scaling: which table, and the index order.
template <class F>
struct device_scaling {
    uint32_t kind = scaling::none;
    bool bit_reversed = false;
    F constant{};
    power_table_view<F> powers{};
};

template <class F>
__device__ __forceinline__ F scale_factor(const device_scaling<F>& s, uint64_t pos, uint32_t lg_n) {
    if (s.kind == scaling::size_inverse) return s.constant;
    const uint64_t j = s.bit_reversed ? bit_reverse(pos, lg_n) : pos;
    if (s.powers.hi == nullptr) return load_table(s.powers.lo + j);
    return load_table(s.powers.hi + (j >> s.powers.lo_bits)) *
           load_table(s.powers.lo + (j & ((uint64_t(1) << s.powers.lo_bits) - 1)));
}

template <class F>
struct pass_args {
    F* data;
    const F* tw;
    pass_shape shape;
    bool inverse_root;
    device_scaling<F> pre, post;
};

/// Runs body(i) for i = threadIdx.x + k·blockDim.x < count, U iterations unrolled together so
/// that their independent loads and multiplications can overlap (instruction-level parallelism).
template <uint32_t U, class Body>
__device__ __forceinline__ void for_each_unrolled(uint32_t count, Body&& body) {
    for (uint32_t i0 = threadIdx.x; i0 < count; i0 += U * blockDim.x) {
#pragma unroll
        for (uint32_t u = 0; u < U; ++u) {
            const uint32_t i = i0 + u * blockDim.x;
            if (i < count) body(i);
        }
    }
}

/// One pass (see pass_plan.hpp): a tile per block, blockIdx.y the polynomial of the batch.
/// Dit: twiddles on load, then DIT stages; else DIF stages, then twiddles on store.
/// Radix4: the two smallest-span stages as one radix-4 step (fewer multiplications, but 80
/// registers instead of 64, hence 3 rather than 4 blocks of 256 threads per SM).
/// U: work items per thread interleaved in each loop (U = 2 trades occupancy for ILP).
template <class F, bool Dit, bool Radix4, uint32_t U>
__global__ void __launch_bounds__(device_threads, U >= 2 ? 2 : (Radix4 ? 3 : 4)) ntt_pass_kernel(pass_args<F> a) {
    extern __shared__ uint64_t smem[];
    const pass_shape sh = a.shape;
    const uint32_t lg_n = sh.lg_n, T = sh.tile_size(), half_k = (uint32_t(1) << sh.lg_k) >> 1;
    uint64_t* tile = smem;
    uint64_t* wk = smem + F::limbs * T;  // w_K^x, x < K/2
    F* poly = a.data + (uint64_t(blockIdx.y) << lg_n);
    const uint64_t tile_id = blockIdx.x;

    for (uint32_t x = threadIdx.x; x < half_k; x += blockDim.x)
        store_shared(wk, half_k, x, twiddle(a.tw, uint64_t(x) << (lg_n - sh.lg_k), lg_n, a.inverse_root));

    for_each_unrolled<U>(T, [&](uint32_t s) {
        const uint64_t pos = sh.position(tile_id, s);
        F v = load_global(poly + pos);
        if (a.pre.kind != scaling::none) v = v * scale_factor(a.pre, pos, lg_n);
        if (Dit && sh.lg_l != 0) {
            const uint64_t e = sh.twiddle_exponent(pos);
            if (e != 0) v = v * twiddle(a.tw, e, lg_n, a.inverse_root);
        }
        store_shared(tile, T, sh.swizzle(s), v);
    });
    __syncthreads();

    // Row stages. DIF: spans K/2 .. 4 radix-2, then spans 2 and 1 as one radix-4 step;
    // DIT: the mirror image. Radix-4 skips the unit twiddles of the two smallest spans.
    auto radix2_stage = [&](uint32_t lm) {
        for_each_unrolled<U>(T >> 1, [&](uint32_t q) {
            uint32_t i0, i1, x;
            sh.butterfly(lm, q, i0, i1, x);
            i0 = sh.swizzle(i0);
            i1 = sh.swizzle(i1);
            F u = load_shared<F>(tile, T, i0), v = load_shared<F>(tile, T, i1);
            if (Dit) {
                if (lm != 0) v = v * load_shared<F>(wk, half_k, x);
                store_shared(tile, T, i0, u + v);
                store_shared(tile, T, i1, u - v);
            } else {
                F d = u - v;
                if (lm != 0) d = d * load_shared<F>(wk, half_k, x);
                store_shared(tile, T, i0, u + v);
                store_shared(tile, T, i1, d);
            }
        });
        __syncthreads();
    };
    auto radix4_step = [&] {
        // The one multiplication first, so that few elements are live across it (registers).
        for_each_unrolled<U>(T >> 2, [&](uint32_t g) {
            const uint32_t i0 = sh.swizzle(sh.radix4_index(g, 0)), i1 = sh.swizzle(sh.radix4_index(g, 1));
            const uint32_t i2 = sh.swizzle(sh.radix4_index(g, 2)), i3 = sh.swizzle(sh.radix4_index(g, 3));
            const F w4 = load_shared<F>(wk, half_k, half_k >> 1);  // w_K^(K/4) = w_4
            if (Dit) {  // spans 1 then 2: y = (x0 + x1, x0 - x1, x2 + x3, (x2 - x3) w4)
                F x2 = load_shared<F>(tile, T, i2), x3 = load_shared<F>(tile, T, i3);
                const F y2 = x2 + x3, y3 = (x2 - x3) * w4;
                F x0 = load_shared<F>(tile, T, i0), x1 = load_shared<F>(tile, T, i1);
                const F y0 = x0 + x1, y1 = x0 - x1;
                store_shared(tile, T, i0, y0 + y2);
                store_shared(tile, T, i2, y0 - y2);
                store_shared(tile, T, i1, y1 + y3);
                store_shared(tile, T, i3, y1 - y3);
            } else {  // spans 2 then 1: y = (x0 + x2, x1 + x3, x0 - x2, (x1 - x3) w4)
                F x1 = load_shared<F>(tile, T, i1), x3 = load_shared<F>(tile, T, i3);
                const F y1 = x1 + x3, y3 = (x1 - x3) * w4;
                F x0 = load_shared<F>(tile, T, i0), x2 = load_shared<F>(tile, T, i2);
                const F y0 = x0 + x2, y2 = x0 - x2;
                store_shared(tile, T, i0, y0 + y1);
                store_shared(tile, T, i1, y0 - y1);
                store_shared(tile, T, i2, y2 + y3);
                store_shared(tile, T, i3, y2 - y3);
            }
        });
        __syncthreads();
    };
    if (!Radix4 || sh.lg_k == 1) {
        for (uint32_t st = 0; st < sh.lg_k; ++st) radix2_stage(Dit ? st : sh.lg_k - 1 - st);
    } else if (Dit) {
        radix4_step();
        for (uint32_t lm = 2; lm < sh.lg_k; ++lm) radix2_stage(lm);
    } else {
        for (uint32_t lm = sh.lg_k; lm-- > 2;) radix2_stage(lm);
        radix4_step();
    }

    for_each_unrolled<U>(T, [&](uint32_t s) {
        const uint64_t pos = sh.position(tile_id, s);
        F v = load_shared<F>(tile, T, sh.swizzle(s));
        if (!Dit && sh.lg_l != 0) {
            const uint64_t e = sh.twiddle_exponent(pos);
            if (e != 0) v = v * twiddle(a.tw, e, lg_n, a.inverse_root);
        }
        if (a.post.kind != scaling::none) v = v * scale_factor(a.post, pos, lg_n);
        store_global(poly + pos, v);
    });
}

/// Swaps element i with element bitrev(i) of each polynomial (blockIdx.y).
template <class F>
__global__ void bit_reverse_kernel(F* data, uint32_t lg_n) {
    const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >> lg_n) return;
    const uint64_t j = bit_reverse(i, lg_n);
    if (i >= j) return;
    F* poly = data + (uint64_t(blockIdx.y) << lg_n);
    F a = load_global(poly + i), b = load_global(poly + j);
    store_global(poly + i, b);
    store_global(poly + j, a);
}

/// Tiled in-place bit reversal (log n >= 8, see bit_reverse_tiles): one block of 256 threads
/// per tile pair (m, bitrev(m)) with m <= bitrev(m); both tiles go through shared memory as
/// limb planes with rows padded to 17 elements, so the transposed reads hit distinct banks.
template <class F>
__global__ void __launch_bounds__(256) bit_reverse_tiled_kernel(F* data, uint32_t lg_n) {
    constexpr uint32_t stride = 16 * 17;  // one limb plane of a padded 16 x 16 tile
    __shared__ uint64_t tiles[2][F::limbs * stride];
    const bit_reverse_tiles br{lg_n};
    const uint64_t m = blockIdx.x, m2 = br.partner(m);
    if (m2 < m) return;  // the partner's block moves this pair
    F* poly = data + (uint64_t(blockIdx.y) << lg_n);
    const uint32_t a = threadIdx.x >> 4, b = threadIdx.x & 15;
    store_shared(tiles[0], stride, a * 17 + b, load_global(poly + br.index(m, a, b)));
    if (m2 != m) store_shared(tiles[1], stride, a * 17 + b, load_global(poly + br.index(m2, a, b)));
    __syncthreads();
    const uint32_t src = bit_reverse_tiles::rev4(b) * 17 + bit_reverse_tiles::rev4(a);
    store_global(poly + br.index(m2, a, b), load_shared<F>(tiles[0], stride, src));
    if (m2 != m) store_global(poly + br.index(m, a, b), load_shared<F>(tiles[1], stride, src));
}

template <class F>
device_scaling<F> to_device(const scaling& s, const device_domain<F>& d) {
    device_scaling<F> r{};
    r.kind = s.kind;
    r.bit_reversed = s.bit_reversed;
    if (s.kind == scaling::size_inverse) r.constant = d.host().size_inverse();
    if (s.kind == scaling::coset_powers) r.powers = d.coset_powers();
    if (s.kind == scaling::inverse_coset_powers) r.powers = d.inverse_coset_powers();
    return r;
}

/// Every device transform: checks, then the passes and the bit reversal, enqueued on `stream`.
/// The one function per field that launches NTT kernels (what cuzk::instances precompiles).
template <class F, class Variant = pass_variant<>>
void run_device(const device_domain<F>& d, std::span<F> data, bool inverse, ordering o, coset c,
                cudaStream_t stream, const char* where, device_tuning tuning = {}) {
    const size_t n = d.size();
    if (data.empty() || data.size() % n != 0)
        throw invalid_argument(std::string("ntt::") + where + " (device): " + std::to_string(data.size()) +
                               " elements is not a positive multiple of the domain size " + std::to_string(n));
    const size_t batch = data.size() / n;
    if (batch > 65535)
        throw invalid_argument(std::string("ntt::") + where + " (device): batch of " + std::to_string(batch) +
                               " polynomials exceeds 65535");
    if (reinterpret_cast<uintptr_t>(data.data()) % 16 != 0)
        throw invalid_argument(std::string("ntt::") + where + " (device): data must be 16-byte aligned");
    if (n == 1) return;  // identity (w^0 = g^0 = 1/1 = 1)

    const uint32_t lg_n = uint32_t(d.log_size());
    const pass_plan plan = tuning.max_lg_tile == 0 ? make_device_pass_plan(lg_n) : make_pass_plan(lg_n, tuning.max_lg_tile);
    const transform_schedule sch = make_schedule(inverse, o, c);
    for (uint32_t i = 0; i < plan.count; ++i) {
        const uint32_t p = sch.dit ? plan.count - 1 - i : i;  // DIT runs the passes in reverse
        pass_args<F> a{};
        a.data = data.data();
        a.tw = d.twiddles();
        a.shape = plan.pass[p];
        a.inverse_root = sch.inverse_root;
        if (i == 0) a.pre = to_device(sch.pre, d);
        if (i + 1 == plan.count) a.post = to_device(sch.post, d);
        const uint32_t T = a.shape.tile_size();
        uint32_t threads = T / 2 / tuning.butterflies_per_thread;
        threads = threads < 1 ? 1 : threads > device_threads ? device_threads : threads;
        const size_t smem = F::limbs * sizeof(uint64_t) * (T + ((uint32_t(1) << a.shape.lg_k) >> 1));
        const dim3 grid(unsigned(a.shape.tiles()), unsigned(batch));
        auto kernel = sch.dit ? ntt_pass_kernel<F, true, Variant::radix4, Variant::ilp>
                              : ntt_pass_kernel<F, false, Variant::radix4, Variant::ilp>;
        if (smem > 48 * 1024)  // opt in to large tiles (a per-kernel attribute, not device-global)
            CUZK_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
        kernel<<<grid, threads, smem, stream>>>(a);
        CUZK_CUDA_CHECK_LAUNCH("ntt: ntt_pass_kernel");
    }
    if (sch.bit_reverse_after) {
        constexpr uint32_t threads = 256;
        if (lg_n >= 8) {
            const dim3 grid(unsigned(bit_reverse_tiles{lg_n}.tiles()), unsigned(batch));
            bit_reverse_tiled_kernel<F><<<grid, threads, 0, stream>>>(data.data(), lg_n);
        } else {
            const dim3 grid(unsigned((n + threads - 1) / threads), unsigned(batch));
            bit_reverse_kernel<F><<<grid, threads, 0, stream>>>(data.data(), lg_n);
        }
        CUZK_CUDA_CHECK_LAUNCH("ntt: bit_reverse_kernel");
    }
}

}  // namespace detail

/// Forward NTT on the device, in place, enqueued on `stream`: coefficients -> evaluations at
/// w^i (coset::none) or g·w^i (coset::shifted), for each polynomial of d.size() elements in
/// `data` (device memory, 16-byte aligned). Same results, bit for bit, as the host forward().
/// Throws invalid_argument for a bad size, batch or alignment, cuda_error if a launch fails.
template <class F>
void forward(const device_domain<F>& d, std::span<F> data, ordering order, coset c, cudaStream_t stream) {
    detail::run_device(d, data, false, order, c, stream, "forward");
}

/// Inverse NTT on the device, in place, enqueued on `stream` (see forward); undoes forward()
/// with the same coset. Same results, bit for bit, as the host inverse().
template <class F>
void inverse(const device_domain<F>& d, std::span<F> data, ordering order, coset c, cudaStream_t stream) {
    detail::run_device(d, data, true, order, c, stream, "inverse");
}

}  // namespace cuzk::ntt

/// Explicit instantiation (prefix empty) or extern declaration (prefix `extern`) of the device
/// NTT for field F with the default kernel variant: see cuzk/instances.hpp.
#define CUZK_NTT_INSTANCES(prefix, F)                                                                            \
    prefix template void cuzk::ntt::detail::run_device<F, cuzk::ntt::detail::pass_variant<>>(                    \
        const ::cuzk::ntt::device_domain<F>&, std::span<F>, bool, ::cuzk::ntt::ordering, ::cuzk::ntt::coset,       \
        cudaStream_t, const char*, ::cuzk::ntt::detail::device_tuning);

#if defined(CUZK_PRECOMPILED)
#include "cuzk/instances.hpp"
CUZK_FOR_EACH_INSTANCE_FIELD(CUZK_NTT_INSTANCES, extern)
#endif
