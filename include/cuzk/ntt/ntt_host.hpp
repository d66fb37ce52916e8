// SPDX-License-Identifier: MIT OR Apache-2.0
// Host NTT: forward and inverse transforms over a domain<F>, in any ordering, on H or a coset,
// multi-threaded with OpenMP when the consumer compiles with it (plain loops otherwise).
//
//   ntt::domain<bls12_381::fr> d(20);
//   ntt::forward(d, std::span(coeffs), ntt::ordering::nr);   // DIF: natural -> bit-reversed
//   ... pointwise work on bit-reversed evaluations ...
//   ntt::inverse(d, std::span(coeffs), ntt::ordering::rn);   // DIT: bit-reversed -> natural
//
// A span of k·n elements is k polynomials of n coefficients each, transformed one after another.
// Algorithm: radix-2 Gentleman-Sande (DIF, natural -> bit-reversed) and Cooley-Tukey (DIT,
// bit-reversed -> natural) with per-stage contiguous twiddle tables; stages whose butterflies
// span less than a cache block run depth-first per block, so the block stays in cache.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/core/error.hpp"
#include "cuzk/ntt/domain.hpp"
#include "cuzk/ntt/ordering.hpp"

// OpenMP work-sharing only when the consumer compiles with OpenMP; otherwise the loops are
// plain (and no unknown-pragma warning reaches -Werror builds).
#if defined(_OPENMP)
#define CUZK_NTT_PRAGMA(x) _Pragma(#x)
#define CUZK_NTT_PARALLEL_FOR(cond) CUZK_NTT_PRAGMA(omp parallel for schedule(static) if (cond))
#else
#define CUZK_NTT_PARALLEL_FOR(cond)
#endif

namespace cuzk::ntt {

namespace detail {

/// Below this many independent work items a loop stays on one thread.
inline constexpr int64_t host_parallel_min = int64_t(1) << 11;
/// Elements per cache block for depth-first stages (8192 · 32 B = 256 KiB for 4-limb fields).
inline constexpr size_t host_block_log = 13;

/// f(t, c · x^t) for every t < count, in chunks of 1024 run in parallel, each chunk starting
/// from one exponentiation.
template <class F, class Fn>
void for_each_power(const F& x, const F& c, size_t count, Fn&& f) {
    constexpr size_t chunk = 1024;
    const int64_t chunks = int64_t((count + chunk - 1) / chunk);
    CUZK_NTT_PARALLEL_FOR(int64_t(count) >= host_parallel_min)
    for (int64_t ci = 0; ci < chunks; ++ci) {
        const size_t t0 = size_t(ci) * chunk, t1 = std::min(count, t0 + chunk);
        F p = c * x.pow_vartime(uint64_t(t0));
        for (size_t t = t0; t < t1; ++t, p *= x) f(t, p);
    }
}

/// Stage twiddles: tw[m + j] = w_{2m}^j for every power of two m < n and j < m (tw[0] unused),
/// where w = root is a primitive n-th root. Each stage reads its twiddles contiguously.
template <class F>
std::vector<F> stage_twiddles(const F& root, size_t log_n) {
    const size_t n = size_t(1) << log_n;
    std::vector<F> tw(std::max<size_t>(n, 2));
    if (n < 2) return tw;
    const size_t half = n / 2;
    for_each_power(root, F::one(), half, [&](size_t j, const F& p) { tw[half + j] = p; });
    // w_{2m}^j = w_{4m}^{2j}: smaller stages are strided copies of the next larger one.
    for (size_t m = half / 2; m >= 1; m /= 2)
        for (size_t j = 0; j < m; ++j) tw[m + j] = tw[2 * m + 2 * j];
    return tw;
}

/// Gentleman-Sande butterfly: (a, b) -> (a + b, (a - b)·w).
template <class F>
inline void dif_butterfly(F& a, F& b, const F& w) {
    F t = a - b;
    a += b;
    b = t * w;
}
/// Cooley-Tukey butterfly: (a, b) -> (a + b·w, a - b·w).
template <class F>
inline void dit_butterfly(F& a, F& b, const F& w) {
    F t = b * w;
    b = a - t;
    a += t;
}

/// One radix-2 stage of half-span m = 2^lm over the whole array, parallel over butterflies.
template <class F, bool Dif>
void stage_flat(F* a, size_t n, size_t lm, const F* tw) {
    const size_t m = size_t(1) << lm;
    const int64_t butterflies = int64_t(n / 2);
    CUZK_NTT_PARALLEL_FOR(butterflies >= host_parallel_min)
    for (int64_t q = 0; q < butterflies; ++q) {
        size_t j = size_t(q) & (m - 1);
        size_t i = ((size_t(q) >> lm) << (lm + 1)) | j;
        if constexpr (Dif) dif_butterfly(a[i], a[i + m], tw[m + j]);
        else dit_butterfly(a[i], a[i + m], tw[m + j]);
    }
}

/// Stages of half-span < block, run depth-first on each block of `block` elements.
template <class F, bool Dif>
void stages_blocked(F* a, size_t n, size_t block, const F* tw) {
    const int64_t blocks = int64_t(n / block);
    CUZK_NTT_PARALLEL_FOR(int64_t(n) >= host_parallel_min)
    for (int64_t b = 0; b < blocks; ++b) {
        F* x = a + size_t(b) * block;
        auto stage = [&](size_t m) {
            for (size_t s = 0; s < block; s += 2 * m)
                for (size_t j = 0; j < m; ++j) {
                    if constexpr (Dif) dif_butterfly(x[s + j], x[s + j + m], tw[m + j]);
                    else dit_butterfly(x[s + j], x[s + j + m], tw[m + j]);
                }
        };
        if constexpr (Dif)
            for (size_t m = block / 2; m >= 1; m /= 2) stage(m);
        else
            for (size_t m = 1; m < block; m *= 2) stage(m);
    }
}

/// DIF network: natural-order input -> bit-reversed output (tw from stage_twiddles).
template <class F>
void dif(F* a, size_t log_n, const F* tw) {
    const size_t n = size_t(1) << log_n;
    const size_t block_log = std::min(log_n, host_block_log);
    for (size_t lm = log_n; lm-- > block_log;) stage_flat<F, true>(a, n, lm, tw);
    if (block_log > 0) stages_blocked<F, true>(a, n, size_t(1) << block_log, tw);
}

/// DIT network: bit-reversed input -> natural-order output (tw from stage_twiddles).
template <class F>
void dit(F* a, size_t log_n, const F* tw) {
    const size_t n = size_t(1) << log_n;
    const size_t block_log = std::min(log_n, host_block_log);
    if (block_log > 0) stages_blocked<F, false>(a, n, size_t(1) << block_log, tw);
    for (size_t lm = block_log; lm < log_n; ++lm) stage_flat<F, false>(a, n, lm, tw);
}

/// v[t] = c · x^t for t < count.
template <class F>
std::vector<F> powers(const F& x, const F& c, size_t count) {
    std::vector<F> v(count);
    for_each_power(x, c, count, [&](size_t t, const F& p) { v[t] = p; });
    return v;
}

/// a[j] *= c · base^j for j < n.
template <class F>
void scale_powers(F* a, size_t log_n, const F& base, const F& c) {
    for_each_power(base, c, size_t(1) << log_n, [&](size_t j, const F& p) { a[j] *= p; });
}

/// a[bit_reverse(j)] *= c · base^j for j < n, in memory order. Position i = h·2^k + l (l its
/// k = log_n / 2 low bits) holds j = bit_reverse_k(l)·2^(log_n-k) + bit_reverse_(log_n-k)(h), so
/// its factor is lo[l]·hi[h] from two tables of ~sqrt(n) powers: two products per element, as
/// in scale_powers, but read and written in order (scattering by bit reversal cost more than the
/// butterflies' pass at 2^18).
template <class F>
void scale_powers_bit_reversed(F* a, size_t log_n, const F& base, const F& c) {
    const size_t k = log_n / 2, hk = log_n - k;
    const size_t nl = size_t(1) << k, nh = size_t(1) << hk;
    const std::vector<F> lo_pow = powers(base.pow_vartime(uint64_t(nh)), F::one(), nl);  // (base^(2^hk))^t
    const std::vector<F> hi_pow = powers(base, c, nh);                                   // c · base^t
    std::vector<F> lo(nl), hi(nh);
    for (size_t l = 0; l < nl; ++l) lo[l] = lo_pow[bit_reverse(l, unsigned(k))];
    for (size_t h = 0; h < nh; ++h) hi[h] = hi_pow[bit_reverse(h, unsigned(hk))];
    CUZK_NTT_PARALLEL_FOR(int64_t(size_t(1) << log_n) >= host_parallel_min)
    for (int64_t h = 0; h < int64_t(nh); ++h) {
        F* row = a + size_t(h) * nl;
        const F& f = hi[size_t(h)];
        for (size_t l = 0; l < nl; ++l) row[l] *= f * lo[l];
    }
}

/// a[i] *= c for i < n.
template <class F>
void scale_constant(F* a, size_t n, const F& c) {
    CUZK_NTT_PARALLEL_FOR(int64_t(n) >= host_parallel_min)
    for (int64_t i = 0; i < int64_t(n); ++i) a[i] *= c;
}

}  // namespace detail

/// Reorders n = 2^log_n elements from natural to bit-reversed order (an involution).
template <class F>
void bit_reverse_permute(std::span<F> a, size_t log_n) {
    const size_t n = size_t(1) << log_n;
    if (a.size() != n)
        throw invalid_argument("ntt::bit_reverse_permute: span of " + std::to_string(a.size()) +
                               " elements, expected 2^" + std::to_string(log_n));
    CUZK_NTT_PARALLEL_FOR(int64_t(n) >= detail::host_parallel_min)
    for (int64_t i = 0; i < int64_t(n); ++i) {
        size_t j = bit_reverse(uint64_t(i), unsigned(log_n));
        if (size_t(i) < j) std::swap(a[size_t(i)], a[j]);
    }
}

namespace detail {

template <class F>
size_t batch_count(const domain<F>& d, size_t elements, const char* where) {
    if (elements == 0 || elements % d.size() != 0)
        throw invalid_argument(std::string("ntt::") + where + ": " + std::to_string(elements) +
                               " elements is not a positive multiple of the domain size " + std::to_string(d.size()));
    return elements / d.size();
}

}  // namespace detail

/// Forward NTT, in place: coefficients -> evaluations at w^i (coset::none) or at g·w^i
/// (coset::shifted), for each polynomial of d.size() coefficients in `data`.
/// Throws invalid_argument if data.size() is not a positive multiple of d.size().
template <class F>
void forward(const domain<F>& d, std::span<F> data, ordering order = ordering::nn, coset c = coset::none) {
    const size_t batch = detail::batch_count(d, data.size(), "forward");
    const size_t log_n = d.log_size(), n = d.size();
    if (n == 1) return;  // a constant evaluates to itself everywhere
    const std::vector<F> tw = detail::stage_twiddles(d.root(), log_n);
    for (size_t p = 0; p < batch; ++p) {
        F* a = data.data() + p * n;
        std::span<F> poly(a, n);
        if (!input_bit_reversed(order)) {
            if (c == coset::shifted) detail::scale_powers(a, log_n, d.coset_shift(), F::one());
            detail::dif(a, log_n, tw.data());
            if (!output_bit_reversed(order)) bit_reverse_permute(poly, log_n);
        } else {
            if (c == coset::shifted) detail::scale_powers_bit_reversed(a, log_n, d.coset_shift(), F::one());
            detail::dit(a, log_n, tw.data());
            if (output_bit_reversed(order)) bit_reverse_permute(poly, log_n);
        }
    }
}

/// Inverse NTT, in place: evaluations at w^i (coset::none) or g·w^i (coset::shifted) ->
/// coefficients, for each polynomial of d.size() values in `data`. Undoes forward() with the
/// same coset; orders as in `ordering` (input first).
/// Throws invalid_argument if data.size() is not a positive multiple of d.size().
template <class F>
void inverse(const domain<F>& d, std::span<F> data, ordering order = ordering::nn, coset c = coset::none) {
    const size_t batch = detail::batch_count(d, data.size(), "inverse");
    const size_t log_n = d.log_size(), n = d.size();
    if (n == 1) return;
    const std::vector<F> tw = detail::stage_twiddles(d.root_inverse(), log_n);
    for (size_t p = 0; p < batch; ++p) {
        F* a = data.data() + p * n;
        std::span<F> poly(a, n);
        if (input_bit_reversed(order)) {
            detail::dit(a, log_n, tw.data());
            if (c == coset::shifted) detail::scale_powers(a, log_n, d.coset_shift_inverse(), d.size_inverse());
            else detail::scale_constant(a, n, d.size_inverse());
            if (output_bit_reversed(order)) bit_reverse_permute(poly, log_n);
        } else {
            detail::dif(a, log_n, tw.data());
            if (c == coset::shifted)
                detail::scale_powers_bit_reversed(a, log_n, d.coset_shift_inverse(), d.size_inverse());
            else detail::scale_constant(a, n, d.size_inverse());
            if (!output_bit_reversed(order)) bit_reverse_permute(poly, log_n);
        }
    }
}

/// Values on H -> values on the coset g·H, in place, both in natural order, for each polynomial
/// of d.size() values in `data`: forward(coset::shifted) of inverse(), with the inverse's 1/n and
/// the coset's powers of g applied in one pass between the two butterfly networks (no reorder).
/// Throws invalid_argument if data.size() is not a positive multiple of d.size().
template <class F>
void to_coset(const domain<F>& d, std::span<F> data) {
    const size_t batch = detail::batch_count(d, data.size(), "to_coset");
    const size_t log_n = d.log_size(), n = d.size();
    if (n == 1) return;  // a constant: the same value everywhere
    const std::vector<F> tw_inv = detail::stage_twiddles(d.root_inverse(), log_n);
    const std::vector<F> tw = detail::stage_twiddles(d.root(), log_n);
    for (size_t p = 0; p < batch; ++p) {
        F* a = data.data() + p * n;
        detail::dif(a, log_n, tw_inv.data());  // n · coefficients, bit-reversed
        detail::scale_powers_bit_reversed(a, log_n, d.coset_shift(), d.size_inverse());
        detail::dit(a, log_n, tw.data());
    }
}

}  // namespace cuzk::ntt

/// The host transforms for field F: see cuzk/instances.hpp.
#define CUZK_HOST_NTT_INSTANCES(prefix, F)                                                                   \
    prefix template void cuzk::ntt::forward<F>(const ::cuzk::ntt::domain<F>&, std::span<F>, ::cuzk::ntt::ordering, \
                                               ::cuzk::ntt::coset);                                         \
    prefix template void cuzk::ntt::inverse<F>(const ::cuzk::ntt::domain<F>&, std::span<F>, ::cuzk::ntt::ordering, \
                                               ::cuzk::ntt::coset);                                         \
    prefix template void cuzk::ntt::to_coset<F>(const ::cuzk::ntt::domain<F>&, std::span<F>);

#if defined(CUZK_HOST_PRECOMPILED)
#include "cuzk/instances.hpp"
CUZK_FOR_EACH_INSTANCE_FIELD(CUZK_HOST_NTT_INSTANCES, extern)
#endif
