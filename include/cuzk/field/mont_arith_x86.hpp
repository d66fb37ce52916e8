// SPDX-License-Identifier: MIT OR Apache-2.0
// Montgomery multiplication and squaring on x86-64 with BMI2 (mulx) and ADX (adcx/adox): host
// leaf primitives for 4-limb (254/255-bit) and 6-limb (381-bit) moduli.
//
// Used by host_arith::mont_mul and mont_sqr at run time when the compiler targets ADX (cuzk's
// CMake adds -madx -mbmi2 unless CUZK_X86_ADX is OFF); constant evaluation keeps the portable code.
// Each multiplication row is the no-carry CIOS step of mont_arith_host.hpp: the products' low
// halves ride the OF chain (adox), the high halves the CF chain (adcx), so both chains run at
// once. The squarings compute the full square first (cross products once, doubled), then reduce it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/core/bigint.hpp"

namespace cuzk::host_arith {

/// out = r mod p for r < 2p: r - p, then r or r - p kept under the borrow's mask (a mask, not a
/// branch: constant time, docs/RELIABILITY.md F1). The last step of every Montgomery product
/// here and in mont_arith_host.hpp.
template <size_t N>
[[gnu::always_inline]] constexpr void reduce_once(bigint<N>& out, const uint64_t (&r)[N], const bigint<N>& p) {
    uint64_t d[N] = {};
    uint64_t borrow = 0;
    for (size_t i = 0; i < N; ++i) borrow = sub_borrow(d[i], r[i], p.limb[i], borrow);
    const uint64_t keep = 0 - borrow;  // r < p: keep r
    for (size_t i = 0; i < N; ++i) out.limb[i] = (r[i] & keep) | (d[i] & ~keep);
}

}  // namespace cuzk::host_arith

// The asm below needs 13 free registers, which GCC finds only when optimising: unoptimised (a
// consumer's Debug build) the address of an operand takes one more and mont_mul_adx_6 and
// mont_sqr_adx_4 fail with "impossible constraints". Such builds take the portable code.
#if defined(__x86_64__) && defined(__ADX__) && defined(__BMI2__) && !defined(__CUDA_ARCH__) && defined(__OPTIMIZE__)
#define CUZK_HOST_ADX 1

#include <immintrin.h>

namespace cuzk::host_arith::x86 {

/// CIOS with mulx and the two carry chains of adcx/adox, 4 limbs, rows fully unrolled.
/// The 5 accumulator registers rotate: after a row's reduction the low word is zero and
/// becomes the next row's top word, so no shift is ever executed.
inline void mont_mul_adx_4(bigint<4>& out, const bigint<4>& a, const bigint<4>& b, const bigint<4>& p,
                          uint64_t inv) {
    uint64_t t[5] = {};
    uint64_t lo, hi;
    asm(
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
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[t4]\n\t"
        "movq %[t0], %%rdx\n\t"
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
        "adcxq %[hi], %[t0]\n\t"
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[t0]\n\t"
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
        "adcxq %[hi], %[t0]\n\t"
        "mulxq 24(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t0]\n\t"
        "adcxq %[hi], %[t1]\n\t"
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[t1]\n\t"
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
        "movq 24(%[b]), %%rdx\n\t"
        "xorl %k[lo], %k[lo]\n\t"
        "mulxq 0(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t3]\n\t"
        "adcxq %[hi], %[t4]\n\t"
        "mulxq 8(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t4]\n\t"
        "adcxq %[hi], %[t0]\n\t"
        "mulxq 16(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t0]\n\t"
        "adcxq %[hi], %[t1]\n\t"
        "mulxq 24(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t1]\n\t"
        "adcxq %[hi], %[t2]\n\t"
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[t2]\n\t"
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
        : [t0] "+&r"(t[0]), [t1] "+&r"(t[1]), [t2] "+&r"(t[2]), [t3] "+&r"(t[3]), [t4] "+&r"(t[4]), [lo] "=&r"(lo), [hi] "=&r"(hi)
        : [a] "r"(a.limb), [b] "r"(b.limb), [p] "r"(p.limb), [inv] "m"(inv), "m"(a.limb), "m"(b.limb), "m"(p.limb)
        : "rdx", "cc");
    const uint64_t r[4] = {t[4], t[0], t[1], t[2]};
    reduce_once(out, r, p);
}

/// CIOS with mulx and the two carry chains of adcx/adox, 6 limbs, rows fully unrolled.
/// The 7 accumulator registers rotate: after a row's reduction the low word is zero and
/// becomes the next row's top word, so no shift is ever executed.
inline void mont_mul_adx_6(bigint<6>& out, const bigint<6>& a, const bigint<6>& b, const bigint<6>& p,
                          uint64_t inv) {
    uint64_t t[7] = {};
    uint64_t lo, hi;
    asm(
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
        "movq %[t0], %%rdx\n\t"
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
        "mulxq 32(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t4]\n\t"
        "adcxq %[hi], %[t5]\n\t"
        "mulxq 40(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t5]\n\t"
        "adcxq %[hi], %[t6]\n\t"
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[t6]\n\t"
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
        "adcxq %[hi], %[t5]\n\t"
        "mulxq 32(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t5]\n\t"
        "adcxq %[hi], %[t6]\n\t"
        "mulxq 40(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t6]\n\t"
        "adcxq %[hi], %[t0]\n\t"
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[t0]\n\t"
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
        "adcxq %[hi], %[t5]\n\t"
        "mulxq 24(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t5]\n\t"
        "adcxq %[hi], %[t6]\n\t"
        "mulxq 32(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t6]\n\t"
        "adcxq %[hi], %[t0]\n\t"
        "mulxq 40(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t0]\n\t"
        "adcxq %[hi], %[t1]\n\t"
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[t1]\n\t"
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
        "movq %[t3], %%rdx\n\t"
        "imulq %[inv], %%rdx\n\t"
        "xorl %k[lo], %k[lo]\n\t"
        "mulxq 0(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t3]\n\t"
        "adcxq %[hi], %[t4]\n\t"
        "mulxq 8(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t4]\n\t"
        "adcxq %[hi], %[t5]\n\t"
        "mulxq 16(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t5]\n\t"
        "adcxq %[hi], %[t6]\n\t"
        "mulxq 24(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t6]\n\t"
        "adcxq %[hi], %[t0]\n\t"
        "mulxq 32(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t0]\n\t"
        "adcxq %[hi], %[t1]\n\t"
        "mulxq 40(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t1]\n\t"
        "adcxq %[hi], %[t2]\n\t"
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[t2]\n\t"
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
        "movq %[t4], %%rdx\n\t"
        "imulq %[inv], %%rdx\n\t"
        "xorl %k[lo], %k[lo]\n\t"
        "mulxq 0(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t4]\n\t"
        "adcxq %[hi], %[t5]\n\t"
        "mulxq 8(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t5]\n\t"
        "adcxq %[hi], %[t6]\n\t"
        "mulxq 16(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t6]\n\t"
        "adcxq %[hi], %[t0]\n\t"
        "mulxq 24(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t0]\n\t"
        "adcxq %[hi], %[t1]\n\t"
        "mulxq 32(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t1]\n\t"
        "adcxq %[hi], %[t2]\n\t"
        "mulxq 40(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t2]\n\t"
        "adcxq %[hi], %[t3]\n\t"
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[t3]\n\t"
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
        "movq %[t5], %%rdx\n\t"
        "imulq %[inv], %%rdx\n\t"
        "xorl %k[lo], %k[lo]\n\t"
        "mulxq 0(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t5]\n\t"
        "adcxq %[hi], %[t6]\n\t"
        "mulxq 8(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t6]\n\t"
        "adcxq %[hi], %[t0]\n\t"
        "mulxq 16(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t0]\n\t"
        "adcxq %[hi], %[t1]\n\t"
        "mulxq 24(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t1]\n\t"
        "adcxq %[hi], %[t2]\n\t"
        "mulxq 32(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t2]\n\t"
        "adcxq %[hi], %[t3]\n\t"
        "mulxq 40(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t3]\n\t"
        "adcxq %[hi], %[t4]\n\t"
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[t4]\n\t"
        : [t0] "+&r"(t[0]), [t1] "+&r"(t[1]), [t2] "+&r"(t[2]), [t3] "+&r"(t[3]), [t4] "+&r"(t[4]), [t5] "+&r"(t[5]), [t6] "+&r"(t[6]), [lo] "=&r"(lo), [hi] "=&r"(hi)
        : [a] "r"(a.limb), [b] "r"(b.limb), [p] "r"(p.limb), [inv] "m"(inv), "m"(a.limb), "m"(b.limb), "m"(p.limb)
        : "rdx", "cc");
    const uint64_t r[6] = {t[6], t[0], t[1], t[2], t[3], t[4]};
    reduce_once(out, r, p);
}

/// Montgomery squaring, 4 limbs: out = a^2 / 2^256 mod p with 10 products for the square and 16
/// for the reduction, against mont_mul_adx_4's 32. The 8-word square stays in registers: the 6
/// cross products a_i a_j (i < j) once, then doubled by adding each word to itself on the CF
/// chain while the squares a_i^2 join on the OF chain; then 4 reduction rows of m p (m = word *
/// inv) on the low half, the accumulator rotating as in mont_mul_adx_4, and one add of the high
/// half. The sum (a^2 + M p) / 2^256 is below 2p, so one masked subtraction reduces it.
/// 13 registers with rdx, as mont_mul_adx_4 (so it compiles with the frame pointer kept, as in
/// the sanitizer presets): zeros come from the scratch register, and the register of the
/// pointer to a, dead after the square, is the reduction's fifth accumulator word.
inline void mont_sqr_adx_4(bigint<4>& out, const bigint<4>& a, const bigint<4>& p, uint64_t inv) {
    uint64_t t0, t1, t2, t3, t4, t5, t6, t7, lo, hi;
    uint64_t a_then_r0 = reinterpret_cast<uintptr_t>(a.limb);
    asm(
        // cross products a_i a_j (i < j) into words 1 .. 6: lo halves on the OF chain, hi halves on CF
        "movq 0(%[a]), %%rdx\n\t"
        "xorl %k[lo], %k[lo]\n\t"
        "mulxq 8(%[a]), %[t1], %[t2]\n\t"
        "mulxq 16(%[a]), %[lo], %[t3]\n\t"
        "adcxq %[lo], %[t2]\n\t"
        "mulxq 24(%[a]), %[lo], %[t4]\n\t"
        "adcxq %[lo], %[t3]\n\t"
        "movl $0, %k[lo]\n\t"
        "adcxq %[lo], %[t4]\n\t"
        "movq 8(%[a]), %%rdx\n\t"
        "mulxq 16(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t3]\n\t"
        "adcxq %[hi], %[t4]\n\t"
        "mulxq 24(%[a]), %[lo], %[t5]\n\t"
        "adoxq %[lo], %[t4]\n\t"
        "movl $0, %k[lo]\n\t"
        "adcxq %[lo], %[t5]\n\t"
        "adoxq %[lo], %[t5]\n\t"
        "movq 16(%[a]), %%rdx\n\t"
        "mulxq 24(%[a]), %[lo], %[t6]\n\t"
        "adoxq %[lo], %[t5]\n\t"
        "movl $0, %k[lo]\n\t"
        "adcxq %[lo], %[t6]\n\t"
        "adoxq %[lo], %[t6]\n\t"
        // doubled (adcx x, x) plus the squares a_i^2 (adox): the full square in words 0 .. 7
        "xorl %k[t7], %k[t7]\n\t"
        "movq 0(%[a]), %%rdx\n\t"
        "mulxq %%rdx, %[t0], %[hi]\n\t"
        "adcxq %[t1], %[t1]\n\t"
        "adoxq %[hi], %[t1]\n\t"
        "movq 8(%[a]), %%rdx\n\t"
        "mulxq %%rdx, %[lo], %[hi]\n\t"
        "adcxq %[t2], %[t2]\n\t"
        "adoxq %[lo], %[t2]\n\t"
        "adcxq %[t3], %[t3]\n\t"
        "adoxq %[hi], %[t3]\n\t"
        "movq 16(%[a]), %%rdx\n\t"
        "mulxq %%rdx, %[lo], %[hi]\n\t"
        "adcxq %[t4], %[t4]\n\t"
        "adoxq %[lo], %[t4]\n\t"
        "adcxq %[t5], %[t5]\n\t"
        "adoxq %[hi], %[t5]\n\t"
        "movq 24(%[a]), %%rdx\n\t"
        "mulxq %%rdx, %[lo], %[hi]\n\t"
        "adcxq %[t6], %[t6]\n\t"
        "adoxq %[lo], %[t6]\n\t"
        "adcxq %[t7], %[t7]\n\t"
        "adoxq %[hi], %[t7]\n\t"
        // Montgomery reduction of words 0 .. 3: rows of m p, m = word * inv, the accumulator rotating
        "movq %[t0], %%rdx\n\t"
        "imulq %[inv], %%rdx\n\t"
        "xorl %k[a], %k[a]\n\t"
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
        "adcxq %[hi], %[a]\n\t"
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[a]\n\t"
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
        "adcxq %[hi], %[a]\n\t"
        "mulxq 24(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[a]\n\t"
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
        "adcxq %[hi], %[a]\n\t"
        "mulxq 16(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[a]\n\t"
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
        "adcxq %[hi], %[a]\n\t"
        "mulxq 8(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[a]\n\t"
        "adcxq %[hi], %[t0]\n\t"
        "mulxq 16(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t0]\n\t"
        "adcxq %[hi], %[t1]\n\t"
        "mulxq 24(%[p]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t1]\n\t"
        "adcxq %[hi], %[t2]\n\t"
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[t2]\n\t"
        // plus words 4 .. 7
        "addq %[t4], %[a]\n\t"
        "adcq %[t5], %[t0]\n\t"
        "adcq %[t6], %[t1]\n\t"
        "adcq %[t7], %[t2]\n\t"
        : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5),
          [t6] "=&r"(t6), [t7] "=&r"(t7), [lo] "=&r"(lo), [hi] "=&r"(hi), [a] "+r"(a_then_r0)
        : [p] "r"(p.limb), [inv] "m"(inv), "m"(a.limb), "m"(p.limb)
        : "rdx", "cc");
    const uint64_t r[4] = {a_then_r0, t0, t1, t2};
    reduce_once(out, r, p);
}

// A 12-word value's Montgomery reduction, w / 2^384 (below 2p: one masked subtraction remains), as asm
// text that mont_sqr_adx_6 and fp2_mul_x86.hpp's mont_reduce_wide_adx both splice in (a shared function
// would pass the square through memory: 16% slower, bench_field's square). The low words are in %[t0] ..
// %[t5], the high ones at 48 .. 88(%[w]): 6 rows of m p (m = word * inv) with %[t6], zeroed here, as the
// accumulator's seventh word, rotating; then the high words added. The result: %[t6], %[t0] .. %[t4].
// Operands named t0 .. t6, lo, hi, p, inv and w; rdx and the flags are clobbered.
#define CUZK_ADX6_REDUCE_WIDE          \
    "movq %[t0], %%rdx\n\t"            \
    "imulq %[inv], %%rdx\n\t"          \
    "xorl %k[t6], %k[t6]\n\t"          \
    "mulxq 0(%[p]), %[lo], %[hi]\n\t"  \
    "adoxq %[lo], %[t0]\n\t"           \
    "adcxq %[hi], %[t1]\n\t"           \
    "mulxq 8(%[p]), %[lo], %[hi]\n\t"  \
    "adoxq %[lo], %[t1]\n\t"           \
    "adcxq %[hi], %[t2]\n\t"           \
    "mulxq 16(%[p]), %[lo], %[hi]\n\t" \
    "adoxq %[lo], %[t2]\n\t"           \
    "adcxq %[hi], %[t3]\n\t"           \
    "mulxq 24(%[p]), %[lo], %[hi]\n\t" \
    "adoxq %[lo], %[t3]\n\t"           \
    "adcxq %[hi], %[t4]\n\t"           \
    "mulxq 32(%[p]), %[lo], %[hi]\n\t" \
    "adoxq %[lo], %[t4]\n\t"           \
    "adcxq %[hi], %[t5]\n\t"           \
    "mulxq 40(%[p]), %[lo], %[hi]\n\t" \
    "adoxq %[lo], %[t5]\n\t"           \
    "adcxq %[hi], %[t6]\n\t"           \
    "movl $0, %k[lo]\n\t"              \
    "adoxq %[lo], %[t6]\n\t"           \
    "movq %[t1], %%rdx\n\t"            \
    "imulq %[inv], %%rdx\n\t"          \
    "xorl %k[lo], %k[lo]\n\t"          \
    "mulxq 0(%[p]), %[lo], %[hi]\n\t"  \
    "adoxq %[lo], %[t1]\n\t"           \
    "adcxq %[hi], %[t2]\n\t"           \
    "mulxq 8(%[p]), %[lo], %[hi]\n\t"  \
    "adoxq %[lo], %[t2]\n\t"           \
    "adcxq %[hi], %[t3]\n\t"           \
    "mulxq 16(%[p]), %[lo], %[hi]\n\t" \
    "adoxq %[lo], %[t3]\n\t"           \
    "adcxq %[hi], %[t4]\n\t"           \
    "mulxq 24(%[p]), %[lo], %[hi]\n\t" \
    "adoxq %[lo], %[t4]\n\t"           \
    "adcxq %[hi], %[t5]\n\t"           \
    "mulxq 32(%[p]), %[lo], %[hi]\n\t" \
    "adoxq %[lo], %[t5]\n\t"           \
    "adcxq %[hi], %[t6]\n\t"           \
    "mulxq 40(%[p]), %[lo], %[hi]\n\t" \
    "adoxq %[lo], %[t6]\n\t"           \
    "adcxq %[hi], %[t0]\n\t"           \
    "movl $0, %k[lo]\n\t"              \
    "adoxq %[lo], %[t0]\n\t"           \
    "movq %[t2], %%rdx\n\t"            \
    "imulq %[inv], %%rdx\n\t"          \
    "xorl %k[lo], %k[lo]\n\t"          \
    "mulxq 0(%[p]), %[lo], %[hi]\n\t"  \
    "adoxq %[lo], %[t2]\n\t"           \
    "adcxq %[hi], %[t3]\n\t"           \
    "mulxq 8(%[p]), %[lo], %[hi]\n\t"  \
    "adoxq %[lo], %[t3]\n\t"           \
    "adcxq %[hi], %[t4]\n\t"           \
    "mulxq 16(%[p]), %[lo], %[hi]\n\t" \
    "adoxq %[lo], %[t4]\n\t"           \
    "adcxq %[hi], %[t5]\n\t"           \
    "mulxq 24(%[p]), %[lo], %[hi]\n\t" \
    "adoxq %[lo], %[t5]\n\t"           \
    "adcxq %[hi], %[t6]\n\t"           \
    "mulxq 32(%[p]), %[lo], %[hi]\n\t" \
    "adoxq %[lo], %[t6]\n\t"           \
    "adcxq %[hi], %[t0]\n\t"           \
    "mulxq 40(%[p]), %[lo], %[hi]\n\t" \
    "adoxq %[lo], %[t0]\n\t"           \
    "adcxq %[hi], %[t1]\n\t"           \
    "movl $0, %k[lo]\n\t"              \
    "adoxq %[lo], %[t1]\n\t"           \
    "movq %[t3], %%rdx\n\t"            \
    "imulq %[inv], %%rdx\n\t"          \
    "xorl %k[lo], %k[lo]\n\t"          \
    "mulxq 0(%[p]), %[lo], %[hi]\n\t"  \
    "adoxq %[lo], %[t3]\n\t"           \
    "adcxq %[hi], %[t4]\n\t"           \
    "mulxq 8(%[p]), %[lo], %[hi]\n\t"  \
    "adoxq %[lo], %[t4]\n\t"           \
    "adcxq %[hi], %[t5]\n\t"           \
    "mulxq 16(%[p]), %[lo], %[hi]\n\t" \
    "adoxq %[lo], %[t5]\n\t"           \
    "adcxq %[hi], %[t6]\n\t"           \
    "mulxq 24(%[p]), %[lo], %[hi]\n\t" \
    "adoxq %[lo], %[t6]\n\t"           \
    "adcxq %[hi], %[t0]\n\t"           \
    "mulxq 32(%[p]), %[lo], %[hi]\n\t" \
    "adoxq %[lo], %[t0]\n\t"           \
    "adcxq %[hi], %[t1]\n\t"           \
    "mulxq 40(%[p]), %[lo], %[hi]\n\t" \
    "adoxq %[lo], %[t1]\n\t"           \
    "adcxq %[hi], %[t2]\n\t"           \
    "movl $0, %k[lo]\n\t"              \
    "adoxq %[lo], %[t2]\n\t"           \
    "movq %[t4], %%rdx\n\t"            \
    "imulq %[inv], %%rdx\n\t"          \
    "xorl %k[lo], %k[lo]\n\t"          \
    "mulxq 0(%[p]), %[lo], %[hi]\n\t"  \
    "adoxq %[lo], %[t4]\n\t"           \
    "adcxq %[hi], %[t5]\n\t"           \
    "mulxq 8(%[p]), %[lo], %[hi]\n\t"  \
    "adoxq %[lo], %[t5]\n\t"           \
    "adcxq %[hi], %[t6]\n\t"           \
    "mulxq 16(%[p]), %[lo], %[hi]\n\t" \
    "adoxq %[lo], %[t6]\n\t"           \
    "adcxq %[hi], %[t0]\n\t"           \
    "mulxq 24(%[p]), %[lo], %[hi]\n\t" \
    "adoxq %[lo], %[t0]\n\t"           \
    "adcxq %[hi], %[t1]\n\t"           \
    "mulxq 32(%[p]), %[lo], %[hi]\n\t" \
    "adoxq %[lo], %[t1]\n\t"           \
    "adcxq %[hi], %[t2]\n\t"           \
    "mulxq 40(%[p]), %[lo], %[hi]\n\t" \
    "adoxq %[lo], %[t2]\n\t"           \
    "adcxq %[hi], %[t3]\n\t"           \
    "movl $0, %k[lo]\n\t"              \
    "adoxq %[lo], %[t3]\n\t"           \
    "movq %[t5], %%rdx\n\t"            \
    "imulq %[inv], %%rdx\n\t"          \
    "xorl %k[lo], %k[lo]\n\t"          \
    "mulxq 0(%[p]), %[lo], %[hi]\n\t"  \
    "adoxq %[lo], %[t5]\n\t"           \
    "adcxq %[hi], %[t6]\n\t"           \
    "mulxq 8(%[p]), %[lo], %[hi]\n\t"  \
    "adoxq %[lo], %[t6]\n\t"           \
    "adcxq %[hi], %[t0]\n\t"           \
    "mulxq 16(%[p]), %[lo], %[hi]\n\t" \
    "adoxq %[lo], %[t0]\n\t"           \
    "adcxq %[hi], %[t1]\n\t"           \
    "mulxq 24(%[p]), %[lo], %[hi]\n\t" \
    "adoxq %[lo], %[t1]\n\t"           \
    "adcxq %[hi], %[t2]\n\t"           \
    "mulxq 32(%[p]), %[lo], %[hi]\n\t" \
    "adoxq %[lo], %[t2]\n\t"           \
    "adcxq %[hi], %[t3]\n\t"           \
    "mulxq 40(%[p]), %[lo], %[hi]\n\t" \
    "adoxq %[lo], %[t3]\n\t"           \
    "adcxq %[hi], %[t4]\n\t"           \
    "movl $0, %k[lo]\n\t"              \
    "adoxq %[lo], %[t4]\n\t"           \
    "addq 48(%[w]), %[t6]\n\t"         \
    "adcq 56(%[w]), %[t0]\n\t"         \
    "adcq 64(%[w]), %[t1]\n\t"         \
    "adcq 72(%[w]), %[t2]\n\t"         \
    "adcq 80(%[w]), %[t3]\n\t"         \
    "adcq 88(%[w]), %[t4]\n\t"

/// Montgomery squaring, 6 limbs: as mont_sqr_adx_4 (15 cross products, 6 squares and 36
/// reduction products, against 72), but the 12-word square does not fit the registers: each row
/// of cross products stores its two finished words to w[], the doubling pass reads them back,
/// keeps the low half in registers for the reduction and leaves the high half in w[] for the
/// final add (CUZK_ADX6_REDUCE_WIDE). 13 registers with rdx.
inline void mont_sqr_adx_6(bigint<6>& out, const bigint<6>& a, const bigint<6>& p, uint64_t inv) {
    uint64_t w[12];
    uint64_t t0, t1, t2, t3, t4, t5, t6, lo, hi;
    asm(
        // cross products a_i a_j (i < j) into words 1 .. 10: lo halves on the OF chain, hi halves on CF
        "movq 0(%[a]), %%rdx\n\t"
        "xorl %k[lo], %k[lo]\n\t"
        "mulxq 8(%[a]), %[t1], %[t2]\n\t"
        "mulxq 16(%[a]), %[lo], %[t3]\n\t"
        "adcxq %[lo], %[t2]\n\t"
        "mulxq 24(%[a]), %[lo], %[t4]\n\t"
        "adcxq %[lo], %[t3]\n\t"
        "mulxq 32(%[a]), %[lo], %[t5]\n\t"
        "adcxq %[lo], %[t4]\n\t"
        "mulxq 40(%[a]), %[lo], %[t6]\n\t"
        "adcxq %[lo], %[t5]\n\t"
        "movl $0, %k[lo]\n\t"
        "adcxq %[lo], %[t6]\n\t"
        "movq %[t1], 8(%[w])\n\t"
        "movq %[t2], 16(%[w])\n\t"
        "movq 8(%[a]), %%rdx\n\t"
        "mulxq 16(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t3]\n\t"
        "adcxq %[hi], %[t4]\n\t"
        "mulxq 24(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t4]\n\t"
        "adcxq %[hi], %[t5]\n\t"
        "mulxq 32(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t5]\n\t"
        "adcxq %[hi], %[t6]\n\t"
        "mulxq 40(%[a]), %[lo], %[t0]\n\t"
        "adoxq %[lo], %[t6]\n\t"
        "movl $0, %k[lo]\n\t"
        "adcxq %[lo], %[t0]\n\t"
        "adoxq %[lo], %[t0]\n\t"
        "movq %[t3], 24(%[w])\n\t"
        "movq %[t4], 32(%[w])\n\t"
        "movq 16(%[a]), %%rdx\n\t"
        "mulxq 24(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t5]\n\t"
        "adcxq %[hi], %[t6]\n\t"
        "mulxq 32(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t6]\n\t"
        "adcxq %[hi], %[t0]\n\t"
        "mulxq 40(%[a]), %[lo], %[t1]\n\t"
        "adoxq %[lo], %[t0]\n\t"
        "movl $0, %k[lo]\n\t"
        "adcxq %[lo], %[t1]\n\t"
        "adoxq %[lo], %[t1]\n\t"
        "movq %[t5], 40(%[w])\n\t"
        "movq %[t6], 48(%[w])\n\t"
        "movq 24(%[a]), %%rdx\n\t"
        "mulxq 32(%[a]), %[lo], %[hi]\n\t"
        "adoxq %[lo], %[t0]\n\t"
        "adcxq %[hi], %[t1]\n\t"
        "mulxq 40(%[a]), %[lo], %[t2]\n\t"
        "adoxq %[lo], %[t1]\n\t"
        "movl $0, %k[lo]\n\t"
        "adcxq %[lo], %[t2]\n\t"
        "adoxq %[lo], %[t2]\n\t"
        "movq %[t0], 56(%[w])\n\t"
        "movq %[t1], 64(%[w])\n\t"
        "movq 32(%[a]), %%rdx\n\t"
        "mulxq 40(%[a]), %[lo], %[t3]\n\t"
        "adoxq %[lo], %[t2]\n\t"
        "movl $0, %k[lo]\n\t"
        "adcxq %[lo], %[t3]\n\t"
        "adoxq %[lo], %[t3]\n\t"
        "movq %[t2], 72(%[w])\n\t"
        "movq %[t3], 80(%[w])\n\t"
        // doubled (adcx x, x) plus the squares a_i^2 (adox): the full square in words 0 .. 11
        "xorl %k[lo], %k[lo]\n\t"
        "movq 0(%[a]), %%rdx\n\t"
        "mulxq %%rdx, %[t0], %[hi]\n\t"
        "movq 8(%[w]), %[t1]\n\t"
        "adcxq %[t1], %[t1]\n\t"
        "adoxq %[hi], %[t1]\n\t"
        "movq 8(%[a]), %%rdx\n\t"
        "mulxq %%rdx, %[lo], %[hi]\n\t"
        "movq 16(%[w]), %[t2]\n\t"
        "adcxq %[t2], %[t2]\n\t"
        "adoxq %[lo], %[t2]\n\t"
        "movq 24(%[w]), %[t3]\n\t"
        "adcxq %[t3], %[t3]\n\t"
        "adoxq %[hi], %[t3]\n\t"
        "movq 16(%[a]), %%rdx\n\t"
        "mulxq %%rdx, %[lo], %[hi]\n\t"
        "movq 32(%[w]), %[t4]\n\t"
        "adcxq %[t4], %[t4]\n\t"
        "adoxq %[lo], %[t4]\n\t"
        "movq 40(%[w]), %[t5]\n\t"
        "adcxq %[t5], %[t5]\n\t"
        "adoxq %[hi], %[t5]\n\t"
        "movq 24(%[a]), %%rdx\n\t"
        "mulxq %%rdx, %[lo], %[hi]\n\t"
        "movq 48(%[w]), %[t6]\n\t"
        "adcxq %[t6], %[t6]\n\t"
        "adoxq %[lo], %[t6]\n\t"
        "movq %[t6], 48(%[w])\n\t"
        "movq 56(%[w]), %[t6]\n\t"
        "adcxq %[t6], %[t6]\n\t"
        "adoxq %[hi], %[t6]\n\t"
        "movq %[t6], 56(%[w])\n\t"
        "movq 32(%[a]), %%rdx\n\t"
        "mulxq %%rdx, %[lo], %[hi]\n\t"
        "movq 64(%[w]), %[t6]\n\t"
        "adcxq %[t6], %[t6]\n\t"
        "adoxq %[lo], %[t6]\n\t"
        "movq %[t6], 64(%[w])\n\t"
        "movq 72(%[w]), %[t6]\n\t"
        "adcxq %[t6], %[t6]\n\t"
        "adoxq %[hi], %[t6]\n\t"
        "movq %[t6], 72(%[w])\n\t"
        "movq 40(%[a]), %%rdx\n\t"
        "mulxq %%rdx, %[lo], %[hi]\n\t"
        "movq 80(%[w]), %[t6]\n\t"
        "adcxq %[t6], %[t6]\n\t"
        "adoxq %[lo], %[t6]\n\t"
        "movq %[t6], 80(%[w])\n\t"
        "movl $0, %k[t6]\n\t"
        "adcxq %[t6], %[t6]\n\t"
        "adoxq %[hi], %[t6]\n\t"
        "movq %[t6], 88(%[w])\n\t"
        CUZK_ADX6_REDUCE_WIDE
        : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5),
          [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), "=m"(w)
        : [a] "r"(a.limb), [p] "r"(p.limb), [w] "r"(w), [inv] "m"(inv), "m"(a.limb), "m"(p.limb)
        : "rdx", "cc");
    const uint64_t r[6] = {t6, t0, t1, t2, t3, t4};
    reduce_once(out, r, p);
}

/// out = a + b mod p for p < 2^(64N-1) (no carry out of a + b): one adc chain, one sbb chain,
/// a branch-free select. Intrinsics, so the compiler keeps the carries in the flags.
template <size_t N>
[[gnu::always_inline]] inline void mod_add_x86(bigint<N>& out, const bigint<N>& a, const bigint<N>& b,
                                               const bigint<N>& p) {
    unsigned long long s[N], d[N];
    unsigned char c = 0;
    for (size_t i = 0; i < N; ++i) c = _addcarry_u64(c, a.limb[i], b.limb[i], &s[i]);
    c = 0;
    for (size_t i = 0; i < N; ++i) c = _subborrow_u64(c, s[i], p.limb[i], &d[i]);
    const uint64_t keep_sum = 0 - uint64_t(c);  // a + b < p: keep the sum
    for (size_t i = 0; i < N; ++i) out.limb[i] = (s[i] & keep_sum) | (d[i] & ~keep_sum);
}

/// out = a - b mod p: one sbb chain, then p added back under the borrow's mask.
template <size_t N>
[[gnu::always_inline]] inline void mod_sub_x86(bigint<N>& out, const bigint<N>& a, const bigint<N>& b,
                                               const bigint<N>& p) {
    unsigned long long d[N];
    unsigned char c = 0;
    for (size_t i = 0; i < N; ++i) c = _subborrow_u64(c, a.limb[i], b.limb[i], &d[i]);
    const uint64_t mask = 0 - uint64_t(c);
    c = 0;
    for (size_t i = 0; i < N; ++i) {
        unsigned long long r;
        c = _addcarry_u64(c, d[i], p.limb[i] & mask, &r);
        out.limb[i] = r;
    }
}

/// mod_add_x86 for 4 limbs in asm: GCC splits the intrinsics' carry chains with setb and add
/// between the loads (about twice the instructions, and the call was not inlined in the MSM's
/// batch-affine loop). a + b in one adc chain, minus p in one sbb chain, and the sum kept by cmovc
/// under the borrow (a move on a flag, not a branch: constant time).
[[gnu::always_inline]] inline void mod_add_x86(bigint<4>& out, const bigint<4>& a, const bigint<4>& b,
                                               const bigint<4>& p) {
    uint64_t s0 = a.limb[0], s1 = a.limb[1], s2 = a.limb[2], s3 = a.limb[3], d0, d1, d2, d3;
    asm("addq %[b0], %[s0]\n\t"
        "adcq %[b1], %[s1]\n\t"
        "adcq %[b2], %[s2]\n\t"
        "adcq %[b3], %[s3]\n\t"
        "movq %[s0], %[d0]\n\t"
        "movq %[s1], %[d1]\n\t"
        "movq %[s2], %[d2]\n\t"
        "movq %[s3], %[d3]\n\t"
        "subq %[p0], %[d0]\n\t"
        "sbbq %[p1], %[d1]\n\t"
        "sbbq %[p2], %[d2]\n\t"
        "sbbq %[p3], %[d3]\n\t"
        "cmovcq %[s0], %[d0]\n\t"
        "cmovcq %[s1], %[d1]\n\t"
        "cmovcq %[s2], %[d2]\n\t"
        "cmovcq %[s3], %[d3]"
        : [s0] "+&r"(s0), [s1] "+&r"(s1), [s2] "+&r"(s2), [s3] "+&r"(s3), [d0] "=&r"(d0), [d1] "=&r"(d1),
          [d2] "=&r"(d2), [d3] "=&r"(d3)
        : [b0] "m"(b.limb[0]), [b1] "m"(b.limb[1]), [b2] "m"(b.limb[2]), [b3] "m"(b.limb[3]), [p0] "m"(p.limb[0]),
          [p1] "m"(p.limb[1]), [p2] "m"(p.limb[2]), [p3] "m"(p.limb[3])
        : "cc");
    out = bigint<4>{{d0, d1, d2, d3}};
}

/// mod_sub_x86 for 4 limbs in asm (as mod_add_x86 above): a - b in one sbb chain, the borrow
/// spread into a mask, p masked and added back in one adc chain.
[[gnu::always_inline]] inline void mod_sub_x86(bigint<4>& out, const bigint<4>& a, const bigint<4>& b,
                                               const bigint<4>& p) {
    uint64_t d0 = a.limb[0], d1 = a.limb[1], d2 = a.limb[2], d3 = a.limb[3];
    uint64_t q0 = p.limb[0], q1 = p.limb[1], q2 = p.limb[2], q3 = p.limb[3], mask;
    asm("subq %[b0], %[d0]\n\t"
        "sbbq %[b1], %[d1]\n\t"
        "sbbq %[b2], %[d2]\n\t"
        "sbbq %[b3], %[d3]\n\t"
        "sbbq %[m], %[m]\n\t"
        "andq %[m], %[q0]\n\t"
        "andq %[m], %[q1]\n\t"
        "andq %[m], %[q2]\n\t"
        "andq %[m], %[q3]\n\t"
        "addq %[q0], %[d0]\n\t"
        "adcq %[q1], %[d1]\n\t"
        "adcq %[q2], %[d2]\n\t"
        "adcq %[q3], %[d3]"
        : [d0] "+&r"(d0), [d1] "+&r"(d1), [d2] "+&r"(d2), [d3] "+&r"(d3), [q0] "+&r"(q0), [q1] "+&r"(q1),
          [q2] "+&r"(q2), [q3] "+&r"(q3), [m] "=&r"(mask)
        : [b0] "m"(b.limb[0]), [b1] "m"(b.limb[1]), [b2] "m"(b.limb[2]), [b3] "m"(b.limb[3])
        : "cc");
    out = bigint<4>{{d0, d1, d2, d3}};
}

}  // namespace cuzk::host_arith::x86

#else
#define CUZK_HOST_ADX 0
#endif
