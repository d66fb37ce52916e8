// SPDX-License-Identifier: MIT OR Apache-2.0
// device_domain<F>: the device-side tables of an NTT domain (twiddles and coset powers),
// computed once and owned by the caller; every device transform over the domain reads them.
//
// Memory: twiddles n/2 elements (w^e, e < n/2: w^(e + n/2) = -w^e gives the rest and the
// inverse root, w^-e = w^(n-e)); coset powers either compact (4·sqrt(n) elements, one extra
// multiplication per scaled element) or full (2n elements, a plain load).
#pragma once

#include <cuda_runtime.h>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuzk/gpu/cuda_error.hpp"
#include "cuzk/gpu/device_buffer.hpp"
#include "cuzk/ntt/domain.hpp"

namespace cuzk::ntt {

/// How a device_domain stores the powers g^j and g^-j/n used by coset transforms.
enum class coset_tables {
    compact,  ///< two tables of about sqrt(n) entries each; x^j = hi[j >> b] · lo[j mod 2^b]
    full,     ///< one table of n entries each: no extra multiplication, 2n·sizeof(F) more memory
};

/// A view of the powers x^j, j < n, as stored on the device.
template <class F>
struct power_table_view {
    const F* lo = nullptr;  ///< x^t, t < 2^lo_bits (or all n powers when hi is null)
    const F* hi = nullptr;  ///< x^(u·2^lo_bits) (times a constant folded in), or null
    uint32_t lo_bits = 0;
};

namespace detail {

/// out[j] = hi[j >> lo_bits] · lo[j mod 2^lo_bits] for j < count.
template <class F>
__global__ void expand_powers_kernel(F* out, const F* lo, const F* hi, uint32_t lo_bits, uint64_t count) {
    const uint64_t j = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (j >= count) return;
    out[j] = hi[j >> lo_bits] * lo[j & ((uint64_t(1) << lo_bits) - 1)];
}

/// Host: lo[t] = x^t (t < 2^lo_bits), hi[u] = c·x^(u·2^lo_bits) (u < count >> lo_bits), appended to out.
template <class F>
void append_split_powers(std::vector<F>& out, const F& x, const F& c, uint32_t lo_bits, uint64_t count) {
    const uint64_t lo_n = uint64_t(1) << lo_bits, hi_n = count >> lo_bits;
    F p = F::one();
    for (uint64_t t = 0; t < lo_n; ++t, p *= x) out.push_back(p);
    const F step = p;  // x^(2^lo_bits)
    p = c;
    for (uint64_t u = 0; u < hi_n; ++u, p *= step) out.push_back(p);
}

/// out[j] = lo[j mod 2^lo_bits] * hi[j >> lo_bits] for j < count, enqueued on `stream`.
template <class F>
void expand_powers(F* out, const F* lo, const F* hi, uint32_t lo_bits, uint64_t count, cudaStream_t stream) {
    constexpr uint32_t threads = 256;
    expand_powers_kernel<F><<<unsigned((count + threads - 1) / threads), threads, 0, stream>>>(out, lo, hi, lo_bits,
                                                                                             count);
    CUZK_CUDA_CHECK_LAUNCH("ntt::device_domain: expand_powers_kernel");
}

}  // namespace detail

/// Device tables for one domain<F>, allocated and filled on `stream` (stream-ordered, so the
/// first transform on the same stream may follow at once; other streams must wait for it,
/// e.g. with an event). Freed on the same stream when destroyed, so that stream must outlive
/// this object. Read-only after construction: any number of streams may transform with it
/// concurrently. Not copyable.
template <class F>
class device_domain {
public:
    /// Builds the tables for `d` on `stream`. Throws cuda_error if allocation or a launch fails.
    device_domain(const domain<F>& d, cudaStream_t stream, coset_tables tables = coset_tables::compact)
        : d_(d), tables_(tables) {
        const uint32_t lg_n = uint32_t(d.log_size());
        const uint64_t n = d.size();
        const uint64_t tw_n = n > 1 ? n / 2 : 1;
        const uint32_t tw_lo_bits = (uint32_t(std::countr_zero(tw_n)) + 1) / 2;
        const uint32_t co_lo_bits = (lg_n + 1) / 2;

        // Small seed tables computed on the host: twiddle halves, then the coset powers.
        std::vector<F> seed;
        detail::append_split_powers(seed, d.root(), F::one(), tw_lo_bits, tw_n);
        const size_t tw_seed_hi = size_t(1) << tw_lo_bits;
        const size_t co_seed = seed.size();
        detail::append_split_powers(seed, d.coset_shift(), F::one(), co_lo_bits, n);
        const size_t co_seed_len = seed.size() - co_seed;
        detail::append_split_powers(seed, d.coset_shift_inverse(), d.size_inverse(), co_lo_bits, n);

        const size_t coset_len = tables == coset_tables::full ? 2 * n : seed.size() - co_seed;
        table_ = gpu::device_buffer<F>(tw_n + coset_len, stream);
        gpu::device_buffer<F> staging(seed.size(), stream);
        staging.upload(seed.data(), stream);

        const F* s = staging.data();
        detail::expand_powers(table_.data(), s, s + tw_seed_hi, tw_lo_bits, tw_n, stream);
        F* co = table_.data() + tw_n;
        if (tables == coset_tables::full) {
            const F* g = s + co_seed;
            const F* gi = g + co_seed_len;
            const size_t lo_n = size_t(1) << co_lo_bits;
            detail::expand_powers(co, g, g + lo_n, co_lo_bits, n, stream);
            detail::expand_powers(co + n, gi, gi + lo_n, co_lo_bits, n, stream);
            coset_ = power_table_view<F>{co, nullptr, 0};
            inverse_coset_ = power_table_view<F>{co + n, nullptr, 0};
        } else {
            CUZK_CUDA_CHECK(cudaMemcpyAsync(co, s + co_seed, coset_len * sizeof(F), cudaMemcpyDeviceToDevice, stream));
            const size_t lo_n = size_t(1) << co_lo_bits;
            coset_ = power_table_view<F>{co, co + lo_n, co_lo_bits};
            inverse_coset_ = power_table_view<F>{co + co_seed_len, co + co_seed_len + lo_n, co_lo_bits};
        }
        // staging is freed in stream order after the expansions have read it.
    }

    /// The host description of the domain.
    const domain<F>& host() const { return d_; }
    size_t log_size() const { return d_.log_size(); }
    size_t size() const { return d_.size(); }
    coset_tables tables() const { return tables_; }
    /// Device bytes held by the tables.
    size_t bytes() const { return table_.bytes(); }

    /// w^e for e < max(n/2, 1), on the device.
    const F* twiddles() const { return table_.data(); }
    /// g^j, j < n.
    power_table_view<F> coset_powers() const { return coset_; }
    /// g^-j / n, j < n.
    power_table_view<F> inverse_coset_powers() const { return inverse_coset_; }

private:
    domain<F> d_;
    coset_tables tables_;
    gpu::device_buffer<F> table_;
    power_table_view<F> coset_{}, inverse_coset_{};
};

}  // namespace cuzk::ntt

/// Explicit instantiation (prefix empty) or extern declaration (prefix `extern`) of the table
/// expansion for field F: see cuzk/instances.hpp.
#define CUZK_DEVICE_DOMAIN_INSTANCES(prefix, F) \
    prefix template void cuzk::ntt::detail::expand_powers<F>(F*, const F*, const F*, uint32_t, uint64_t, cudaStream_t);

#if defined(CUZK_PRECOMPILED)
#include "cuzk/instances.hpp"
CUZK_FOR_EACH_INSTANCE_FIELD(CUZK_DEVICE_DOMAIN_INSTANCES, extern)
#endif
