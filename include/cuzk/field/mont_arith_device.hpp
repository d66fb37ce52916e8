// SPDX-License-Identifier: MIT OR Apache-2.0
// Montgomery arithmetic on 32-bit limbs with PTX carry chains: the device leaf primitives.
//
// Values are the same bytes as on the host (bigint<N>, 64-bit little-endian limbs); here
// they are viewed as n = 2N 32-bit words. Every function takes and returns fully reduced
// values. The modulus comes from __constant__ memory (`modulus<Config>`), which IMAD reads
// as an operand directly.
//
// Speed notes (numbers in docs/log/2026-12.md, "## Fields"). A field multiply is bound by
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
//
// Carry chains. A chain runs from the instruction that first writes the carry flag (CC) to
// the last one that reads it. The compiler does not model CC, so nothing keeps it intact
// between two asm statements; with device optimisation off, results on an H200 were wrong
// while chains spanned several statements. The rule here: every chain lies inside one asm
// statement, so no carry flag is ever live across two asm statements (docs/COMPILER_NOTES.md).
// The chains hold the same instructions in the same order as when each instruction was its
// own statement; at -O3 each operation here, compiled on its own, gives the same SASS as then.
#pragma once

#include "cuzk/core/bigint.hpp"

#if defined(__CUDACC__)

namespace cuzk::device_arith {

/// Modulus limbs of a field config, mirrored to constant memory (the one place they live there).
template <class Config>
__constant__ bigint<Config::limbs> modulus = Config::modulus;

// ---- carry chains, one asm statement each ----------------------------------------------------
// nvcc numbers inline-asm operands (%0, %1, ...) and has no named operands, and an asm string
// must be a literal, so the preprocessor spells each chain from lists of literal operand
// numbers ("slots"). Every asm statement below binds its operands to the same slots:
//   %0..%23   words updated in place ("+r"), in one of two layouts; the slots a chain leaves
//             unused are bound to scratch outputs (`pad`), so that the inputs' numbers are fixed
//   %24       one more word: in place, an output (a carry, a borrow mask), or scratch
//   %25       an input word a (a multiplier, a sign mask), or an unused immediate
//   %26..%49  the input words x
// Word layout, up to 24 words w: entry k covers w[2k], w[2k+1] and x[2k], x[2k+1] (or x[k]).
// Split layout, the two halves ev and od (up to 12 words each) of the split accumulator
// (see redc_row): entry k covers ev[2k], ev[2k+1], od[2k], od[2k+1] and x[2k], x[2k+1].
// The statements are `asm volatile` although each is a function of its operands: the compiler
// then keeps them in program order and never drops one or moves it into a branch, so field
// operations stay unconditional where the caller wrote them so (constant-time code).

// CUZK_WORDS_K(F0, F): F0 on entry 0, F on entries 1..K-1, each entry given as
// (k, slot of w[2k], of w[2k+1], of x[2k], of x[2k+1], of x[k]).
// clang-format off
#define CUZK_WORDS_1(F0, F) F0(0, 0, 1, 26, 27, 26)
#define CUZK_WORDS_2(F0, F) CUZK_WORDS_1(F0, F) F(1, 2, 3, 28, 29, 27)
#define CUZK_WORDS_3(F0, F) CUZK_WORDS_2(F0, F) F(2, 4, 5, 30, 31, 28)
#define CUZK_WORDS_4(F0, F) CUZK_WORDS_3(F0, F) F(3, 6, 7, 32, 33, 29)
#define CUZK_WORDS_5(F0, F) CUZK_WORDS_4(F0, F) F(4, 8, 9, 34, 35, 30)
#define CUZK_WORDS_6(F0, F) CUZK_WORDS_5(F0, F) F(5, 10, 11, 36, 37, 31)
#define CUZK_WORDS_7(F0, F) CUZK_WORDS_6(F0, F) F(6, 12, 13, 38, 39, 32)
#define CUZK_WORDS_8(F0, F) CUZK_WORDS_7(F0, F) F(7, 14, 15, 40, 41, 33)
#define CUZK_WORDS_9(F0, F) CUZK_WORDS_8(F0, F) F(8, 16, 17, 42, 43, 34)
#define CUZK_WORDS_10(F0, F) CUZK_WORDS_9(F0, F) F(9, 18, 19, 44, 45, 35)
#define CUZK_WORDS_11(F0, F) CUZK_WORDS_10(F0, F) F(10, 20, 21, 46, 47, 36)
#define CUZK_WORDS_12(F0, F) CUZK_WORDS_11(F0, F) F(11, 22, 23, 48, 49, 37)

// CUZK_SPLIT_K(F0, F, FL): F0 on entry 0, F on entries 1..K-2, FL on entry K-1 (K >= 2), each
// entry given as (k, slot of ev[2k], ev[2k+1], od[2k], od[2k+1], ev[2k+2], ev[2k+3], x[2k], x[2k+1]);
// ev[2k+2], ev[2k+3] are past the end for the last entry, so FL does not use them.
#define CUZK_SPLIT_1(F0, F, FL) F0(0, 0, 1, 2, 3, 4, 5, 26, 27)
#define CUZK_SPLIT_2(F0, F, FL) CUZK_SPLIT_1(F0, F, F) FL(1, 4, 5, 6, 7, 8, 9, 28, 29)
#define CUZK_SPLIT_3(F0, F, FL) CUZK_SPLIT_2(F0, F, F) FL(2, 8, 9, 10, 11, 12, 13, 30, 31)
#define CUZK_SPLIT_4(F0, F, FL) CUZK_SPLIT_3(F0, F, F) FL(3, 12, 13, 14, 15, 16, 17, 32, 33)
#define CUZK_SPLIT_5(F0, F, FL) CUZK_SPLIT_4(F0, F, F) FL(4, 16, 17, 18, 19, 20, 21, 34, 35)
#define CUZK_SPLIT_6(F0, F, FL) CUZK_SPLIT_5(F0, F, F) FL(5, 20, 21, 22, 23, 24, 25, 36, 37)

// CUZK_PADS_k: scratch outputs for slots 2k..23.
#define CUZK_PADS_12
#define CUZK_PADS_11 "=r"(pad[22]), "=r"(pad[23]), CUZK_PADS_12
#define CUZK_PADS_10 "=r"(pad[20]), "=r"(pad[21]), CUZK_PADS_11
#define CUZK_PADS_9 "=r"(pad[18]), "=r"(pad[19]), CUZK_PADS_10
#define CUZK_PADS_8 "=r"(pad[16]), "=r"(pad[17]), CUZK_PADS_9
#define CUZK_PADS_7 "=r"(pad[14]), "=r"(pad[15]), CUZK_PADS_8
#define CUZK_PADS_6 "=r"(pad[12]), "=r"(pad[13]), CUZK_PADS_7
#define CUZK_PADS_5 "=r"(pad[10]), "=r"(pad[11]), CUZK_PADS_6
#define CUZK_PADS_4 "=r"(pad[8]), "=r"(pad[9]), CUZK_PADS_5
#define CUZK_PADS_3 "=r"(pad[6]), "=r"(pad[7]), CUZK_PADS_4
#define CUZK_PADS_2 "=r"(pad[4]), "=r"(pad[5]), CUZK_PADS_3
#define CUZK_PADS_1 "=r"(pad[2]), "=r"(pad[3]), CUZK_PADS_2

// Template argument K (entries) to the literal the lists are named by.
#define CUZK_FOR_K(M)                                                                                           \
    if constexpr (K == 1) { M(1) } else if constexpr (K == 2) { M(2) } else if constexpr (K == 3) { M(3) }      \
    else if constexpr (K == 4) { M(4) } else if constexpr (K == 5) { M(5) } else if constexpr (K == 6) { M(6) } \
    else if constexpr (K == 7) { M(7) } else if constexpr (K == 8) { M(8) } else if constexpr (K == 9) { M(9) } \
    else if constexpr (K == 10) { M(10) } else if constexpr (K == 11) { M(11) } else if constexpr (K == 12) { M(12) }
#define CUZK_FOR_K_SPLIT(M) /* M(K, 2K): the split layout fills slots 0..4K-1 */                                    \
    if constexpr (K == 2) { M(2, 4) } else if constexpr (K == 3) { M(3, 6) } else if constexpr (K == 4) { M(4, 8) } \
    else if constexpr (K == 5) { M(5, 10) } else if constexpr (K == 6) { M(6, 12) }

// One instruction on slots: d = op(a, b) or op(a, b, c); the _Z forms take 0 for the last source;
// XOR_A: d = b ^ a (the input word in slot 25). Pairs, in place: ADD2: d0 op0= b0, d1 op1= b1;
// MAD2: d0 += lo(a * b) (op lo), d1 += hi(a * b) (op hi).
#define CUZK_I3(op, d, a, b) op " %" #d ", %" #a ", %" #b ";\n\t"
#define CUZK_I4(op, d, a, b, c) op " %" #d ", %" #a ", %" #b ", %" #c ";\n\t"
#define CUZK_I3_Z(op, d) op " %" #d ", %" #d ", 0;\n\t"
#define CUZK_I4_Z(op, d, a, b) op " %" #d ", %" #a ", %" #b ", 0;\n\t"
#define CUZK_XOR_A(d, b) "xor.b32 %" #d ", %" #b ", %25;\n\t"
#define CUZK_ADD2(op0, op1, d0, d1, b0, b1) CUZK_I3(op0, d0, d0, b0) CUZK_I3(op1, d1, d1, b1)
#define CUZK_MAD2(lo, hi, d0, d1, a, b) CUZK_I4(lo, d0, a, b, d0) CUZK_I4(hi, d1, a, b, d1)

// Operand bindings: words in place, then inputs.
#define CUZK_BIND_W(k, ...) "+r"(w[2 * k]), "+r"(w[2 * k + 1]),
#define CUZK_BIND_S(k, ...) "+r"(ev[2 * k]), "+r"(ev[2 * k + 1]), "+r"(od[2 * k]), "+r"(od[2 * k + 1]),
#define CUZK_IN_PAIR(k, ...) , "r"(x[2 * k]), "r"(x[2 * k + 1])
#define CUZK_IN_EVEN(k, ...) , "r"(x[2 * k])
#define CUZK_IN_EACH(k, ...) , "r"(x[k])

// Word-layout chain steps; entry (k, w0, w1, x0, x1, xk) = slots of (w[2k], w[2k+1], x[2k],
// x[2k+1], x[k]). add_n: w += x; sub_n: w -= x; addmul_row: w += a * x[k] (x bound with stride 2);
// add_squares: w += x[k]^2.
#define CUZK_ADD_FIRST(k, w0, w1, x0, x1, xk) CUZK_ADD2("add.cc.u32", "addc.cc.u32", w0, w1, x0, x1)
#define CUZK_ADD_NEXT(k, w0, w1, x0, x1, xk) CUZK_ADD2("addc.cc.u32", "addc.cc.u32", w0, w1, x0, x1)
#define CUZK_SUB_FIRST(k, w0, w1, x0, x1, xk) CUZK_ADD2("sub.cc.u32", "subc.cc.u32", w0, w1, x0, x1)
#define CUZK_SUB_NEXT(k, w0, w1, x0, x1, xk) CUZK_ADD2("subc.cc.u32", "subc.cc.u32", w0, w1, x0, x1)
#define CUZK_MUL_FIRST(k, w0, w1, x0, x1, xk) CUZK_MAD2("mad.lo.cc.u32", "madc.hi.cc.u32", w0, w1, 25, xk)
#define CUZK_MUL_NEXT(k, w0, w1, x0, x1, xk) CUZK_MAD2("madc.lo.cc.u32", "madc.hi.cc.u32", w0, w1, 25, xk)
#define CUZK_SQR_FIRST(k, w0, w1, x0, x1, xk) CUZK_MAD2("mad.lo.cc.u32", "madc.hi.cc.u32", w0, w1, xk, xk)
#define CUZK_SQR_NEXT(k, w0, w1, x0, x1, xk) CUZK_MAD2("madc.lo.cc.u32", "madc.hi.cc.u32", w0, w1, xk, xk)
// negate_n: w = (w ^ a) + (a & 1); add_signed_n: w += (x ^ a) + carry, x ^ a in the scratch
// register t<slot of x>. The xors sit inside the chains, where the PTX has always had them.
#define CUZK_NEG_FIRST(k, w0, w1, x0, x1, xk)                                        \
    CUZK_XOR_A(w0, w0) "and.b32 t, %25, 1;\n\tadd.cc.u32 %" #w0 ", %" #w0 ", t;\n\t" \
    CUZK_XOR_A(w1, w1) CUZK_I3_Z("addc.cc.u32", w1)
#define CUZK_NEG_NEXT(k, w0, w1, x0, x1, xk) \
    CUZK_XOR_A(w0, w0) CUZK_I3_Z("addc.cc.u32", w0) CUZK_XOR_A(w1, w1) CUZK_I3_Z("addc.cc.u32", w1)
#define CUZK_ADDX_NEXT(k, w0, w1, x0, x1, xk)                                           \
    "xor.b32 t" #x0 ", %" #x0 ", %25;\n\taddc.cc.u32 %" #w0 ", %" #w0 ", t" #x0 ";\n\t" \
    "xor.b32 t" #x1 ", %" #x1 ", %25;\n\taddc.cc.u32 %" #w1 ", %" #w1 ", t" #x1 ";\n\t"

// Split-layout chain steps; entry (k, e0, e1, o0, o1, e2, e3, x0, x1) = slots of (ev[2k],
// ev[2k+1], od[2k], od[2k+1], ev[2k+2], ev[2k+3], x[2k], x[2k+1]).
// redc_row: ev += a * x_even, carry into od's top word (RE_), then od += a * x_odd (RO_).
#define CUZK_RE_FIRST(k, e0, e1, o0, o1, e2, e3, x0, x1) CUZK_MAD2("mad.lo.cc.u32", "madc.hi.cc.u32", e0, e1, 25, x0)
#define CUZK_RE_NEXT(k, e0, e1, o0, o1, e2, e3, x0, x1) CUZK_MAD2("madc.lo.cc.u32", "madc.hi.cc.u32", e0, e1, 25, x0)
#define CUZK_RE_LAST(k, e0, e1, o0, o1, e2, e3, x0, x1) \
    CUZK_MAD2("madc.lo.cc.u32", "madc.hi.cc.u32", e0, e1, 25, x0) CUZK_I3_Z("addc.u32", o1)
#define CUZK_RO_FIRST(k, e0, e1, o0, o1, e2, e3, x0, x1) CUZK_MAD2("mad.lo.cc.u32", "madc.hi.cc.u32", o0, o1, 25, x1)
#define CUZK_RO_NEXT(k, e0, e1, o0, o1, e2, e3, x0, x1) CUZK_MAD2("madc.lo.cc.u32", "madc.hi.cc.u32", o0, o1, 25, x1)
#define CUZK_RO_LAST(k, e0, e1, o0, o1, e2, e3, x0, x1) CUZK_MAD2("madc.lo.cc.u32", "madc.hi.u32", o0, o1, 25, x1)
// shift_mad_row, bi in slot 24: ev = (ev >> 64) + x_odd * bi + carry, open at the top (SH1_),
// then od += x_even * bi, carry into ev's top word (SH2_).
#define CUZK_SH1_NEXT(k, e0, e1, o0, o1, e2, e3, x0, x1) \
    CUZK_I4("madc.lo.cc.u32", e0, x1, 24, e2) CUZK_I4("madc.hi.cc.u32", e1, x1, 24, e3)
#define CUZK_SH1_LAST(k, e0, e1, o0, o1, e2, e3, x0, x1) \
    CUZK_I4_Z("madc.lo.cc.u32", e0, x1, 24) CUZK_I4_Z("madc.hi.u32", e1, x1, 24)
#define CUZK_SH2_FIRST(k, e0, e1, o0, o1, e2, e3, x0, x1) CUZK_MAD2("mad.lo.cc.u32", "madc.hi.cc.u32", o0, o1, x0, 24)
#define CUZK_SH2_NEXT(k, e0, e1, o0, o1, e2, e3, x0, x1) CUZK_MAD2("madc.lo.cc.u32", "madc.hi.cc.u32", o0, o1, x0, 24)
#define CUZK_SH2_LAST(k, e0, e1, o0, o1, e2, e3, x0, x1) \
    CUZK_MAD2("madc.lo.cc.u32", "madc.hi.cc.u32", o0, o1, x0, 24) CUZK_I3_Z("addc.u32", e1)
// merge: od += ev >> 32, open at the top.
#define CUZK_MG_FIRST(k, e0, e1, o0, o1, e2, e3, x0, x1) CUZK_ADD2("add.cc.u32", "addc.cc.u32", o0, o1, e1, e2)
#define CUZK_MG_NEXT(k, e0, e1, o0, o1, e2, e3, x0, x1) CUZK_ADD2("addc.cc.u32", "addc.cc.u32", o0, o1, e1, e2)
#define CUZK_MG_LAST(k, e0, e1, o0, o1, e2, e3, x0, x1) CUZK_I3("addc.cc.u32", o0, o0, e1) CUZK_I3_Z("addc.u32", o1)

// The lists above, checked against the slot convention.
#define CUZK_CHECK_W(k, w0, w1, x0, x1, xk) \
    static_assert(w0 == 2 * k && w1 == w0 + 1 && x0 == 26 + 2 * k && x1 == x0 + 1 && xk == 26 + k);
#define CUZK_CHECK_S(k, e0, e1, o0, o1, e2, e3, x0, x1)                                          \
    static_assert(e0 == 4 * k && e1 == e0 + 1 && o0 == e0 + 2 && o1 == e0 + 3 && e2 == e0 + 4 && \
                  e3 == e0 + 5 && x0 == 26 + 2 * k && x1 == x0 + 1);
CUZK_WORDS_12(CUZK_CHECK_W, CUZK_CHECK_W)
CUZK_SPLIT_6(CUZK_CHECK_S, CUZK_CHECK_S, CUZK_CHECK_S)
// clang-format on

/// Word-layout carry chains (2K words), each one asm statement.
namespace chain {
// clang-format off

/// w[0..2K) += x[0..2K); returns the carry out (0 or 1).
template <size_t K>
__device__ __forceinline__ uint32_t add_n(uint32_t* w, const uint32_t* x) {
    static_assert(K >= 1 && K <= 12, "a chain holds at most 24 words");
    uint32_t carry;
    [[maybe_unused]] uint32_t pad[24];
#define CUZK_ASM(K_)                                                                    \
    asm volatile(CUZK_WORDS_##K_(CUZK_ADD_FIRST, CUZK_ADD_NEXT) "addc.u32 %24, 0, 0;"   \
                 : CUZK_WORDS_##K_(CUZK_BIND_W, CUZK_BIND_W) CUZK_PADS_##K_ "=r"(carry) \
                 : "n"(0) CUZK_WORDS_##K_(CUZK_IN_PAIR, CUZK_IN_PAIR));
    CUZK_FOR_K(CUZK_ASM)
#undef CUZK_ASM
    return carry;
}

/// w[0..2K) -= x[0..2K); returns the borrow as a mask (all ones on borrow, else 0).
template <size_t K>
__device__ __forceinline__ uint32_t sub_n(uint32_t* w, const uint32_t* x) {
    static_assert(K >= 1 && K <= 12, "a chain holds at most 24 words");
    uint32_t borrow;
    [[maybe_unused]] uint32_t pad[24];
#define CUZK_ASM(K_)                                                                     \
    asm volatile(CUZK_WORDS_##K_(CUZK_SUB_FIRST, CUZK_SUB_NEXT) "subc.u32 %24, 0, 0;"    \
                 : CUZK_WORDS_##K_(CUZK_BIND_W, CUZK_BIND_W) CUZK_PADS_##K_ "=r"(borrow) \
                 : "n"(0) CUZK_WORDS_##K_(CUZK_IN_PAIR, CUZK_IN_PAIR));
    CUZK_FOR_K(CUZK_ASM)
#undef CUZK_ASM
    return borrow;
}

/// (w[0..2K), top) += (x[0..2K), 0) when neg = 0, -= it when neg is all ones (two's
/// complement: (w, top) += (x ^ neg, neg) + 1).
template <size_t K>
__device__ __forceinline__ void add_signed_n(uint32_t* w, uint32_t& top, const uint32_t* x, uint32_t neg) {
    static_assert(K >= 1 && K <= 12, "a chain holds at most 24 words");
    [[maybe_unused]] uint32_t pad[24];
    // neg + neg carries exactly when neg is all ones: that carry is the +1 of the negation.
#define CUZK_ASM(K_)                                                                            \
    asm volatile("{\n\t.reg .u32 t, t<50>;\n\tadd.cc.u32 t, %25, %25;\n\t"                      \
                 CUZK_WORDS_##K_(CUZK_ADDX_NEXT, CUZK_ADDX_NEXT) "addc.u32 %24, %24, %25;\n\t}" \
                 : CUZK_WORDS_##K_(CUZK_BIND_W, CUZK_BIND_W) CUZK_PADS_##K_ "+r"(top)           \
                 : "r"(neg) CUZK_WORDS_##K_(CUZK_IN_PAIR, CUZK_IN_PAIR));
    CUZK_FOR_K(CUZK_ASM)
#undef CUZK_ASM
}

/// w[0..2K) = -w[0..2K) mod 2^(64K) when neg is all ones, unchanged when neg = 0.
template <size_t K>
__device__ __forceinline__ void negate_n(uint32_t* w, uint32_t neg) {
    static_assert(K >= 1 && K <= 12, "a chain holds at most 24 words");
    [[maybe_unused]] uint32_t pad[25];
#define CUZK_ASM(K_)                                                                        \
    asm volatile("{\n\t.reg .u32 t;\n\t" CUZK_WORDS_##K_(CUZK_NEG_FIRST, CUZK_NEG_NEXT) "}" \
                 : CUZK_WORDS_##K_(CUZK_BIND_W, CUZK_BIND_W) CUZK_PADS_##K_ "=r"(pad[24])   \
                 : "r"(neg));
    CUZK_FOR_K(CUZK_ASM)
#undef CUZK_ASM
}

/// (w[0..2K), top) += a * (x[0] + x[2] 2^64 + ... + x[2K-2] 2^(64(K-1))): K products of a with
/// every other word of x, landing on consecutive words of w, the carry going into top.
template <size_t K>
__device__ __forceinline__ void addmul_row(uint32_t* w, uint32_t& top, uint32_t a, const uint32_t* x) {
    static_assert(K >= 1 && K <= 12, "a chain holds at most 24 words");
    [[maybe_unused]] uint32_t pad[24];
#define CUZK_ASM(K_)                                                                    \
    asm volatile(CUZK_WORDS_##K_(CUZK_MUL_FIRST, CUZK_MUL_NEXT) "addc.u32 %24, %24, 0;" \
                 : CUZK_WORDS_##K_(CUZK_BIND_W, CUZK_BIND_W) CUZK_PADS_##K_ "+r"(top)   \
                 : "r"(a) CUZK_WORDS_##K_(CUZK_IN_EVEN, CUZK_IN_EVEN));
    CUZK_FOR_K(CUZK_ASM)
#undef CUZK_ASM
}

/// w[0..2K) += x[0]^2 + x[1]^2 2^64 + ... + x[K-1]^2 2^(64(K-1)); returns the carry out.
template <size_t K>
__device__ __forceinline__ uint32_t add_squares(uint32_t* w, const uint32_t* x) {
    static_assert(K >= 1 && K <= 12, "a chain holds at most 24 words");
    uint32_t carry;
    [[maybe_unused]] uint32_t pad[24];
#define CUZK_ASM(K_)                                                                    \
    asm volatile(CUZK_WORDS_##K_(CUZK_SQR_FIRST, CUZK_SQR_NEXT) "addc.u32 %24, 0, 0;"   \
                 : CUZK_WORDS_##K_(CUZK_BIND_W, CUZK_BIND_W) CUZK_PADS_##K_ "=r"(carry) \
                 : "n"(0) CUZK_WORDS_##K_(CUZK_IN_EACH, CUZK_IN_EACH));
    CUZK_FOR_K(CUZK_ASM)
#undef CUZK_ASM
    return carry;
}

// clang-format on
}  // namespace chain

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
    uint32_t d[n];
#pragma unroll
    for (size_t i = 0; i < n; ++i) d[i] = r[i];
    // The spare top bit means r < 2p < 2^(32n): no carry word. borrow is all ones when r < p.
    const uint32_t borrow = chain::sub_n<n / 2>(d, modulus32<Config>());
#pragma unroll
    for (size_t i = 0; i < n; ++i) r[i] = borrow ? r[i] : d[i];
}

/// out = a + b mod p.
template <class Config>
__device__ __forceinline__ void mod_add(bigint<Config::limbs>& out, const bigint<Config::limbs>& a,
                                        const bigint<Config::limbs>& b) {
    constexpr size_t n = 2 * Config::limbs;
    auto r = split(a);
    const auto y = split(b);
    (void)chain::add_n<n / 2>(r.w, y.w);  // a + b < 2p < 2^(32n) never carries out
    reduce_once<Config>(r.w);
    out = join<Config::limbs>(r.w);
}

/// out = a - b mod p.
template <class Config>
__device__ __forceinline__ void mod_sub(bigint<Config::limbs>& out, const bigint<Config::limbs>& a,
                                        const bigint<Config::limbs>& b) {
    constexpr size_t n = 2 * Config::limbs;
    const uint32_t* p = modulus32<Config>();
    auto r = split(a);
    const auto y = split(b);
    const uint32_t mask = chain::sub_n<n / 2>(r.w, y.w);  // all ones on borrow: add p back
    uint32_t q[n];
#pragma unroll
    for (size_t i = 0; i < n; ++i) q[i] = p[i] & mask;
    (void)chain::add_n<n / 2>(r.w, q);
    out = join<Config::limbs>(r.w);
}

namespace detail {

/// Montgomery factor -p^-1 mod 2^32 as a value ptxas cannot see through. A literal lets
/// ptxas rewrite m = t * inv (for BLS12-381 Fr, inv = -1, m = -t), which, as measured, stops
/// it from fusing the following mad.lo/madc.hi pairs into IMAD.WIDE (15% slower there).
template <class Config>
__constant__ uint32_t mont_inv32 = uint32_t(Config::mont_inv64);

// clang-format off
/// One Montgomery reduction row on the split accumulator T = ev + 2^32 * od (words of od
/// sit one word higher than their index): m = ev[0] * inv, T += m * p, so ev[0] becomes 0.
/// Carries out of ev's top word go into od's top word (same weight); od never carries out,
/// because the running total stays below 2^(32(n+1)) and 2^32 * od is part of it.
/// Two chains (ev's, then od's) in one asm statement.
template <size_t n>
__device__ __forceinline__ void redc_row(uint32_t (&ev)[n], uint32_t (&od)[n], const uint32_t* p, uint32_t inv) {
    constexpr size_t K = n / 2;
    static_assert(n % 2 == 0 && K >= 2 && K <= 6, "the split layout holds 4 to 12 words per half");
    const uint32_t m = ev[0] * inv;
    const uint32_t* x = p;
    [[maybe_unused]] uint32_t pad[25];
#define CUZK_ASM(K_, K2_)                                                                               \
    asm volatile(CUZK_SPLIT_##K_(CUZK_RE_FIRST, CUZK_RE_NEXT, CUZK_RE_LAST)                             \
                     CUZK_SPLIT_##K_(CUZK_RO_FIRST, CUZK_RO_NEXT, CUZK_RO_LAST)                         \
                 : CUZK_SPLIT_##K_(CUZK_BIND_S, CUZK_BIND_S, CUZK_BIND_S) CUZK_PADS_##K2_ "=r"(pad[24]) \
                 : "r"(m) CUZK_SPLIT_##K_(CUZK_IN_PAIR, CUZK_IN_PAIR, CUZK_IN_PAIR));
    CUZK_FOR_K_SPLIT(CUZK_ASM)
#undef CUZK_ASM
}

/// Divides the split accumulator by 2^32 and swaps the roles of its halves, fused with
/// adding x * bi: on entry T = ev + 2^32 od, ev[0] already consumed (zero after a reduction,
/// or an output word of a plain product); on exit T/2^32 + x*bi is held as od (now the
/// aligned half) + 2^32 ev (now the shifted half). With Redc, bi is instead the Montgomery
/// factor m = (new low word) * inv and x = p, so od[0] ends at 0. Two chains, one asm statement.
template <bool Redc, size_t n>
__device__ __forceinline__ void shift_mad_row(uint32_t (&ev)[n], uint32_t (&od)[n], const uint32_t* x, uint32_t bi,
                                              uint32_t inv = 0) {
    constexpr size_t K = n / 2;
    static_assert(n % 2 == 0 && K >= 2 && K <= 6, "the split layout holds 4 to 12 words per half");
    [[maybe_unused]] uint32_t pad[25];
    // T/2^32 = od + (ev >> 32). ev[1] joins od[0] (%2 += %1); its carry (weight 2^32) enters the
    // shifted half's chain, whose words are ev[2..] moved two words down. With Redc, bi
    // (%24) = od[0] * inv is taken between the two, which does not touch the carry flag. Then
    // the even-indexed products go into the aligned half; its carry out has the weight of
    // ev's top word.
#define CUZK_SHIFT_ROW(PRE, K_)                                      \
    PRE CUZK_SPLIT_##K_(CUZK_SH1_NEXT, CUZK_SH1_NEXT, CUZK_SH1_LAST) \
        CUZK_SPLIT_##K_(CUZK_SH2_FIRST, CUZK_SH2_NEXT, CUZK_SH2_LAST)
    if constexpr (Redc) {
#define CUZK_ASM(K_, K2_)                                                                               \
    asm volatile(CUZK_SHIFT_ROW("add.cc.u32 %2, %2, %1;\n\tmul.lo.u32 %24, %2, %25;\n\t", K_)           \
                 : CUZK_SPLIT_##K_(CUZK_BIND_S, CUZK_BIND_S, CUZK_BIND_S) CUZK_PADS_##K2_ "=r"(pad[24]) \
                 : "r"(inv) CUZK_SPLIT_##K_(CUZK_IN_PAIR, CUZK_IN_PAIR, CUZK_IN_PAIR));
        CUZK_FOR_K_SPLIT(CUZK_ASM)
#undef CUZK_ASM
    } else {
#define CUZK_ASM(K_, K2_)                                                                          \
    asm volatile(CUZK_SHIFT_ROW("add.cc.u32 %2, %2, %1;\n\t", K_)                                  \
                 : CUZK_SPLIT_##K_(CUZK_BIND_S, CUZK_BIND_S, CUZK_BIND_S) CUZK_PADS_##K2_ "+r"(bi) \
                 : "n"(0) CUZK_SPLIT_##K_(CUZK_IN_PAIR, CUZK_IN_PAIR, CUZK_IN_PAIR));
        CUZK_FOR_K_SPLIT(CUZK_ASM)
#undef CUZK_ASM
    }
#undef CUZK_SHIFT_ROW
}

/// od += ev >> 32: od becomes the value left in the split accumulator after its last row.
template <size_t n>
__device__ __forceinline__ void merge(uint32_t (&ev)[n], uint32_t (&od)[n]) {
    constexpr size_t K = n / 2;
    static_assert(n % 2 == 0 && K >= 2 && K <= 6, "the split layout holds 4 to 12 words per half");
    [[maybe_unused]] uint32_t pad[25];
#define CUZK_ASM(K_, K2_)                                                   \
    asm volatile(CUZK_SPLIT_##K_(CUZK_MG_FIRST, CUZK_MG_NEXT, CUZK_MG_LAST) \
                 : CUZK_SPLIT_##K_(CUZK_BIND_S, CUZK_BIND_S, CUZK_BIND_S) CUZK_PADS_##K2_ "=r"(pad[24]));
    CUZK_FOR_K_SPLIT(CUZK_ASM)
#undef CUZK_ASM
}

// clang-format on

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
    merge(acc[(n - 1) % 2], acc[n % 2]);  // below 2p
#pragma unroll
    for (size_t j = 0; j < n; ++j) r[j] = acc[n % 2][j];
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
    merge(acc[(h - 1) % 2], acc[h % 2]);
#pragma unroll
    for (size_t j = 0; j < h; ++j) out[h + j] = acc[h % 2][j];
}

/// |x - y| of h-word numbers; returns all ones when x < y (the sign), else 0.
template <size_t h>
__device__ __forceinline__ uint32_t abs_diff(uint32_t (&d)[h], const uint32_t* x, const uint32_t* y) {
#pragma unroll
    for (size_t k = 0; k < h; ++k) d[k] = x[k];
    const uint32_t neg = chain::sub_n<h / 2>(d, y);
    chain::negate_n<h / 2>(d, neg);
    return neg;
}

/// Full product t[0..2n) = x * y by one level of (subtractive) Karatsuba over halves of
/// h = n/2 words: x0*y0, x1*y1 and |x0-x1|*|y1-y0| (3h^2 wide products instead of 4h^2),
/// middle = x0y0 + x1y1 +- |x0-x1||y1-y0| = x0y1 + x1y0.
template <size_t n>
__device__ __forceinline__ void mul_karatsuba(uint32_t (&t)[2 * n], const uint32_t (&x)[n], const uint32_t (&y)[n]) {
    constexpr size_t h = n / 2;
    static_assert(h % 2 == 0, "the halves are split accumulators too");
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
    uint32_t m[n];
#pragma unroll
    for (size_t k = 0; k < n; ++k) m[k] = lo[k];
    uint32_t c = chain::add_n<n / 2>(m, hi);
    chain::add_signed_n<n / 2>(m, c, mid, neg);  // c is m's word n now
    // t = lo + 2^(32h) m + 2^(32n) hi: one chain over t[h..2n) = (lo[h..n), hi) + (m, c, 0...)
    uint32_t u[3 * h], v[3 * h];
#pragma unroll
    for (size_t k = 0; k < h; ++k) {
        t[k] = lo[k];
        u[k] = lo[h + k];
    }
#pragma unroll
    for (size_t k = 0; k < n; ++k) {
        u[h + k] = hi[k];
        v[k] = m[k];
    }
    v[n] = c;
#pragma unroll
    for (size_t k = n + 1; k < 3 * h; ++k) v[k] = 0;
    (void)chain::add_n<3 * h / 2>(u, v);
#pragma unroll
    for (size_t k = 0; k < 3 * h; ++k) t[h + k] = u[k];
}

/// Row i of the off-diagonal sum (see sqr_wide), then the rows after it.
template <size_t n, size_t i = 0>
__device__ __forceinline__ void sqr_rows(uint32_t (&ev)[2 * n], uint32_t (&od)[2 * n], const uint32_t (&x)[n]) {
    if constexpr (i + 1 < n) {
        // products x_i * x_j with j = i+1, i+3, ... < n: lo on odd words from 2i+1
        constexpr size_t k_od = (n - i) / 2;
        chain::addmul_row<k_od>(od + 2 * i + 1, od[2 * i + 1 + 2 * k_od], x[i], x + i + 1);
        // products x_i * x_j with j = i+2, i+4, ... < n: lo on even words from 2i+2
        constexpr size_t k_ev = (n - i - 1) / 2;
        if constexpr (k_ev > 0) chain::addmul_row<k_ev>(ev + 2 * i + 2, ev[2 * i + 2 + 2 * k_ev], x[i], x + i + 2);
        sqr_rows<n, i + 1>(ev, od, x);
    }
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
    sqr_rows<n>(ev, od, x);
    // S = ev + od (below 2^(64n-1), so the top word stays clear), then t = 2S + diagonal.
    (void)chain::add_n<n - 1>(ev + 2, od + 2);
    t[0] = 0;
    t[1] = od[1];
#pragma unroll
    for (size_t k = 2; k < 2 * n; ++k) t[k] = ev[k];
#pragma unroll
    for (size_t k = 2 * n - 1; k > 0; --k) t[k] = __funnelshift_l(t[k - 1], t[k], 1);
    t[0] = 0;
    (void)chain::add_squares<n>(t, x);  // t < 2^(64n): no carry out
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
    merge(acc[(n - 1) % 2], acc[n % 2]);
#pragma unroll
    for (size_t j = 0; j < n; ++j) r[j] = acc[n % 2][j];
    (void)chain::add_n<n / 2>(r, t + n);
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

/// The strategy mont_mul uses for n 32-bit words, by measurement (docs/log/2026-12.md,
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

// The carry-chain macros are this header's own.
#undef CUZK_ADD2
#undef CUZK_ADDX_NEXT
#undef CUZK_ADD_FIRST
#undef CUZK_ADD_NEXT
#undef CUZK_BIND_S
#undef CUZK_BIND_W
#undef CUZK_CHECK_S
#undef CUZK_CHECK_W
#undef CUZK_FOR_K
#undef CUZK_FOR_K_SPLIT
#undef CUZK_I4
#undef CUZK_I3
#undef CUZK_I3_Z
#undef CUZK_I4_Z
#undef CUZK_IN_EACH
#undef CUZK_IN_EVEN
#undef CUZK_IN_PAIR
#undef CUZK_MAD2
#undef CUZK_MG_FIRST
#undef CUZK_MG_LAST
#undef CUZK_MG_NEXT
#undef CUZK_MUL_FIRST
#undef CUZK_MUL_NEXT
#undef CUZK_NEG_FIRST
#undef CUZK_NEG_NEXT
#undef CUZK_PADS_1
#undef CUZK_PADS_2
#undef CUZK_PADS_3
#undef CUZK_PADS_4
#undef CUZK_PADS_5
#undef CUZK_PADS_6
#undef CUZK_PADS_7
#undef CUZK_PADS_8
#undef CUZK_PADS_9
#undef CUZK_PADS_10
#undef CUZK_PADS_11
#undef CUZK_PADS_12
#undef CUZK_RE_FIRST
#undef CUZK_RE_LAST
#undef CUZK_RE_NEXT
#undef CUZK_RO_FIRST
#undef CUZK_RO_LAST
#undef CUZK_RO_NEXT
#undef CUZK_SH1_LAST
#undef CUZK_SH1_NEXT
#undef CUZK_SH2_FIRST
#undef CUZK_SH2_LAST
#undef CUZK_SH2_NEXT
#undef CUZK_SPLIT_1
#undef CUZK_SPLIT_2
#undef CUZK_SPLIT_3
#undef CUZK_SPLIT_4
#undef CUZK_SPLIT_5
#undef CUZK_SPLIT_6
#undef CUZK_SQR_FIRST
#undef CUZK_SQR_NEXT
#undef CUZK_SUB_FIRST
#undef CUZK_SUB_NEXT
#undef CUZK_WORDS_1
#undef CUZK_WORDS_2
#undef CUZK_WORDS_3
#undef CUZK_WORDS_4
#undef CUZK_WORDS_5
#undef CUZK_WORDS_6
#undef CUZK_WORDS_7
#undef CUZK_WORDS_8
#undef CUZK_WORDS_9
#undef CUZK_WORDS_10
#undef CUZK_WORDS_11
#undef CUZK_WORDS_12
#undef CUZK_XOR_A

#endif  // __CUDACC__
