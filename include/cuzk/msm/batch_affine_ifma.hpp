// SPDX-License-Identifier: MIT OR Apache-2.0
// The batch-affine additions of batch_affine_host.hpp 8 at a time with AVX-512 IFMA, for groups
// over a 4-limb base field (BN254 G1): the batch's shared inversion (Montgomery's trick in 8
// interleaved chains, one lane each) and the slope, x and y of every addition run as 8-lane
// products of field/ifma52.hpp, 3-4 ns a product against 19 ns for the scalar one on the 2-core
// Zen 5 VM (docs/log/2026-12.md, "The host MSM's batch-affine additions with IFMA").
//
// Values are loaded from and stored to the buckets and points in cuzk's form (v = V R mod p, R =
// 2^256, canonical). Loaded, v is shifted left by 4 bits: 16 v = V R' with R' = 2^260 is V in the
// Montgomery form of the 52-bit products (below 16 p), in which every product and difference
// below stays; a result goes back as mont_mul8(w, R mod p) = W R, reduced below p. Bounds (p <
// 0.76 * 2^254, so a product of operands below A p and B p is below (0.012 A B + 1) p): inputs
// below 16 p, each difference offset by a multiple of p above the subtrahend's bound (noted at
// each step), every value below 51 p < 2^260 (84 p).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuzk/field/ifma52.hpp"

namespace cuzk::msm::detail {

/// The field Montgomery's trick runs in for denominators in F: F, or for Fp2 its base field
/// (through the norms); also the field of a coordinate's limbs.
template <class F>
struct inversion_field {
    using type = F;
};
template <class F>
    requires requires(const F& f) { f.c1; }
struct inversion_field<F> {
    using type = typename F::base;
};

/// True when the IFMA additions cover group G (affine points of two 4-limb coordinates).
template <class G>
constexpr bool ifma_batch_fits() {
    using field = typename G::field;
    if constexpr (requires(const field& f) { f.c1; }) {
        return CUZK_IFMA && field::nonresidue == -1 && field::base::limbs == 4;
    } else {
        return CUZK_IFMA && field::limbs == 4;
    }
}

#if CUZK_IFMA

namespace ifma_batch {

using namespace cuzk::ifma52;
constexpr size_t N = 4, L = 5;

/// The constants of field F's additions.
template <class F>
struct constants {
    vec8<L> p, p3, p5, p16, p20, p32, p34, p35, zero, r_mod_p, one;
    __m512i k0;
    CUZK_IFMA_INLINE static constants make() {
        using C = field_constants<F>;
        static_assert(C::L == L, "a 4-limb field");
        // Offsets (multiples of p) first, then R mod p and 16 R mod p (one, in the products' form).
        constexpr typename C::limbs k[] = {C::multiple(1),  C::multiple(3),  C::multiple(5),
                                           C::multiple(16), C::multiple(20), C::multiple(32),
                                           C::multiple(34), C::multiple(35), C::multiple(0),
                                           C::r_mod_p,      C::times(F::params::r1, 16)};
        return constants{broadcast<L>(k[0].v), broadcast<L>(k[1].v), broadcast<L>(k[2].v),  broadcast<L>(k[3].v),
                         broadcast<L>(k[4].v), broadcast<L>(k[5].v), broadcast<L>(k[6].v),  broadcast<L>(k[7].v),
                         broadcast<L>(k[8].v), broadcast<L>(k[9].v), broadcast<L>(k[10].v), _mm512_set1_epi64(int64_t(C::k0))};
    }
};

/// a - b + k (k a multiple of p above b), carried.
CUZK_IFMA_INLINE vec8<L> sub_offset(const vec8<L>& a, const vec8<L>& b, const vec8<L>& k) {
    vec8<L> d = add(sub(a, b), k);
    carry(d);
    return d;
}

/// 8 values in cuzk's form (word i of lane k in lane k of w[i]) in the products' form: 16 v,
/// split into 52-bit limbs (limb i is bits [52 i - 4, 52 i + 48) of v).
CUZK_IFMA_INLINE vec8<L> hat(const __m512i (&w)[N]) {
    const __m512i m = _mm512_set1_epi64(int64_t(limb_mask));
    vec8<L> out;
    for (size_t i = 0; i < L; ++i) {  // bits [52 i - 4, 52 i + 48) of v: limb i of 16 v
        const int bit = 52 * int(i) - 4;
        const int at = bit < 0 ? 0 : bit / 64, s = bit < 0 ? 0 : bit % 64;
        __m512i v = bit < 0 ? shl(w[0], 4) : shr(w[at], unsigned(s));
        if (bit >= 0 && s > 12 && at + 1 < int(N)) v = _mm512_or_si512(v, shl(w[at + 1], unsigned(64 - s)));
        out.v[i] = _mm512_and_si512(v, m);
    }
    return out;
}

/// One coordinate of 8 values in cuzk's form (lane k's N words at base + index_k words) in the
/// products' form. Lanes outside `lanes` are zero.
CUZK_IFMA_INLINE vec8<L> load_hat(const uint64_t* base, __m512i index, __mmask8 lanes) {
    __m512i w[N];
    for (size_t i = 0; i < N; ++i)
        w[i] = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), lanes, index,
                                           reinterpret_cast<const void*>(base + i), 8);
    return hat(w);
}

/// w (products' form, below 2^260) back in cuzk's form, reduced below p, as N 64-bit words.
template <class F>
CUZK_IFMA_INLINE void to_words(const vec8<L>& w, const constants<F>& c, __m512i (&out)[N]) {
    vec8<L> v = mont_mul8(w, c.r_mod_p, c.p, c.k0);  // below 1.4 p
    vec8<L> d = sub(v, c.p);
    carry(d);
    const __mmask8 below_p = _mm512_cmplt_epi64_mask(d.v[L - 1], _mm512_setzero_si512());
    for (size_t i = 0; i < L; ++i) v.v[i] = _mm512_mask_blend_epi64(below_p, d.v[i], v.v[i]);
    for (size_t k = 0; k < N; ++k) {  // bits [64 k, 64 k + 64)
        const size_t bit = 64 * k, a = bit / 52, s = bit % 52;
        __m512i x = shr(v.v[a], unsigned(s));
        x = _mm512_or_si512(x, shl(v.v[a + 1], unsigned(52 - s)));  // 52 - s + 52 >= 64: two limbs do
        out[k] = x;
    }
}

/// The lanes of row r (elements 8 r .. 8 r + 7) below n.
CUZK_IFMA_INLINE __mmask8 row_lanes(size_t r, size_t n) {
    return __mmask8(n - 8 * r >= 8 ? 0xff : (1u << (n - 8 * r)) - 1);
}

/// Word offsets (8 r + k) * stride_words of row r's elements.
CUZK_IFMA_INLINE __m512i row_index(size_t r, int64_t s) {
    return _mm512_add_epi64(_mm512_set_epi64(7 * s, 6 * s, 5 * s, 4 * s, 3 * s, 2 * s, s, 0),
                            _mm512_set1_epi64(int64_t(8 * r) * s));
}

/// Word offsets id_j * bucket_words of row r's buckets (ids: uint32 at ids + j * stride bytes).
CUZK_IFMA_INLINE __m512i bucket_index(const char* ids, size_t stride, size_t r, __mmask8 m, int64_t bucket_words) {
    alignas(64) int64_t b[8] = {};
    for (size_t k = 0; k < 8; ++k)
        if (m >> k & 1) b[k] = int64_t(*reinterpret_cast<const uint32_t*>(ids + (8 * r + k) * stride)) * bucket_words;
    return _mm512_load_si512(b);
}

/// 1 / v for each lane of acc (products' form in, products' form out), through one scalar
/// inversion of the 8 lanes' product (public data, as the scalar path).
template <class F>
CUZK_IFMA_INLINE vec8<L> invert_lanes(const vec8<L>& acc, const constants<F>& c) {
    __m512i words[N];
    to_words(acc, c, words);
    alignas(64) uint64_t lane_words[N][8];
    for (size_t i = 0; i < N; ++i) _mm512_store_si512(lane_words[i], words[i]);
    F chain[8], before[8];
    for (size_t k = 0; k < 8; ++k)
        for (size_t i = 0; i < N; ++i) chain[k].mont.limb[i] = lane_words[i][k];
    F all = F::one();
    for (size_t k = 0; k < 8; ++k) {
        before[k] = all;
        all *= chain[k];
    }
    all = all.inverse_vartime();
    for (size_t k = 8; k-- > 0;) {
        const F inv = all * before[k];
        all *= chain[k];
        for (size_t i = 0; i < N; ++i) lane_words[i][k] = inv.mont.limb[i];
    }
    for (size_t i = 0; i < N; ++i) words[i] = _mm512_load_si512(lane_words[i]);
    return hat(words);
}

/// Writes w (products' form) to one coordinate of the buckets of a row.
template <class F>
CUZK_IFMA_INLINE void scatter(uint64_t* base, __mmask8 m, __m512i index, const vec8<L>& w, const constants<F>& c) {
    __m512i words[N];
    to_words(w, c, words);
    for (size_t i = 0; i < N; ++i) _mm512_mask_i64scatter_epi64(base + i, m, index, words[i], 8);
}

/// a b in the products' form.
template <class F>
CUZK_IFMA_INLINE vec8<L> mul(const constants<F>& c, const vec8<L>& a, const vec8<L>& b) {
    return mont_mul8(a, b, c.p, c.k0);
}

/// Lanes outside m replaced by one (padding rows of the trick).
template <class F>
CUZK_IFMA_INLINE vec8<L> or_one(const vec8<L>& v, __mmask8 m, const constants<F>& c) {
    vec8<L> out;
    for (size_t i = 0; i < L; ++i) out.v[i] = _mm512_mask_blend_epi64(m, c.one.v[i], v.v[i]);
    return out;
}

}  // namespace ifma_batch

/// Applies a batch of n additions bucket[id_j] += point_j (distinct buckets, neither point the
/// identity, x coordinates different): ids at `ids` + j * stride bytes, points (x then y) at
/// `points` + j * stride bytes, buckets at `buckets` + id * bucket_stride bytes. `scratch`
/// holds the trick's rows (resized here). G1 (Fp): lane k of row r is addition 8 r + k, and
/// lane k runs the trick's chain of the additions k mod 8. G2 (Fp2, u^2 = -1): the trick runs
/// over the denominators' norms d0^2 + d1^2, 1 / d = conj(d) / N(d), as the scalar path.
template <class G>
__attribute__((target("avx512f,avx512ifma"))) void apply_batch_ifma(void* buckets, size_t bucket_stride,
                                                                    const void* ids, const void* points,
                                                                    size_t stride, size_t n,
                                                                    std::vector<uint64_t>& scratch) {
    using namespace ifma_batch;
    constexpr bool fp2 = requires(const typename G::field& f) { f.c1; };
    using F = typename inversion_field<typename G::field>::type;
    const constants<F> c = constants<F>::make();
    const size_t rows = (n + 7) / 8;
    constexpr size_t row_words = sizeof(vec8<L>) / 8, per_row = fp2 ? 2 : 1;
    scratch.resize(per_row * rows * row_words + 8);  // + 8: room to align to 64 bytes
    const size_t skew = (64 - reinterpret_cast<uintptr_t>(scratch.data()) % 64) % 64 / 8;
    vec8<L>* prefix = reinterpret_cast<vec8<L>*>(scratch.data() + skew);
    vec8<L>* norm = prefix + rows;  // G2: the trick's inputs (two products each to remake)
    const char* idb = static_cast<const char*>(ids);
    const uint64_t* pw = static_cast<const uint64_t*>(points);
    uint64_t* bw = static_cast<uint64_t*>(buckets);
    const int64_t sw = int64_t(stride / 8), bsw = int64_t(bucket_stride / 8);
    constexpr size_t X1 = N, Y0 = fp2 ? 2 * N : N, Y1 = 3 * N;  // word offsets of the coordinates
    // Forward: the running products of the trick's inputs.
    vec8<L> acc = c.one;
    for (size_t r = 0; r < rows; ++r) {
        const __mmask8 m = row_lanes(r, n);
        const __m512i pi = row_index(r, sw), bi = bucket_index(idb, stride, r, m, bsw);
        vec8<L> t = sub_offset(load_hat(pw, pi, m), load_hat(bw, bi, m), c.p16);  // x_P - x_B (< 32 p)
        if constexpr (fp2) {
            const vec8<L> d1 = sub_offset(load_hat(pw + X1, pi, m), load_hat(bw + X1, bi, m), c.p16);
            t = add(mul(c, t, t), mul(c, d1, d1));  // < 27 p
            carry(t);
            t = or_one(t, m, c);
            norm[r] = t;
        } else {
            t = or_one(t, m, c);
        }
        prefix[r] = acc;
        acc = mul(c, acc, t);
    }
    vec8<L> inv = invert_lanes(acc, c);
    // Backward: each row's inverses, then its slopes and sums, written back to the buckets.
    for (size_t r = rows; r-- > 0;) {
        const __mmask8 m = row_lanes(r, n);
        const __m512i pi = row_index(r, sw), bi = bucket_index(idb, stride, r, m, bsw);
        const vec8<L> tinv = mul(c, inv, prefix[r]);  // below 4.1 p
        const vec8<L> px0 = load_hat(pw, pi, m), py0 = load_hat(pw + Y0, pi, m);
        const vec8<L> qx0 = load_hat(bw, bi, m), qy0 = load_hat(bw + Y0, bi, m);
        const vec8<L> d0 = sub_offset(px0, qx0, c.p16);
        if constexpr (!fp2) {
            inv = mul(c, inv, or_one(d0, m, c));
            const vec8<L> lambda = mul(c, sub_offset(py0, qy0, c.p16), tinv);  // < 2.6 p
            vec8<L> x = add(mul(c, lambda, lambda), c.p32);
            x = sub(sub(x, qx0), px0);  // < 33.1 p
            carry(x);
            vec8<L> y = mul(c, lambda, sub_offset(qx0, x, c.p34));
            y = sub_offset(y, qy0, c.p16);
            scatter(bw, m, bi, x, c);
            scatter(bw + Y0, m, bi, y, c);
        } else {
            inv = mul(c, inv, norm[r]);
            const vec8<L> px1 = load_hat(pw + X1, pi, m), py1 = load_hat(pw + Y1, pi, m);
            const vec8<L> qx1 = load_hat(bw + X1, bi, m), qy1 = load_hat(bw + Y1, bi, m);
            const vec8<L> d1 = sub_offset(px1, qx1, c.p16);
            // 1 / d = (d0 - d1 u) / N(d): e0 = d0 / N, e1 = 3 p - d1 / N (each product < 2.6 p).
            const vec8<L> e0 = mul(c, d0, tinv), e1 = sub_offset(c.p3, mul(c, d1, tinv), c.zero);
            const vec8<L> n0 = sub_offset(py0, qy0, c.p16), n1 = sub_offset(py1, qy1, c.p16);
            // lambda = n e = (n0 e0 - n1 e1) + (n0 e1 + n1 e0) u, below 5 p and 4.2 p (n1 e1 < 2.2 p).
            vec8<L> l0 = add(sub(mul(c, n0, e0), mul(c, n1, e1)), c.p3), l1 = add(mul(c, n0, e1), mul(c, n1, e0));
            carry(l0);
            carry(l1);
            // lambda^2 = (l0 + l1)(l0 - l1) + 2 l0 l1 u, then x = lambda^2 - x_B - x_P (< 34.1 p).
            vec8<L> s = add(l0, l1), dm = sub_offset(l0, l1, c.p5), l0x2 = add(l0, l0);
            carry(s);
            carry(l0x2);
            vec8<L> x0 = sub(sub(add(mul(c, s, dm), c.p32), qx0), px0);
            vec8<L> x1 = sub(sub(add(mul(c, l0x2, l1), c.p32), qx1), px1);
            carry(x0);
            carry(x1);
            // y = lambda (x_B - x) - y_B (lambda_1 t_1 < 3.6 p), each part below 24.1 p.
            const vec8<L> t0 = sub_offset(qx0, x0, c.p35), t1 = sub_offset(qx1, x1, c.p35);
            vec8<L> y0 = sub(add(sub(mul(c, l0, t0), mul(c, l1, t1)), c.p20), qy0);
            vec8<L> y1 = sub(add(add(mul(c, l0, t1), mul(c, l1, t0)), c.p16), qy1);
            carry(y0);
            carry(y1);
            scatter(bw, m, bi, x0, c);
            scatter(bw + X1, m, bi, x1, c);
            scatter(bw + Y0, m, bi, y0, c);
            scatter(bw + Y1, m, bi, y1, c);
        }
    }
}

#endif  // CUZK_IFMA

}  // namespace cuzk::msm::detail
