// Montgomery arithmetic on 32-bit limbs with PTX carry chains: the device leaf primitives.
//
// Values are the same bytes as on the host (bigint<N>, 64-bit little-endian limbs); here
// they are viewed as 2N 32-bit limbs. Every function takes and returns fully reduced values.
// The modulus comes from __constant__ memory (mont_device_constants), which IMAD reads directly.
#pragma once

#include "cuzk/core/bigint.hpp"

#if defined(__CUDACC__)

namespace cuzk::device_arith {

/// Modulus limbs of a field config, mirrored to constant memory (the one place they live there).
template <class Config>
__constant__ bigint<Config::limbs> modulus = Config::modulus;

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

/// r = a - p if that does not borrow, else a (one final conditional subtraction).
template <class Config, size_t n>
__device__ __forceinline__ void reduce_once(uint32_t (&r)[n], uint32_t top_carry) {
    const uint32_t* p = reinterpret_cast<const uint32_t*>(&modulus<Config>);
    uint32_t d[n];
    uint32_t borrow;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(d[0]) : "r"(r[0]), "r"(p[0]));
#pragma unroll
    for (size_t i = 1; i < n; ++i) asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(d[i]) : "r"(r[i]), "r"(p[i]));
    asm volatile("subc.u32 %0, %1, 0;" : "=r"(borrow) : "r"(top_carry));
    // borrow is 0xffffffff when r < p (keep r), 0 otherwise (take d).
#pragma unroll
    for (size_t i = 0; i < n; ++i) r[i] = borrow ? r[i] : d[i];
}

template <class Config>
__device__ __forceinline__ void mod_add(bigint<Config::limbs>& out, const bigint<Config::limbs>& a,
                                        const bigint<Config::limbs>& b) {
    constexpr size_t n = 2 * Config::limbs;
    auto x = split(a), y = split(b);
    uint32_t r[n];
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r[0]) : "r"(x.w[0]), "r"(y.w[0]));
#pragma unroll
    for (size_t i = 1; i < n; ++i) asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r[i]) : "r"(x.w[i]), "r"(y.w[i]));
    uint32_t carry;
    asm volatile("addc.u32 %0, 0, 0;" : "=r"(carry));
    reduce_once<Config>(r, carry);
    out = join<Config::limbs>(r);
}

template <class Config>
__device__ __forceinline__ void mod_sub(bigint<Config::limbs>& out, const bigint<Config::limbs>& a,
                                        const bigint<Config::limbs>& b) {
    constexpr size_t n = 2 * Config::limbs;
    const uint32_t* p = reinterpret_cast<const uint32_t*>(&modulus<Config>);
    auto x = split(a), y = split(b);
    uint32_t r[n], mask;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r[0]) : "r"(x.w[0]), "r"(y.w[0]));
#pragma unroll
    for (size_t i = 1; i < n; ++i) asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r[i]) : "r"(x.w[i]), "r"(y.w[i]));
    asm volatile("subc.u32 %0, 0, 0;" : "=r"(mask));  // 0xffffffff on borrow
    asm volatile("add.cc.u32 %0, %0, %1;" : "+r"(r[0]) : "r"(p[0] & mask));
#pragma unroll
    for (size_t i = 1; i < n; ++i) asm volatile("addc.cc.u32 %0, %0, %1;" : "+r"(r[i]) : "r"(p[i] & mask));
    out = join<Config::limbs>(r);
}

/// out = a * b / 2^(32n) mod p: CIOS over 32-bit limbs, lo and hi partial products in
/// separate carry chains, one conditional subtraction at the end.
template <class Config>
__device__ __forceinline__ void mont_mul(bigint<Config::limbs>& out, const bigint<Config::limbs>& a,
                                         const bigint<Config::limbs>& b) {
    constexpr size_t n = 2 * Config::limbs;
    constexpr uint32_t inv = uint32_t(Config::mont_inv64);
    const uint32_t* p = reinterpret_cast<const uint32_t*>(&modulus<Config>);
    auto x = split(a), y = split(b);
    uint32_t t[n + 2];
#pragma unroll
    for (size_t j = 0; j < n + 2; ++j) t[j] = 0;
#pragma unroll
    for (size_t i = 0; i < n; ++i) {
        const uint32_t bi = y.w[i];
        // t += lo(a * bi) at offset 0, then hi(a * bi) at offset 1
        asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[0]) : "r"(x.w[0]), "r"(bi));
#pragma unroll
        for (size_t j = 1; j < n; ++j) asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[j]) : "r"(x.w[j]), "r"(bi));
        asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(t[n]));
        asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[n + 1]));
        asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[1]) : "r"(x.w[0]), "r"(bi));
#pragma unroll
        for (size_t j = 1; j < n; ++j) asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[j + 1]) : "r"(x.w[j]), "r"(bi));
        asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[n + 1]));
        // t += m * p with m making t[0] vanish, then shift down one limb
        const uint32_t m = t[0] * inv;
        asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[0]) : "r"(m), "r"(p[0]));
#pragma unroll
        for (size_t j = 1; j < n; ++j) asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[j]) : "r"(m), "r"(p[j]));
        asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(t[n]));
        asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[n + 1]));
        asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[1]) : "r"(m), "r"(p[0]));
#pragma unroll
        for (size_t j = 1; j < n; ++j) asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[j + 1]) : "r"(m), "r"(p[j]));
        asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[n + 1]));
#pragma unroll
        for (size_t j = 0; j <= n; ++j) t[j] = t[j + 1];
        t[n + 1] = 0;
    }
    uint32_t r[n];
#pragma unroll
    for (size_t j = 0; j < n; ++j) r[j] = t[j];
    reduce_once<Config>(r, t[n]);
    out = join<Config::limbs>(r);
}

}  // namespace cuzk::device_arith

#endif  // __CUDACC__
