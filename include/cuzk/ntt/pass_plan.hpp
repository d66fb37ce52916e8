// SPDX-License-Identifier: MIT OR Apache-2.0
// The multi-pass NTT schedule shared by the device transform (ntt_device.cuh) and its host
// emulation test: how log n splits into passes, where each tile's elements live, which
// butterflies and twiddles each pass uses, and which pass carries the coset/size scaling.
//
// The algorithm (a four-step / mixed-radix decomposition, radix 2^k per pass):
// a DIF transform of size M = K·L on x[i1·L + i2] (i1 < K "rows", i2 < L "columns") is
//   1. a K-point DIF over the rows of every column (output rows in bit-reversed order),
//   2. a multiplication of row r, column i2 by w_M^(i2 · bitrev_k(r)),
//   3. L-point transforms over the columns of every row, done by the following passes.
// One pass does 1 and 2 for a tile of K rows × C adjacent columns in shared memory (C > 1 so
// that global loads are runs of C contiguous elements). The DIT transform (bit-reversed ->
// natural) is the transpose of that network: the passes in reverse order, each multiplying by
// the same twiddles first and then running the K-point DIT.
#pragma once

#include <cstdint>

#include "cuzk/core/hd.hpp"
#include "cuzk/ntt/domain.hpp"
#include "cuzk/ntt/ordering.hpp"

namespace cuzk::ntt::detail {

/// One pass over bits [lg_l, lg_l + lg_k) of the index: K = 2^lg_k rows, L = 2^lg_l elements
/// below them, tiles of K × 2^lg_c elements (lg_c <= lg_l).
struct pass_shape {
    uint32_t lg_n, lg_k, lg_l, lg_c;

    CUZK_HD constexpr uint32_t lg_tile() const { return lg_k + lg_c; }
    CUZK_HD constexpr uint32_t tile_size() const { return uint32_t(1) << lg_tile(); }
    /// Tiles per polynomial.
    CUZK_HD constexpr uint64_t tiles() const { return uint64_t(1) << (lg_n - lg_tile()); }

    /// Index within the polynomial of tile element s (s = row · C + column).
    CUZK_HD constexpr uint64_t position(uint64_t tile, uint32_t s) const {
        const uint32_t lg_cblocks = lg_l - lg_c;  // column blocks per row band
        const uint64_t h = tile >> lg_cblocks, cb = tile & ((uint64_t(1) << lg_cblocks) - 1);
        const uint64_t row = s >> lg_c, col = (cb << lg_c) | (s & ((uint32_t(1) << lg_c) - 1));
        return (h << (lg_k + lg_l)) | (row << lg_l) | col;
    }

    /// Exponent e of the inter-pass twiddle w_n^e of tile element s: w_M^(i2 · bitrev_k(row))
    /// with M = 2^(lg_k + lg_l). Zero (no twiddle) in the last DIF pass (lg_l = 0).
    CUZK_HD constexpr uint64_t twiddle_exponent(uint64_t pos) const {
        const uint64_t i2 = pos & ((uint64_t(1) << lg_l) - 1);
        const uint64_t row = (pos >> lg_l) & ((uint64_t(1) << lg_k) - 1);
        return (i2 * bit_reverse(row, lg_k)) << (lg_n - lg_k - lg_l);
    }

    /// Butterfly q (< tile_size / 2) of the row stage with half-span 2^lm rows: tile indices
    /// i0 < i1 = i0 + 2^lm · C and the index x of its twiddle w_K^x (x < K/2).
    CUZK_HD constexpr void butterfly(uint32_t lm, uint32_t q, uint32_t& i0, uint32_t& i1, uint32_t& x) const {
        const uint32_t c = q & ((uint32_t(1) << lg_c) - 1), u = q >> lg_c;
        const uint32_t rlo = u & ((uint32_t(1) << lm) - 1);
        const uint32_t row = ((u >> lm) << (lm + 1)) | rlo;
        i0 = (row << lg_c) | c;
        i1 = i0 + (uint32_t(1) << (lm + lg_c));
        x = rlo << (lg_k - 1 - lm);  // w_{2m}^rlo = w_K^(rlo · K / 2m)
    }

    /// Radix-4 group g (< tile_size / 4) of the two smallest-span stages (row spans 2 and 1):
    /// tile index of its element j (0..3) is row 4·(g >> lg_c) + j, column g mod C. Its
    /// twiddles are 1 except w_4 = w_K^(K/4) on the (1, 3) pair, so a radix-4 step costs one
    /// multiplication per four elements and no divergence.
    CUZK_HD constexpr uint32_t radix4_index(uint32_t g, uint32_t j) const {
        const uint32_t c = g & ((uint32_t(1) << lg_c) - 1), rhi = g >> lg_c;
        return (((rhi << 2) | j) << lg_c) | c;
    }

    /// Shared-memory slot of tile index i: XORs the two row bits a radix-4 group fixes
    /// (lg_c, lg_c + 1) with two bits that 16 adjacent groups vary and that lie above the low
    /// four (bits 4, 5, or lg_c + 2, lg_c + 3 for wide tiles), so that 16 threads reading
    /// "element j" of their groups hit 16 different 8-byte banks. A bijection on [0, tile_size)
    /// (the source bits are never changed).
    CUZK_HD constexpr uint32_t swizzle(uint32_t i) const {
        const uint32_t src = lg_c + 2 > 4 ? lg_c + 2 : 4;
        return i ^ (((i >> src) & 3u) << lg_c);
    }
};

/// Passes in DIF order (the first pass covers the top bits).
struct pass_plan {
    uint32_t count = 0;
    pass_shape pass[32] = {};  // enough for log n <= 32 with radix 2 passes
};

/// Splits log n into ceil(log n / max_lg_tile) passes of nearly equal radix (the larger ones
/// last, where no columns are needed), each tile holding up to 2^max_lg_tile elements.
constexpr pass_plan make_pass_plan(uint32_t lg_n, uint32_t max_lg_tile) {
    pass_plan p{};
    if (lg_n == 0) return p;
    p.count = (lg_n + max_lg_tile - 1) / max_lg_tile;
    const uint32_t base = lg_n / p.count, extra = lg_n % p.count;
    uint32_t below = lg_n;
    for (uint32_t i = 0; i < p.count; ++i) {
        const uint32_t k = base + (i >= p.count - extra ? 1 : 0);
        below -= k;
        const uint32_t c = max_lg_tile - k < below ? max_lg_tile - k : below;
        p.pass[i] = pass_shape{lg_n, k, below, c};
    }
    return p;
}

/// The device's plan: tiles of up to 2^10 elements, or 2^9 where that needs no extra pass
/// (smaller tiles let more blocks share an SM: 3% faster at 2^24 and 2^26 on the H200,
/// docs/log/2026-12.md "## NTT").
constexpr pass_plan make_device_pass_plan(uint32_t lg_n) {
    const pass_plan p9 = make_pass_plan(lg_n, 9), p10 = make_pass_plan(lg_n, 10);
    return p9.count <= p10.count ? p9 : p10;
}

/// The tiled in-place bit reversal for log n >= 8: index bits [a: 4 | m: log n - 8 | b: 4];
/// the 256 elements with middle bits m map onto the 256 with middle bits bitrev(m), with a
/// and b swapped and reversed, so a block moving both tiles reads and writes runs of 16
/// contiguous elements.
struct bit_reverse_tiles {
    uint32_t lg_n;
    /// Tiles per polynomial (2^(log n - 8)).
    CUZK_HD constexpr uint64_t tiles() const { return uint64_t(1) << (lg_n - 8); }
    /// The tile that tile m's elements move to.
    CUZK_HD constexpr uint64_t partner(uint64_t m) const { return bit_reverse(m, lg_n - 8); }
    /// Index of element (a, b) of tile m.
    CUZK_HD constexpr uint64_t index(uint64_t m, uint32_t a, uint32_t b) const {
        return (uint64_t(a) << (lg_n - 4)) | (m << 4) | b;
    }
    /// Element (a, b) of the partner tile comes from element (bitrev(b), bitrev(a)) of this one.
    CUZK_HD static constexpr uint32_t rev4(uint32_t x) { return uint32_t(bit_reverse(x, 4)); }
};

/// A diagonal scaling applied while a pass loads (pre) or stores (post) an element:
/// none, the constant 1/n, or powers c·g^j where j is the element's coefficient index
/// (its position, or the bit reversal of its position when the coefficients are bit-reversed).
struct scaling {
    enum kind_t : uint32_t { none, size_inverse, coset_powers, inverse_coset_powers } kind = none;
    bool bit_reversed = false;
};

/// What one transform does: the network (DIF or DIT), the root (w or w^-1), the scaling in the
/// first and last executed pass, and whether a bit-reversal pass follows.
struct transform_schedule {
    bool dit = false;
    bool inverse_root = false;
    scaling pre{}, post{};
    bool bit_reverse_after = false;
};

/// The cheap network for the requested input order; the scaling goes where the coefficients
/// are (input of forward, output of inverse); nn and rr end with one bit-reversal pass.
constexpr transform_schedule make_schedule(bool inverse, ordering o, coset c) {
    transform_schedule s{};
    const bool in_rev = input_bit_reversed(o), out_rev = output_bit_reversed(o);
    s.dit = in_rev;  // DIT reads bit-reversed input; DIF reads natural input
    s.inverse_root = inverse;
    s.bit_reverse_after = in_rev == out_rev;
    if (!inverse) {
        if (c == coset::shifted) s.pre = scaling{scaling::coset_powers, in_rev};
    } else {
        // The network's output is natural for DIT, bit-reversed for DIF.
        s.post = scaling{c == coset::shifted ? scaling::inverse_coset_powers : scaling::size_inverse, !s.dit};
    }
    return s;
}

}  // namespace cuzk::ntt::detail
