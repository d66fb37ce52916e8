// Montgomery arithmetic on 32-bit limbs with PTX carry chains: the device leaf primitives.
//
// Values are the same bytes as on the host (bigint<N>, 64-bit little-endian limbs); here
// they are viewed as n = 2N 32-bit words. Every function takes and returns fully reduced
// values. The modulus comes from __constant__ memory (`modulus<Config>`), which IMAD reads
// as an operand directly.
//
// Speed notes (numbers in docs/PERFORMANCE.md, "## Fields"). A field multiply is bound by
// the IMAD pipe: ptxas fuses each mad.lo/madc.hi pair into one IMAD.WIDE.U32(.X), which
// costs two IMAD issue slots, so what counts is the number of 32x32-bit products (SASS
// counts and H200 timings agree: CIOS runs at ~98% of that bound).
//  - mont_mul interleaves the reduction into the product (CIOS) and keeps two accumulators:
//    one collects the products of even-indexed words of a (lo and hi halves land on
//    disjoint words), the other those of odd-indexed words, stored one word lower. So each
//    row is two unbroken mad.lo/madc.hi chains with no carry-propagation tails, which ptxas
//    runs side by side (each chain's carry in its own predicate). The two accumulators swap
//    roles every row and are merged at the end. 2n^2 + n products.
//  - mont_sqr computes the off-diagonal products once (same even/odd layout), doubles them
//    with funnel shifts, adds the diagonal in one chain, then reduces: n^2/2 + n/2 + n^2 + n
//    products, ~3/4 of a multiply.
//  - Karatsuba (one level on the product x*y, then the same row reduction as mont_sqr)
//    needs 3n^2/4 + n^2 + n products instead of 2n^2 + n, paid for with more additions,
//    registers and live carries. Measured on the H200 it wins 3% at 381 bits and loses 4%
//    at 254/255 bits, so mont_mul uses it from 12 words up (detail::default_mul_algo).
//  - -p^-1 mod 2^32 is read from constant memory, not written as a literal (see mont_inv32).
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

/// A bigint<N> viewed as 2N 32-bit words, least significant first.
template <size_t N>
struct limbs32 {
    uint32_t w[2 * N];
};

/// The 32-bit words of x (register moves only).
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

/// The bigint<N> whose 32-bit words are w[0..2N).
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

/// Montgomery factor -p^-1 mod 2^32 as a value ptxas cannot see through. A literal lets
/// ptxas rewrite m = t * inv (for BLS12-381 Fr, inv = -1, m = -t), which, as measured, stops
/// it from fusing the following mad.lo/madc.hi pairs into IMAD.WIDE (15% slower there).
template <class Config>
__constant__ uint32_t mont_inv32 = uint32_t(Config::mont_inv64);

/// One Montgomery reduction row on the split accumulator T = ev + 2^32 * od (words of od
/// sit one word higher than their index): m = ev[0] * inv, T += m * p, so ev[0] becomes 0.
/// Carries out of ev's top word go into od's top word (same weight); od never carries out,
/// because the running total stays below 2^(32(n+1)) and 2^32 * od is part of it.
template <size_t n>
__device__ __forceinline__ void redc_row(uint32_t (&ev)[n], uint32_t (&od)[n], const uint32_t* p, uint32_t inv) {
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
/// adding x * bi: on entry T = ev + 2^32 od, ev[0] already consumed (zero after a reduction,
/// or an output word of a plain product); on exit T/2^32 + x*bi is held as od (now the
/// aligned half) + 2^32 ev (now the shifted half). With Redc, bi is instead the Montgomery
/// factor m = (new low word) * inv and x = p, so od[0] ends at 0.
template <bool Redc, size_t n>
__device__ __forceinline__ void shift_mad_row(uint32_t (&ev)[n], uint32_t (&od)[n], const uint32_t* x, uint32_t bi,
                                              uint32_t inv = 0) {
    // T/2^32 = od + (ev >> 32). ev[1] joins od[0]; its carry (weight 2^32) enters the
    // shifted half's chain, whose words are ev[2..] moved two words down.
    od[0] = ptx::add_cc(od[0], ev[1]);
    if constexpr (Redc) bi = od[0] * inv;  // no flag use
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

/// r = (ev >> 32) + od: the value left in the split accumulator after its last row.
template <size_t n>
__device__ __forceinline__ void merge(uint32_t* r, const uint32_t (&ev)[n], const uint32_t (&od)[n]) {
    r[0] = ptx::add_cc(od[0], ev[1]);
#pragma unroll
    for (size_t j = 1; j < n - 1; ++j) r[j] = ptx::addc_cc(od[j], ev[j + 1]);
    r[n - 1] = ptx::addc(od[n - 1], 0);
}

/// Montgomery product by CIOS on the split accumulator (reduction interleaved, row by row):
/// 2n^2 wide products (IMAD.WIDE) + n.
template <class Config, size_t n>
__device__ __forceinline__ void mul_cios(uint32_t (&r)[n], const uint32_t (&x)[n], const uint32_t (&y)[n],
                                         uint32_t inv) {
    static_assert(n % 2 == 0 && n >= 4, "the split accumulator pairs words");
    const uint32_t* p = modulus32<Config>();
    uint32_t acc[2][n];
    // Row 0: x * y[0] needs no additions: even-indexed words' products in acc[0],
    // odd-indexed ones (one word lower) in acc[1]; lo/hi halves never overlap.
#pragma unroll
    for (size_t j = 0; j < n; j += 2) {
        acc[0][j] = x[j] * y[0];
        acc[0][j + 1] = __umulhi(x[j], y[0]);
        acc[1][j] = x[j + 1] * y[0];
        acc[1][j + 1] = __umulhi(x[j + 1], y[0]);
    }
    redc_row(acc[0], acc[1], p, inv);
#pragma unroll
    for (size_t i = 1; i < n; ++i) {
        // The halves swap roles each row: row i's aligned half is acc[i % 2].
        shift_mad_row<false>(acc[(i + 1) % 2], acc[i % 2], x, y[i]);
        redc_row(acc[i % 2], acc[(i + 1) % 2], p, inv);
    }
    merge(r, acc[(n - 1) % 2], acc[n % 2]);  // below 2p
    reduce_once<Config>(r);
}

/// Plain product out[0..2h) = x * y of h-word numbers (h even) by rows on the split
/// accumulator: after row i its low word is final and leaves as out[i]. h^2 wide products.
template <size_t h>
__device__ __forceinline__ void mul_plain(uint32_t* out, const uint32_t (&x)[h], const uint32_t (&y)[h]) {
    static_assert(h % 2 == 0 && h >= 4, "the split accumulator pairs words");
    uint32_t acc[2][h];
#pragma unroll
    for (size_t j = 0; j < h; j += 2) {
        acc[0][j] = x[j] * y[0];
        acc[0][j + 1] = __umulhi(x[j], y[0]);
        acc[1][j] = x[j + 1] * y[0];
        acc[1][j + 1] = __umulhi(x[j + 1], y[0]);
    }
    out[0] = acc[0][0];
#pragma unroll
    for (size_t i = 1; i < h; ++i) {
        shift_mad_row<false>(acc[(i + 1) % 2], acc[i % 2], x, y[i]);
        out[i] = acc[i % 2][0];
    }
    merge(out + h, acc[(h - 1) % 2], acc[h % 2]);
}

/// |x - y| of h-word numbers; returns all ones when x < y (the sign), else 0.
template <size_t h>
__device__ __forceinline__ uint32_t abs_diff(uint32_t (&d)[h], const uint32_t* x, const uint32_t* y) {
    d[0] = ptx::sub_cc(x[0], y[0]);
#pragma unroll
    for (size_t k = 1; k < h; ++k) d[k] = ptx::subc_cc(x[k], y[k]);
    const uint32_t neg = ptx::subc(0, 0);
    // two's complement negation when negative: (d ^ neg) + (neg & 1)
    d[0] = ptx::add_cc(d[0] ^ neg, neg & 1);
#pragma unroll
    for (size_t k = 1; k < h; ++k) d[k] = ptx::addc_cc(d[k] ^ neg, 0);
    (void)ptx::addc(0, 0);
    return neg;
}

/// Full product t[0..2n) = x * y by one level of (subtractive) Karatsuba over halves of
/// h = n/2 words: x0*y0, x1*y1 and |x0-x1|*|y1-y0| (3h^2 wide products instead of 4h^2),
/// middle = x0y0 + x1y1 +- |x0-x1||y1-y0| = x0y1 + x1y0.
template <size_t n>
__device__ __forceinline__ void mul_karatsuba(uint32_t (&t)[2 * n], const uint32_t (&x)[n], const uint32_t (&y)[n]) {
    constexpr size_t h = n / 2;
    uint32_t x0[h], x1[h], y0[h], y1[h], dx[h], dy[h];
#pragma unroll
    for (size_t k = 0; k < h; ++k) {
        x0[k] = x[k];
        x1[k] = x[h + k];
        y0[k] = y[k];
        y1[k] = y[h + k];
    }
    const uint32_t sx = abs_diff(dx, x0, x1);
    const uint32_t sy = abs_diff(dy, y1, y0);
    const uint32_t neg = sx ^ sy;  // all ones when (x0-x1)(y1-y0) < 0
    uint32_t lo[n], hi[n], mid[n];
    mul_plain(lo, x0, y0);
    mul_plain(hi, x1, y1);
    mul_plain(mid, dx, dy);
    // s = lo + hi (n words + carry c), then m = s +- mid over n+1 words (always >= 0, < 2^(32n+1)).
    uint32_t m[n + 1];
    m[0] = ptx::add_cc(lo[0], hi[0]);
#pragma unroll
    for (size_t k = 1; k < n; ++k) m[k] = ptx::addc_cc(lo[k], hi[k]);
    const uint32_t c = ptx::addc(0, 0);
    (void)ptx::add_cc(neg, neg);  // carry flag = 1 exactly when subtracting (+1 of the negation)
#pragma unroll
    for (size_t k = 0; k < n; ++k) m[k] = ptx::addc_cc(m[k], mid[k] ^ neg);
    m[n] = ptx::addc(c, neg);
    // t = lo + 2^(32h) m + 2^(32n) hi
#pragma unroll
    for (size_t k = 0; k < h; ++k) t[k] = lo[k];
    t[h] = ptx::add_cc(lo[h], m[0]);
#pragma unroll
    for (size_t k = 1; k < h; ++k) t[h + k] = ptx::addc_cc(lo[h + k], m[k]);
#pragma unroll
    for (size_t k = 0; k <= h; ++k) t[n + k] = ptx::addc_cc(hi[k], m[h + k]);
#pragma unroll
    for (size_t k = h + 1; k < n; ++k) t[n + k] = ptx::addc_cc(hi[k], 0);
    (void)ptx::addc(0, 0);
}

/// Full square t[0..2n) = x^2: off-diagonal products once, doubled, plus the diagonal.
/// n(n-1)/2 + n wide products.
template <size_t n>
__device__ __forceinline__ void sqr_wide(uint32_t (&t)[2 * n], const uint32_t (&x)[n]) {
    // Off-diagonal sum S = sum_{i<j} x_i x_j 2^(32(i+j)) over 2n words, in two arrays:
    // ev gets products whose lo half lands on an even word, od those landing on an odd word,
    // so within one row each array's products form one gap-free chain. Words start at zero;
    // every chain ends by adding its carry into the next word of its array, a word no earlier
    // row has written except as such a carry word, so it never overflows.
    uint32_t ev[2 * n], od[2 * n];
#pragma unroll
    for (size_t k = 0; k < 2 * n; ++k) ev[k] = od[k] = 0;
#pragma unroll
    for (size_t i = 0; i + 1 < n; ++i) {
        // products x_i * x_j with j = i+1, i+3, ...: lo on odd word i+j
        od[2 * i + 1] = ptx::mad_lo_cc(x[i], x[i + 1], od[2 * i + 1]);
        od[2 * i + 2] = ptx::madc_hi_cc(x[i], x[i + 1], od[2 * i + 2]);
#pragma unroll
        for (size_t j = i + 3; j < n; j += 2) {
            od[i + j] = ptx::madc_lo_cc(x[i], x[j], od[i + j]);
            od[i + j + 1] = ptx::madc_hi_cc(x[i], x[j], od[i + j + 1]);
        }
        const size_t last_od = i + (n - 1 - ((n - 1 - (i + 1)) % 2)) + 2;  // word after the chain
        od[last_od] = ptx::addc(od[last_od], 0);
        if (i + 2 < n) {
            // products x_i * x_j with j = i+2, i+4, ...: lo on even word i+j
            ev[2 * i + 2] = ptx::mad_lo_cc(x[i], x[i + 2], ev[2 * i + 2]);
            ev[2 * i + 3] = ptx::madc_hi_cc(x[i], x[i + 2], ev[2 * i + 3]);
#pragma unroll
            for (size_t j = i + 4; j < n; j += 2) {
                ev[i + j] = ptx::madc_lo_cc(x[i], x[j], ev[i + j]);
                ev[i + j + 1] = ptx::madc_hi_cc(x[i], x[j], ev[i + j + 1]);
            }
            const size_t last_ev = i + (n - 1 - ((n - 1 - (i + 2)) % 2)) + 2;
            ev[last_ev] = ptx::addc(ev[last_ev], 0);
        }
    }
    // S = ev + od (below 2^(64n-1), so the top word stays clear), then t = 2S + diagonal.
    t[0] = 0;
    t[1] = od[1];
    t[2] = ptx::add_cc(ev[2], od[2]);
#pragma unroll
    for (size_t k = 3; k < 2 * n; ++k) t[k] = ptx::addc_cc(ev[k], od[k]);
    (void)ptx::addc(0, 0);
#pragma unroll
    for (size_t k = 2 * n - 1; k > 0; --k) t[k] = __funnelshift_l(t[k - 1], t[k], 1);
    t[0] = 0;
    t[0] = ptx::mad_lo_cc(x[0], x[0], t[0]);
    t[1] = ptx::madc_hi_cc(x[0], x[0], t[1]);
#pragma unroll
    for (size_t i = 1; i < n; ++i) {
        t[2 * i] = ptx::madc_lo_cc(x[i], x[i], t[2 * i]);
        t[2 * i + 1] = ptx::madc_hi_cc(x[i], x[i], t[2 * i + 1]);
    }
    (void)ptx::addc(0, 0);
}

/// r = t / 2^(32n) mod p for t < p * 2^(32n) (Montgomery reduction of a full product):
/// n reduction rows on the low half, then the high half is added; one final subtraction.
template <class Config, size_t n>
__device__ __forceinline__ void redc_wide(uint32_t (&r)[n], const uint32_t (&t)[2 * n], uint32_t inv) {
    const uint32_t* p = modulus32<Config>();
    uint32_t acc[2][n];
#pragma unroll
    for (size_t j = 0; j < n; ++j) {
        acc[0][j] = t[j];
        acc[1][j] = 0;
    }
    redc_row(acc[0], acc[1], p, inv);
#pragma unroll
    for (size_t i = 1; i < n; ++i) shift_mad_row<true>(acc[(i + 1) % 2], acc[i % 2], p, 0, inv);
    // (low + M p) / 2^(32n) <= p, plus the high half < p: below 2p.
    merge(r, acc[(n - 1) % 2], acc[n % 2]);
    r[0] = ptx::add_cc(r[0], t[n]);
#pragma unroll
    for (size_t j = 1; j < n; ++j) r[j] = ptx::addc_cc(r[j], t[n + j]);
    (void)ptx::addc(0, 0);
    reduce_once<Config>(r);
}

/// Multiplication strategies (mont_mul picks one per word count; benchmarks time each).
enum class mul_algo { cios, karatsuba };

/// mont_mul with an explicit strategy (benchmarks and tests run both).
template <class Config, mul_algo Algo>
__device__ __forceinline__ void mont_mul_with(bigint<Config::limbs>& out, const bigint<Config::limbs>& a,
                                              const bigint<Config::limbs>& b) {
    constexpr size_t n = 2 * Config::limbs;
    const uint32_t inv = mont_inv32<Config>;
    const auto x = split(a), y = split(b);
    uint32_t r[n];
    if constexpr (Algo == mul_algo::cios) {
        mul_cios<Config>(r, x.w, y.w, inv);
    } else {
        uint32_t t[2 * n];
        mul_karatsuba(t, x.w, y.w);
        redc_wide<Config>(r, t, inv);
    }
    out = join<Config::limbs>(r);
}

/// mont_sqr's body (sqr_wide + redc_wide).
template <class Config>
__device__ __forceinline__ void mont_sqr_with(bigint<Config::limbs>& out, const bigint<Config::limbs>& a) {
    constexpr size_t n = 2 * Config::limbs;
    const uint32_t inv = mont_inv32<Config>;
    const auto x = split(a);
    uint32_t t[2 * n], r[n];
    sqr_wide(t, x.w);
    redc_wide<Config>(r, t, inv);
    out = join<Config::limbs>(r);
}

/// The strategy mont_mul uses for n 32-bit words, by measurement (docs/PERFORMANCE.md,
/// "## Fields"): Karatsuba from 12 words (381-bit) up, CIOS below.
template <size_t n>
inline constexpr mul_algo default_mul_algo = n >= 12 ? mul_algo::karatsuba : mul_algo::cios;
}  // namespace detail

/// out = a * b / 2^(64N) mod p (Montgomery multiplication), fully reduced.
/// CIOS on the split accumulator, or Karatsuba + row reduction for 381-bit fields (see the
/// header comment and detail::default_mul_algo).
template <class Config>
__device__ __forceinline__ void mont_mul(bigint<Config::limbs>& out, const bigint<Config::limbs>& a,
                                         const bigint<Config::limbs>& b) {
    detail::mont_mul_with<Config, detail::default_mul_algo<2 * Config::limbs>>(out, a, b);
}

/// out = a^2 / 2^(64N) mod p, fully reduced: off-diagonal products once, doubled, plus the
/// diagonal, then Montgomery reduction. About 3/4 of mont_mul's wide products.
template <class Config>
__device__ __forceinline__ void mont_sqr(bigint<Config::limbs>& out, const bigint<Config::limbs>& a) {
    detail::mont_sqr_with<Config>(out, a);
}

}  // namespace cuzk::device_arith

#endif  // __CUDACC__
