// The Fp2 product for 4-limb fields with u^2 = -1 (BN254's Fp2) on x86-64 with BMI2 and ADX, by
// lazy reduction: three 8-word products, a0 b0, a1 b1 and (a0 + a1)(b0 + b1), with no reduction; the two
// coordinates formed at double width, c0 = a0 b0 - a1 b1 (plus p 2^256 when that borrows) and c1 =
// (a0 + a1)(b0 + b1) - a0 b0 - a1 b1 = a0 b1 + a1 b0; then one Montgomery reduction each. Two
// reductions and no modular additions in place of Karatsuba's three Montgomery products and five
// modular additions: 54 against 79 ns a product on a 2-core Xeon VM (docs/PERFORMANCE.md, "Host Fp2
// products with lazy reduction"). Constant time: every select is a mask.
//
// Bounds, for p < 2^254 (fp2.hpp calls it only then): a0 + a1 < 2p fits 4 words; each product is below
// 4p^2 < 2^510; c0 and c1 are in [0, p 2^256), so a reduction of the low half gives at most p, and the
// high half, below p, added to it stays below 2p: one masked subtraction reduces it.
// Used by fp2::operator* on the host (fp2.hpp); the device and constant evaluation keep Karatsuba.
#pragma once

#include <cstdint>

#include "cuzk/core/bigint.hpp"
#include "cuzk/field/mont_arith_x86.hpp"

#if CUZK_HOST_ADX
namespace cuzk::host_arith::x86 {

/// t = a b: the full 8-word product, 4 rows of mulx on the two carry chains, no reduction. Each row
/// writes one word above the rows before it, which starts at zero, so no carry leaves the top.
inline void mul_wide_adx_4(uint64_t (&t)[8], const bigint<4>& a, const bigint<4>& b) {
    uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0, t5 = 0, t6 = 0, t7 = 0, lo, hi;
    asm("movq 0(%[b]), %%rdx\n\t"
        "xorl %k[lo], %k[lo]\n\t"
        "mulxq 0(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t0]\n\t"
        "adcxq %[hi], %[t1]\n\t"
        "mulxq 8(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t1]\n\t"
        "adcxq %[hi], %[t2]\n\t"
        "mulxq 16(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t2]\n\t"
        "adcxq %[hi], %[t3]\n\t"
        "mulxq 24(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t3]\n\t"
        "adcxq %[hi], %[t4]\n\t"
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[t4]\n\t"
        "movq 8(%[b]), %%rdx\n\t"
        "xorl %k[lo], %k[lo]\n\t"
        "mulxq 0(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t1]\n\t"
        "adcxq %[hi], %[t2]\n\t"
        "mulxq 8(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t2]\n\t"
        "adcxq %[hi], %[t3]\n\t"
        "mulxq 16(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t3]\n\t"
        "adcxq %[hi], %[t4]\n\t"
        "mulxq 24(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t4]\n\t"
        "adcxq %[hi], %[t5]\n\t"
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[t5]\n\t"
        "movq 16(%[b]), %%rdx\n\t"
        "xorl %k[lo], %k[lo]\n\t"
        "mulxq 0(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t2]\n\t"
        "adcxq %[hi], %[t3]\n\t"
        "mulxq 8(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t3]\n\t"
        "adcxq %[hi], %[t4]\n\t"
        "mulxq 16(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t4]\n\t"
        "adcxq %[hi], %[t5]\n\t"
        "mulxq 24(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t5]\n\t"
        "adcxq %[hi], %[t6]\n\t"
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[t6]\n\t"
        "movq 24(%[b]), %%rdx\n\t"
        "xorl %k[lo], %k[lo]\n\t"
        "mulxq 0(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t3]\n\t"
        "adcxq %[hi], %[t4]\n\t"
        "mulxq 8(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t4]\n\t"
        "adcxq %[hi], %[t5]\n\t"
        "mulxq 16(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t5]\n\t"
        "adcxq %[hi], %[t6]\n\t"
        "mulxq 24(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t6]\n\t"
        "adcxq %[hi], %[t7]\n\t"
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[t7]\n\t"
        : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [t4] "+&r"(t4), [t5] "+&r"(t5),
          [t6] "+&r"(t6), [t7] "+&r"(t7), [lo] "=&r"(lo), [hi] "=&r"(hi)
        : [a] "r"(a.limb), [b] "r"(b.limb), "m"(a.limb), "m"(b.limb)
        : "rdx", "cc");
    t[0] = t0;
    t[1] = t1;
    t[2] = t2;
    t[3] = t3;
    t[4] = t4;
    t[5] = t5;
    t[6] = t6;
    t[7] = t7;
}

/// r = (t + m p) / 2^256 for a 4-word t, m = -t p^-1 mod 2^256 (the reduction rows of mont_mul_adx_4,
/// the 5 accumulator words rotating the same way): below p + 1.
inline void mont_reduce_low_adx_4(uint64_t (&r)[4], const uint64_t* t, const bigint<4>& p, uint64_t inv) {
    uint64_t t0 = t[0], t1 = t[1], t2 = t[2], t3 = t[3], t4 = 0, lo, hi;
    asm("movq %[t0], %%rdx\n\t"
        "imulq %[inv], %%rdx\n\t"
        "xorl %k[lo], %k[lo]\n\t"
        "mulxq 0(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t0]\n\t"
        "adcxq %[hi], %[t1]\n\t"
        "mulxq 8(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t1]\n\t"
        "adcxq %[hi], %[t2]\n\t"
        "mulxq 16(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t2]\n\t"
        "adcxq %[hi], %[t3]\n\t"
        "mulxq 24(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t3]\n\t"
        "adcxq %[hi], %[t4]\n\t"
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[t4]\n\t"
        "movq %[t1], %%rdx\n\t"
        "imulq %[inv], %%rdx\n\t"
        "xorl %k[lo], %k[lo]\n\t"
        "mulxq 0(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t1]\n\t"
        "adcxq %[hi], %[t2]\n\t"
        "mulxq 8(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t2]\n\t"
        "adcxq %[hi], %[t3]\n\t"
        "mulxq 16(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t3]\n\t"
        "adcxq %[hi], %[t4]\n\t"
        "mulxq 24(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t4]\n\t"
        "adcxq %[hi], %[t0]\n\t"
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[t0]\n\t"
        "movq %[t2], %%rdx\n\t"
        "imulq %[inv], %%rdx\n\t"
        "xorl %k[lo], %k[lo]\n\t"
        "mulxq 0(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t2]\n\t"
        "adcxq %[hi], %[t3]\n\t"
        "mulxq 8(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t3]\n\t"
        "adcxq %[hi], %[t4]\n\t"
        "mulxq 16(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t4]\n\t"
        "adcxq %[hi], %[t0]\n\t"
        "mulxq 24(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t0]\n\t"
        "adcxq %[hi], %[t1]\n\t"
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[t1]\n\t"
        "movq %[t3], %%rdx\n\t"
        "imulq %[inv], %%rdx\n\t"
        "xorl %k[lo], %k[lo]\n\t"
        "mulxq 0(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t3]\n\t"
        "adcxq %[hi], %[t4]\n\t"
        "mulxq 8(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t4]\n\t"
        "adcxq %[hi], %[t0]\n\t"
        "mulxq 16(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t0]\n\t"
        "adcxq %[hi], %[t1]\n\t"
        "mulxq 24(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t1]\n\t"
        "adcxq %[hi], %[t2]\n\t"
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[t2]\n\t"
        : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [t4] "+&r"(t4), [lo] "=&r"(lo), [hi] "=&r"(hi)
        : [p] "r"(p.limb), [inv] "m"(inv), "m"(p.limb)
        : "rdx", "cc");
    r[0] = t4;
    r[1] = t0;
    r[2] = t1;
    r[3] = t2;
}

/// out = w / 2^256 mod p for an 8-word w below p 2^256: the low half reduced, the high half added, one
/// masked subtraction.
inline void mont_reduce_wide_adx_4(bigint<4>& out, const uint64_t (&w)[8], const bigint<4>& p, uint64_t inv) {
    uint64_t r[4];
    mont_reduce_low_adx_4(r, w, p, inv);
    unsigned long long s[4];
    unsigned char c = 0;
    for (size_t i = 0; i < 4; ++i) c = _addcarry_u64(c, r[i], w[4 + i], &s[i]);  // below 2p < 2^255: no carry out
    const uint64_t sum[4] = {s[0], s[1], s[2], s[3]};
    reduce_once(out, sum, p);
}

/// (c0, c1) = (a0 + a1 u)(b0 + b1 u) with u^2 = -1, Montgomery form, p < 2^254.
inline void fp2_mul_lazy_adx_4(bigint<4>& c0, bigint<4>& c1, const bigint<4>& a0, const bigint<4>& a1,
                               const bigint<4>& b0, const bigint<4>& b1, const bigint<4>& p, uint64_t inv) {
    uint64_t v0[8], v1[8], s[8];
    mul_wide_adx_4(v0, a0, b0);
    mul_wide_adx_4(v1, a1, b1);
    bigint<4> sa, sb;  // a0 + a1 and b0 + b1, not reduced: below 2p < 2^255
    unsigned char ca = 0, cb = 0;
    for (size_t i = 0; i < 4; ++i) {
        unsigned long long x, y;
        ca = _addcarry_u64(ca, a0.limb[i], a1.limb[i], &x);
        cb = _addcarry_u64(cb, b0.limb[i], b1.limb[i], &y);
        sa.limb[i] = x;
        sb.limb[i] = y;
    }
    mul_wide_adx_4(s, sa, sb);
    uint64_t d[8], e[8];
    unsigned char borrow = 0, be = 0;
    for (size_t i = 0; i < 8; ++i) {
        unsigned long long x, y;
        borrow = _subborrow_u64(borrow, v0[i], v1[i], &x);  // c0 = v0 - v1
        be = _subborrow_u64(be, s[i], v0[i], &y);           // c1 = s - v0 - v1 (never negative)
        d[i] = x;
        e[i] = y;
    }
    const uint64_t mask = 0 - uint64_t(borrow);  // v0 < v1: add p 2^256
    unsigned char c = 0;
    for (size_t i = 0; i < 4; ++i) {
        unsigned long long x;
        c = _addcarry_u64(c, d[4 + i], p.limb[i] & mask, &x);
        d[4 + i] = x;
    }
    be = 0;
    for (size_t i = 0; i < 8; ++i) {
        unsigned long long y;
        be = _subborrow_u64(be, e[i], v1[i], &y);
        e[i] = y;
    }
    mont_reduce_wide_adx_4(c0, d, p, inv);
    mont_reduce_wide_adx_4(c1, e, p, inv);
}

}  // namespace cuzk::host_arith::x86
#endif
