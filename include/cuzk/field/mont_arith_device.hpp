// Montgomery arithmetic on 32-bit limbs with PTX carry chains: the device leaf primitives.
//
// Values are the same bytes as on the host (bigint<N>, 64-bit little-endian limbs); here
// they are viewed as n = 2N 32-bit words. Every function takes and returns fully reduced
// values. The modulus comes from __constant__ memory (`modulus<Config>`), which IMAD reads
// as an operand directly.
//
// Speed notes (numbers in docs/PERFORMANCE.md, "## Fields"). A field multiply is bound by
// the IMAD pipe (64 lanes per SM per clock on Hopper), so what counts is the number of
// 32-bit multiply-adds and how many carry chains can run side by side:
//  - mont_mul interleaves the reduction into the product (CIOS) and keeps two accumulators:
//    one collects the products of even-indexed words of a (lo and hi halves land on
//    disjoint words), the other those of odd-indexed words, stored one word lower. So each
//    row is two unbroken mad.lo/madc.hi chains with no carry-propagation tails, and
//    ptxas can run the two chains side by side (it keeps each chain's carry in its own
//    predicate). The two accumulators swap roles every row and are merged at the end.
//  - mont_sqr computes the off-diagonal products once (same even/odd layout), doubles them
//    with funnel shifts, adds the diagonal in one chain, then reduces: ~3n^2 IMADs instead
//    of 4n^2.
// Every PTX instruction that reads or writes the carry flag is an `asm volatile`, so
// the compiler never moves one between two instructions of a chain.
#pragma once

#include "cuzk/core/bigint.hpp"

#if defined(__CUDACC__)

namespace cuzk::device_arith {

/// Modulus limbs of a field config, mirrored to constant memory (the one place they live there).
template <class Config>
__constant__ bigint<Config::limbs> modulus = Config::modulus;

/// PTX wrappers for 32-bit carry-chain instructions (.cc writes the carry flag, c reads it).
namespace ptx {
// clang-format off
__device__ __forceinline__ uint32_t add_cc(uint32_t a, uint32_t b)   { uint32_t r; asm volatile("add.cc.u32 %0, %1, %2;"   : "=r"(r) : "r"(a), "r"(b)); return r; }
__device__ __forceinline__ uint32_t addc_cc(uint32_t a, uint32_t b)  { uint32_t r; asm volatile("addc.cc.u32 %0, %1, %2;"  : "=r"(r) : "r"(a), "r"(b)); return r; }
__device__ __forceinline__ uint32_t addc(uint32_t a, uint32_t b)     { uint32_t r; asm volatile("addc.u32 %0, %1, %2;"     : "=r"(r) : "r"(a), "r"(b)); return r; }
__device__ __forceinline__ uint32_t sub_cc(uint32_t a, uint32_t b)   { uint32_t r; asm volatile("sub.cc.u32 %0, %1, %2;"   : "=r"(r) : "r"(a), "r"(b)); return r; }
__device__ __forceinline__ uint32_t subc_cc(uint32_t a, uint32_t b)  { uint32_t r; asm volatile("subc.cc.u32 %0, %1, %2;"  : "=r"(r) : "r"(a), "r"(b)); return r; }
__device__ __forceinline__ uint32_t subc(uint32_t a, uint32_t b)     { uint32_t r; asm volatile("subc.u32 %0, %1, %2;"     : "=r"(r) : "r"(a), "r"(b)); return r; }
__device__ __forceinline__ uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c)  { uint32_t r; asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;"  : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
__device__ __forceinline__ uint32_t mad_hi_cc(uint32_t a, uint32_t b, uint32_t c)  { uint32_t r; asm volatile("mad.hi.cc.u32 %0, %1, %2, %3;"  : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
__device__ __forceinline__ uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) { uint32_t r; asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
__device__ __forceinline__ uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) { uint32_t r; asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
__device__ __forceinline__ uint32_t madc_hi(uint32_t a, uint32_t b, uint32_t c)    { uint32_t r; asm volatile("madc.hi.u32 %0, %1, %2, %3;"    : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
// clang-format on
}  // namespace ptx

template <size_t N>
struct limbs32 {
    uint32_t w[2 * N];
};

template <size_t N>
__device__ __forceinline__ limbs32<N> split(const bigint<N>& x) {
    limbs32<N> r;
#pragma unroll
    for (size_t i = 0; i < N; ++i) {
        r.w[2 * i] = uint32_t(x.limb[i]);
        r.w[2 * i + 1] = uint32_t(x.limb[i] >> 32);
    }
    return r;
}

template <size_t N>
__device__ __forceinline__ bigint<N> join(const uint32_t* w) {
    bigint<N> r;
#pragma unroll
    for (size_t i = 0; i < N; ++i) r.limb[i] = uint64_t(w[2 * i]) | (uint64_t(w[2 * i + 1]) << 32);
    return r;
}

/// The modulus as 32-bit words, read from constant memory.
template <class Config>
__device__ __forceinline__ const uint32_t* modulus32() {
    return reinterpret_cast<const uint32_t*>(&modulus<Config>);
}

/// r = r - p if that does not borrow, else r (one final conditional subtraction); r < 2p.
template <class Config, size_t n>
__device__ __forceinline__ void reduce_once(uint32_t (&r)[n]) {
    const uint32_t* p = modulus32<Config>();
    uint32_t d[n];
    d[0] = ptx::sub_cc(r[0], p[0]);
#pragma unroll
    for (size_t i = 1; i < n; ++i) d[i] = ptx::subc_cc(r[i], p[i]);
    // The spare top bit means r < 2p < 2^(32n): no carry word. borrow is all ones when r < p.
    const uint32_t borrow = ptx::subc(0, 0);
#pragma unroll
    for (size_t i = 0; i < n; ++i) r[i] = borrow ? r[i] : d[i];
}

/// out = a + b mod p.
template <class Config>
__device__ __forceinline__ void mod_add(bigint<Config::limbs>& out, const bigint<Config::limbs>& a,
                                        const bigint<Config::limbs>& b) {
    constexpr size_t n = 2 * Config::limbs;
    auto x = split(a), y = split(b);
    uint32_t r[n];
    r[0] = ptx::add_cc(x.w[0], y.w[0]);
#pragma unroll
    for (size_t i = 1; i < n; ++i) r[i] = ptx::addc_cc(x.w[i], y.w[i]);
    (void)ptx::addc(0, 0);  // close the chain; a + b < 2p < 2^(32n) never carries out
    reduce_once<Config>(r);
    out = join<Config::limbs>(r);
}

/// out = a - b mod p.
template <class Config>
__device__ __forceinline__ void mod_sub(bigint<Config::limbs>& out, const bigint<Config::limbs>& a,
                                        const bigint<Config::limbs>& b) {
    constexpr size_t n = 2 * Config::limbs;
    const uint32_t* p = modulus32<Config>();
    auto x = split(a), y = split(b);
    uint32_t r[n];
    r[0] = ptx::sub_cc(x.w[0], y.w[0]);
#pragma unroll
    for (size_t i = 1; i < n; ++i) r[i] = ptx::subc_cc(x.w[i], y.w[i]);
    const uint32_t mask = ptx::subc(0, 0);  // all ones on borrow: add p back
    r[0] = ptx::add_cc(r[0], p[0] & mask);
#pragma unroll
    for (size_t i = 1; i < n; ++i) r[i] = ptx::addc_cc(r[i], p[i] & mask);
    (void)ptx::addc(0, 0);
    out = join<Config::limbs>(r);
}

namespace detail {

/// One Montgomery reduction row on the split accumulator T = ev + 2^32 * od (words of od
/// sit one word higher than their index): m = ev[0] * inv, T += m * p, so ev[0] becomes 0.
/// Carries out of ev's top word go into od's top word (same weight); od never carries out,
/// because the running total stays below 2^(32(n+1)) and 2^32 * od is part of it.
template <class Config, size_t n>
__device__ __forceinline__ void redc_row(uint32_t (&ev)[n], uint32_t (&od)[n]) {
    constexpr uint32_t inv = uint32_t(Config::mont_inv64);
    const uint32_t* p = modulus32<Config>();
    const uint32_t m = ev[0] * inv;
    ev[0] = ptx::mad_lo_cc(m, p[0], ev[0]);
    ev[1] = ptx::madc_hi_cc(m, p[0], ev[1]);
#pragma unroll
    for (size_t j = 2; j < n; j += 2) {
        ev[j] = ptx::madc_lo_cc(m, p[j], ev[j]);
        ev[j + 1] = ptx::madc_hi_cc(m, p[j], ev[j + 1]);
    }
    od[n - 1] = ptx::addc(od[n - 1], 0);
    od[0] = ptx::mad_lo_cc(m, p[1], od[0]);
    od[1] = ptx::madc_hi_cc(m, p[1], od[1]);
#pragma unroll
    for (size_t j = 3; j < n - 1; j += 2) {
        od[j - 1] = ptx::madc_lo_cc(m, p[j], od[j - 1]);
        od[j] = ptx::madc_hi_cc(m, p[j], od[j]);
    }
    od[n - 2] = ptx::madc_lo_cc(m, p[n - 1], od[n - 2]);
    od[n - 1] = ptx::madc_hi(m, p[n - 1], od[n - 1]);
}

/// Divides the split accumulator by 2^32 and swaps the roles of its halves, fused with
/// adding x * bi: on entry T = ev + 2^32 od with ev[0] = 0; on exit T/2^32 + x*bi is
/// held as od (now the aligned half) + 2^32 ev (now the shifted half). With Redc, bi is
/// instead the Montgomery factor m of the new low word and x = p, so od[0] ends at 0.
template <class Config, bool Redc, size_t n>
__device__ __forceinline__ void shift_mad_row(uint32_t (&ev)[n], uint32_t (&od)[n], const uint32_t* x,
                                              uint32_t bi) {
    // T/2^32 = od + (ev >> 32). ev[1] joins od[0]; its carry (weight 2^32) enters the
    // shifted half's chain, whose words are ev[2..] moved two words down.
    od[0] = ptx::add_cc(od[0], ev[1]);
    if constexpr (Redc) bi = od[0] * uint32_t(Config::mont_inv64);  // no flag use
#pragma unroll
    for (size_t j = 1; j < n - 1; j += 2) {
        ev[j - 1] = ptx::madc_lo_cc(x[j], bi, ev[j + 1]);
        ev[j] = ptx::madc_hi_cc(x[j], bi, ev[j + 2]);
    }
    ev[n - 2] = ptx::madc_lo_cc(x[n - 1], bi, 0);
    ev[n - 1] = ptx::madc_hi(x[n - 1], bi, 0);
    // even-indexed products into the aligned half; its carry out has the weight of ev's top word
    od[0] = ptx::mad_lo_cc(x[0], bi, od[0]);
    od[1] = ptx::madc_hi_cc(x[0], bi, od[1]);
#pragma unroll
    for (size_t j = 2; j < n; j += 2) {
        od[j] = ptx::madc_lo_cc(x[j], bi, od[j]);
        od[j + 1] = ptx::madc_hi_cc(x[j], bi, od[j + 1]);
    }
    ev[n - 1] = ptx::addc(ev[n - 1], 0);
}

/// Final step shared by mul and sqr: r = (ev >> 32) + od (+ hi), then one conditional
/// subtraction. The sum is below 2p, so it fits n words and one subtraction suffices.
template <class Config, size_t n>
__device__ __forceinline__ void merge_reduce(uint32_t (&r)[n], const uint32_t (&ev)[n], const uint32_t (&od)[n]) {
    r[0] = ptx::add_cc(od[0], ev[1]);
#pragma unroll
    for (size_t j = 1; j < n - 1; ++j) r[j] = ptx::addc_cc(od[j], ev[j + 1]);
    r[n - 1] = ptx::addc(od[n - 1], 0);
    reduce_once<Config>(r);
}

}  // namespace detail

/// out = a * b / 2^(64N) mod p: CIOS Montgomery multiplication on the even/odd split
/// accumulator (see the header comment), one conditional subtraction at the end.
/// Cost: 4n^2 + n IMADs for n = 2N words (576 + 12 for 381-bit, 256 + 8 for 255-bit).
template <class Config>
__device__ __forceinline__ void mont_mul(bigint<Config::limbs>& out, const bigint<Config::limbs>& a,
                                         const bigint<Config::limbs>& b) {
    constexpr size_t n = 2 * Config::limbs;
    const auto x = split(a), y = split(b);
    uint32_t acc[2][n];
    // Row 0: a * b[0] needs no additions: even-indexed words' products in acc[0],
    // odd-indexed ones (one word lower) in acc[1]; lo/hi halves never overlap.
#pragma unroll
    for (size_t j = 0; j < n; j += 2) {
        acc[0][j] = x.w[j] * y.w[0];
        acc[0][j + 1] = __umulhi(x.w[j], y.w[0]);
        acc[1][j] = x.w[j + 1] * y.w[0];
        acc[1][j + 1] = __umulhi(x.w[j + 1], y.w[0]);
    }
    detail::redc_row<Config>(acc[0], acc[1]);
#pragma unroll
    for (size_t i = 1; i < n; ++i) {
        // The halves swap roles each row: row i's aligned half is acc[i % 2].
        detail::shift_mad_row<Config, false>(acc[(i + 1) % 2], acc[i % 2], x.w, y.w[i]);
        detail::redc_row<Config>(acc[i % 2], acc[(i + 1) % 2]);
    }
    uint32_t r[n];
    detail::merge_reduce<Config>(r, acc[(n - 1) % 2], acc[n % 2]);
    out = join<Config::limbs>(r);
}

/// out = a^2 / 2^(64N) mod p: off-diagonal products once, doubled, plus the diagonal,
/// then Montgomery reduction of the low half and addition of the high half.
/// Cost: about 3n^2 + n IMADs.
template <class Config>
__device__ __forceinline__ void mont_sqr(bigint<Config::limbs>& out, const bigint<Config::limbs>& a) {
    constexpr size_t n = 2 * Config::limbs;
    const auto x = split(a);
    // Off-diagonal sum S = sum_{i<j} x_i x_j 2^(32(i+j)) over 2n words, in two arrays:
    // ev gets products whose lo half lands on an even word, od those landing on an odd word,
    // so within one row each array's products form one gap-free chain. Words start at zero;
    // every chain ends by adding its carry into the next word of its array.
    uint32_t ev[2 * n], od[2 * n];
#pragma unroll
    for (size_t k = 0; k < 2 * n; ++k) ev[k] = od[k] = 0;
#pragma unroll
    for (size_t i = 0; i + 1 < n; ++i) {
        // products x_i * x_j with j = i+1, i+3, ...: lo on odd word i+j
        od[2 * i + 1] = ptx::mad_lo_cc(x.w[i], x.w[i + 1], od[2 * i + 1]);
        od[2 * i + 2] = ptx::madc_hi_cc(x.w[i], x.w[i + 1], od[2 * i + 2]);
#pragma unroll
        for (size_t j = i + 3; j < n; j += 2) {
            od[i + j] = ptx::madc_lo_cc(x.w[i], x.w[j], od[i + j]);
            od[i + j + 1] = ptx::madc_hi_cc(x.w[i], x.w[j], od[i + j + 1]);
        }
        const size_t last_od = i + (n - 1 - ((n - 1 - (i + 1)) % 2)) + 2;  // word after the chain
        od[last_od] = ptx::addc(od[last_od], 0);
        if (i + 2 < n) {
            // products x_i * x_j with j = i+2, i+4, ...: lo on even word i+j
            ev[2 * i + 2] = ptx::mad_lo_cc(x.w[i], x.w[i + 2], ev[2 * i + 2]);
            ev[2 * i + 3] = ptx::madc_hi_cc(x.w[i], x.w[i + 2], ev[2 * i + 3]);
#pragma unroll
            for (size_t j = i + 4; j < n; j += 2) {
                ev[i + j] = ptx::madc_lo_cc(x.w[i], x.w[j], ev[i + j]);
                ev[i + j + 1] = ptx::madc_hi_cc(x.w[i], x.w[j], ev[i + j + 1]);
            }
            const size_t last_ev = i + (n - 1 - ((n - 1 - (i + 2)) % 2)) + 2;
            ev[last_ev] = ptx::addc(ev[last_ev], 0);
        }
    }
    // S = ev + od (below 2^(64n-1), so the top word stays clear), then T = 2S + diagonal.
    uint32_t t[2 * n];
    t[0] = 0;
    t[1] = od[1];
    t[2] = ptx::add_cc(ev[2], od[2]);
#pragma unroll
    for (size_t k = 3; k < 2 * n; ++k) t[k] = ptx::addc_cc(ev[k], od[k]);
    (void)ptx::addc(0, 0);
#pragma unroll
    for (size_t k = 2 * n - 1; k > 0; --k) t[k] = __funnelshift_l(t[k - 1], t[k], 1);
    t[0] = 0;
    t[0] = ptx::mad_lo_cc(x.w[0], x.w[0], t[0]);
    t[1] = ptx::madc_hi_cc(x.w[0], x.w[0], t[1]);
#pragma unroll
    for (size_t i = 1; i < n; ++i) {
        t[2 * i] = ptx::madc_lo_cc(x.w[i], x.w[i], t[2 * i]);
        t[2 * i + 1] = ptx::madc_hi_cc(x.w[i], x.w[i], t[2 * i + 1]);
    }
    (void)ptx::addc(0, 0);
    // Reduce the low half L = t[0..n): n rows of the split-accumulator reduction, starting
    // from the aligned half = L and the shifted half = 0; then add the high half.
    uint32_t acc[2][n];
#pragma unroll
    for (size_t j = 0; j < n; ++j) {
        acc[0][j] = t[j];
        acc[1][j] = 0;
    }
    detail::redc_row<Config>(acc[0], acc[1]);
#pragma unroll
    for (size_t i = 1; i < n; ++i)
        detail::shift_mad_row<Config, true>(acc[(i + 1) % 2], acc[i % 2], modulus32<Config>(), 0);
    // r = (ev >> 32) + od + high half; below 2p.
    const uint32_t(&e)[n] = acc[(n - 1) % 2];
    const uint32_t(&o)[n] = acc[n % 2];
    uint32_t r[n];
    r[0] = ptx::add_cc(o[0], e[1]);
#pragma unroll
    for (size_t j = 1; j < n - 1; ++j) r[j] = ptx::addc_cc(o[j], e[j + 1]);
    r[n - 1] = ptx::addc(o[n - 1], 0);
    r[0] = ptx::add_cc(r[0], t[n]);
#pragma unroll
    for (size_t j = 1; j < n; ++j) r[j] = ptx::addc_cc(r[j], t[n + j]);
    (void)ptx::addc(0, 0);
    reduce_once<Config>(r);
    out = join<Config::limbs>(r);
}

}  // namespace cuzk::device_arith

#endif  // __CUDACC__
