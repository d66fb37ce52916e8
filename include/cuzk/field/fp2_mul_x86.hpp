// SPDX-License-Identifier: MIT OR Apache-2.0
// The Fp2 product and square for 4- and 6-limb fields with u^2 = -1 (BN254's and BLS12-381's Fp2) on
// x86-64 with BMI2 and ADX, by lazy reduction. The product: three double-width products, a0 b0, a1 b1
// and (a0 + a1)(b0 + b1), with no reduction; the two coordinates formed at double width,
// c0 = a0 b0 - a1 b1 (plus p 2^(64N) when that borrows) and c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1 =
// a0 b1 + a1 b0; then one Montgomery reduction each. Two reductions and no modular additions in place
// of Karatsuba's three Montgomery products and five modular additions: on a 2-core Xeon VM 58 against
// 102 ns a BN254 product, 98 against 166 ns a BLS12-381 one (docs/log/2026-12.md, "Host Fp2 products
// with lazy reduction"). The square: two double-width products, (a0 + a1)(a0 + p - a1) and (2 a0) a1,
// and two reductions (43 against 76 ns on BN254, 80 against 110 on BLS12-381). Constant time: every
// select is a mask.
//
// Bounds, for p < 2^(64N - 2) (fp2.hpp calls it only then): a0 + a1 < 2p fits N words; each product is
// below 4p^2 < 2^(128N); c0 and c1 are in [0, p 2^(64N)), so a reduction of the low half gives at most
// p, and the high half, below p, added to it stays below 2p: one masked subtraction reduces it.
// Used by fp2::operator* and fp2::square on the host (fp2.hpp); the device and constant evaluation keep
// Karatsuba and the complex squaring.
#pragma once

#include <cstdint>

#include "cuzk/core/bigint.hpp"
#include "cuzk/field/mont_arith_x86.hpp"

#if CUZK_HOST_ADX
namespace cuzk::host_arith::x86 {

/// t = a b: the full 8-word product, 4 rows of mulx on the two carry chains, no reduction. Each row
/// writes one word above the rows before it, which starts at zero, so no carry leaves the top.
inline void mul_wide_adx(uint64_t (&t)[8], const bigint<4>& a, const bigint<4>& b) {
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
inline void mont_reduce_low_adx(uint64_t (&r)[4], const uint64_t* t, const bigint<4>& p, uint64_t inv) {
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

/// t = a b for 6 limbs: the 12-word product, 6 mulx rows on the two carry chains over 7 rotating
/// accumulator registers; after row i word i is final, goes to t[i], and its register, zeroed, is the next
/// row's top word (13 registers with rdx, as mont_mul_adx_6).
inline void mul_wide_adx(uint64_t (&t)[12], const bigint<6>& a, const bigint<6>& b) {
    uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0, t5 = 0, t6 = 0, lo, hi;
    asm volatile(
        "movq 0(%[b]), %%rdx\n\t"
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
        "mulxq 32(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t4]\n\t"
        "adcxq %[hi], %[t5]\n\t"
        "mulxq 40(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t5]\n\t"
        "adcxq %[hi], %[t6]\n\t"
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[t6]\n\t"
        "movq %[t0], 0(%[w])\n\t"
        "xorl %k[t0], %k[t0]\n\t"
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
        "mulxq 32(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t5]\n\t"
        "adcxq %[hi], %[t6]\n\t"
        "mulxq 40(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t6]\n\t"
        "adcxq %[hi], %[t0]\n\t"
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[t0]\n\t"
        "movq %[t1], 8(%[w])\n\t"
        "xorl %k[t1], %k[t1]\n\t"
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
        "mulxq 32(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t6]\n\t"
        "adcxq %[hi], %[t0]\n\t"
        "mulxq 40(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t0]\n\t"
        "adcxq %[hi], %[t1]\n\t"
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[t1]\n\t"
        "movq %[t2], 16(%[w])\n\t"
        "xorl %k[t2], %k[t2]\n\t"
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
        "adcxq %[hi], %[t0]\n\t"
        "mulxq 32(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t0]\n\t"
        "adcxq %[hi], %[t1]\n\t"
        "mulxq 40(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t1]\n\t"
        "adcxq %[hi], %[t2]\n\t"
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[t2]\n\t"
        "movq %[t3], 24(%[w])\n\t"
        "xorl %k[t3], %k[t3]\n\t"
        "movq 32(%[b]), %%rdx\n\t"
        "xorl %k[lo], %k[lo]\n\t"
        "mulxq 0(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t4]\n\t"
        "adcxq %[hi], %[t5]\n\t"
        "mulxq 8(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t5]\n\t"
        "adcxq %[hi], %[t6]\n\t"
        "mulxq 16(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t6]\n\t"
        "adcxq %[hi], %[t0]\n\t"
        "mulxq 24(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t0]\n\t"
        "adcxq %[hi], %[t1]\n\t"
        "mulxq 32(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t1]\n\t"
        "adcxq %[hi], %[t2]\n\t"
        "mulxq 40(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t2]\n\t"
        "adcxq %[hi], %[t3]\n\t"
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[t3]\n\t"
        "movq %[t4], 32(%[w])\n\t"
        "xorl %k[t4], %k[t4]\n\t"
        "movq 40(%[b]), %%rdx\n\t"
        "xorl %k[lo], %k[lo]\n\t"
        "mulxq 0(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t5]\n\t"
        "adcxq %[hi], %[t6]\n\t"
        "mulxq 8(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t6]\n\t"
        "adcxq %[hi], %[t0]\n\t"
        "mulxq 16(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t0]\n\t"
        "adcxq %[hi], %[t1]\n\t"
        "mulxq 24(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t1]\n\t"
        "adcxq %[hi], %[t2]\n\t"
        "mulxq 32(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t2]\n\t"
        "adcxq %[hi], %[t3]\n\t"
        "mulxq 40(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t3]\n\t"
        "adcxq %[hi], %[t4]\n\t"
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[t4]\n\t"
        "movq %[t5], 40(%[w])\n\t"
        : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [t4] "+&r"(t4), [t5] "+&r"(t5),
          [t6] "+&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi)
        : [a] "r"(a.limb), [b] "r"(b.limb), [w] "r"(t), "m"(a.limb), "m"(b.limb)
        : "rdx", "cc", "memory");
    t[6] = t6;
    t[7] = t0;
    t[8] = t1;
    t[9] = t2;
    t[10] = t3;
    t[11] = t4;
}

/// out = w / 2^384 mod p for a 12-word w below p 2^384: CUZK_ADX6_REDUCE_WIDE (mont_arith_x86.hpp, the
/// reduction of mont_sqr_adx_6: the low half reduced, at most p, and the high half, below p, added in the
/// same asm), then one masked subtraction. (The add inside the asm makes a BLS12-381 Fp2 product 10%
/// faster; for 4 limbs, whose product's top words stay in registers when inlined, it was 3% slower.)
inline void mont_reduce_wide_adx(bigint<6>& out, const uint64_t (&w)[12], const bigint<6>& p, uint64_t inv) {
    // t6 goes in as 0 although the asm zeroes it: as an output only, the square measured 7% slower
    uint64_t t0 = w[0], t1 = w[1], t2 = w[2], t3 = w[3], t4 = w[4], t5 = w[5], t6 = 0, lo, hi;
    asm(CUZK_ADX6_REDUCE_WIDE
        : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [t4] "+&r"(t4), [t5] "+&r"(t5),
          [t6] "+&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi)
        : [p] "r"(p.limb), [w] "r"(w), [inv] "m"(inv), "m"(p.limb), "m"(w)
        : "rdx", "cc");
    const uint64_t r[6] = {t6, t0, t1, t2, t3, t4};
    reduce_once(out, r, p);
}

/// out = w / 2^256 mod p for an 8-word w below p 2^256: the low half reduced, the high half added,
/// one masked subtraction.
inline void mont_reduce_wide_adx(bigint<4>& out, const uint64_t (&w)[8], const bigint<4>& p, uint64_t inv) {
    uint64_t r[4];
    mont_reduce_low_adx(r, w, p, inv);
    unsigned long long s[4];
    unsigned char c = 0;
    for (size_t i = 0; i < 4; ++i) c = _addcarry_u64(c, r[i], w[4 + i], &s[i]);  // below 2p: no carry out
    uint64_t sum[4];
    for (size_t i = 0; i < 4; ++i) sum[i] = s[i];
    reduce_once(out, sum, p);
}

/// (c0, c1) = (a0 + a1 u)(b0 + b1 u) with u^2 = -1, Montgomery form, N = 4 or 6 limbs, p < 2^(64N - 2).
template <size_t N>
inline void fp2_mul_lazy_adx(bigint<N>& c0, bigint<N>& c1, const bigint<N>& a0, const bigint<N>& a1,
                             const bigint<N>& b0, const bigint<N>& b1, const bigint<N>& p, uint64_t inv) {
    uint64_t v0[2 * N], v1[2 * N], s[2 * N];
    mul_wide_adx(v0, a0, b0);
    mul_wide_adx(v1, a1, b1);
    bigint<N> sa, sb;  // a0 + a1 and b0 + b1, not reduced: below 2p
    unsigned char ca = 0, cb = 0;
    for (size_t i = 0; i < N; ++i) {
        unsigned long long x, y;
        ca = _addcarry_u64(ca, a0.limb[i], a1.limb[i], &x);
        cb = _addcarry_u64(cb, b0.limb[i], b1.limb[i], &y);
        sa.limb[i] = x;
        sb.limb[i] = y;
    }
    mul_wide_adx(s, sa, sb);
    uint64_t d[2 * N], e[2 * N];
    unsigned char borrow = 0, be = 0;
    for (size_t i = 0; i < 2 * N; ++i) {
        unsigned long long x, y;
        borrow = _subborrow_u64(borrow, v0[i], v1[i], &x);  // c0 = v0 - v1
        be = _subborrow_u64(be, s[i], v0[i], &y);           // c1 = s - v0 - v1 (never negative)
        d[i] = x;
        e[i] = y;
    }
    const uint64_t mask = 0 - uint64_t(borrow);  // v0 < v1: add p 2^(64N)
    unsigned char c = 0;
    for (size_t i = 0; i < N; ++i) {
        unsigned long long x;
        c = _addcarry_u64(c, d[N + i], p.limb[i] & mask, &x);
        d[N + i] = x;
    }
    be = 0;
    for (size_t i = 0; i < 2 * N; ++i) {
        unsigned long long y;
        be = _subborrow_u64(be, e[i], v1[i], &y);
        e[i] = y;
    }
    mont_reduce_wide_adx(c0, d, p, inv);
    mont_reduce_wide_adx(c1, e, p, inv);
}

/// (c0, c1) = (a0 + a1 u)^2 with u^2 = -1, Montgomery form, N = 4 or 6 limbs, p < 2^(64N - 2):
/// c0 = (a0 + a1)(a0 - a1 + p) and c1 = (2 a0) a1, two double-width products and two reductions, the
/// factors formed without reduction (each below 2p, so each product is below 4p^2 < p 2^(64N), as
/// mont_reduce_wide_adx needs). Against the complex squaring's two Montgomery products and three
/// modular additions.
template <size_t N>
inline void fp2_sqr_lazy_adx(bigint<N>& c0, bigint<N>& c1, const bigint<N>& a0, const bigint<N>& a1,
                             const bigint<N>& p, uint64_t inv) {
    bigint<N> sum, diff, twice;  // a0 + a1, a0 + p - a1, 2 a0
    unsigned char cs = 0, cp = 0, cd = 0, ct = 0;
    for (size_t i = 0; i < N; ++i) {
        unsigned long long x, y, z;
        cs = _addcarry_u64(cs, a0.limb[i], a1.limb[i], &x);
        cp = _addcarry_u64(cp, a0.limb[i], p.limb[i], &y);  // a0 + p < 2^(64N): no carry out
        ct = _addcarry_u64(ct, a0.limb[i], a0.limb[i], &z);
        sum.limb[i] = x;
        diff.limb[i] = y;
        twice.limb[i] = z;
    }
    for (size_t i = 0; i < N; ++i) {  // a0 + p > a1: no borrow out
        unsigned long long x;
        cd = _subborrow_u64(cd, diff.limb[i], a1.limb[i], &x);
        diff.limb[i] = x;
    }
    uint64_t v0[2 * N], v1[2 * N];
    mul_wide_adx(v0, sum, diff);
    mul_wide_adx(v1, twice, a1);
    mont_reduce_wide_adx(c0, v0, p, inv);
    mont_reduce_wide_adx(c1, v1, p, inv);
}

}  // namespace cuzk::host_arith::x86
#endif
