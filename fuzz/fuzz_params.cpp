// SPDX-License-Identifier: MIT OR Apache-2.0
// libFuzzer target: the Filecoin/bellperson .params and .vk readers on arbitrary bytes (with and
// without the subgroup checks). Any input must either parse or throw cuzk::decode_error; what
// parses must re-encode to the same bytes (the encoding is canonical), and the reader's point
// decoder must take the zcash decoder's decision on the first G1 and G2 slots.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include "cuzk/io/bellperson_params.hpp"

namespace {

using namespace cuzk;

template <class G>
void same_decision(std::span<const uint8_t> slot) {
    affine<G> got{};
    const auto s = io::bellperson_detail::decode_point_vartime<G>(slot.data(), got, false);
    bool ok = true;
    affine<G> want{};
    try {
        want = zcash::deserialize_uncompressed_unchecked<G>(slot);
    } catch (const decode_error&) {
        ok = false;
    }
    ok = ok && !(want.x.is_zero() && !want.is_identity());  // the reader also rejects x = 0 (order 3)
    const bool mine = s == io::bellperson_detail::point_status::none ||
                      s == io::bellperson_detail::point_status::infinity;
    if (mine != ok || (ok && got != want)) std::abort();
}

/// Re-encodes every decoded section and compares with the input (a dense or compressed file alike).
void reencodes(std::span<const uint8_t> in, const io::bellperson_params& p) {
    std::vector<uint8_t> out;
    auto sink = [&](const uint8_t* b, size_t n) { out.insert(out.end(), b, b + n); };
    io::bellperson_detail::write_point(sink, p.vk.key.alpha_g1);
    io::bellperson_detail::write_point(sink, p.vk.beta_g1);
    io::bellperson_detail::write_point(sink, p.vk.key.beta_g2);
    io::bellperson_detail::write_point(sink, p.vk.key.gamma_g2);
    io::bellperson_detail::write_point(sink, p.vk.delta_g1);
    io::bellperson_detail::write_point(sink, p.vk.key.delta_g2);
    using G1 = bls12_381::g1;
    io::bellperson_detail::write_section<G1>(sink, std::span<const io::bellperson_g1>(p.vk.key.ic), false);
    for (const auto* v : {&p.h, &p.l, &p.a, &p.b_g1})
        io::bellperson_detail::write_section<G1>(sink, std::span(*v), false);
    io::bellperson_detail::write_section<bls12_381::g2>(sink, std::span<const io::bellperson_g2>(p.b_g2), false);
    if (out.size() != in.size() || !std::equal(out.begin(), out.end(), in.begin())) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::span<const uint8_t> in(data, size);
    const bool sub = size > 0 && (data[size - 1] & 1) != 0;
    try {
        reencodes(in, io::read_bellperson_params(in, "fuzz.params", {.check_subgroup = sub}));
    } catch (const decode_error&) {
    }
    try {
        (void)io::read_bellperson_vk(in, "fuzz.vk");
    } catch (const decode_error&) {
    }
    if (size >= 96) same_decision<bls12_381::g1>(in.first(96));
    if (size >= 192) same_decision<bls12_381::g2>(in.first(192));
    return 0;
}
