// SPDX-License-Identifier: MIT OR Apache-2.0
// wtns: a witness as circom/snarkjs write it (iden3/snarkjs src/wtns_utils.js).
//
//   magic "wtns", version 2
//   section 1 header: u32 n8, prime[n8] (= r), u32 nWitness
//   section 2 values: nWitness * value[n8], canonical little-endian (not Montgomery)
// w[0] is the constant 1; w[1 .. nPublic] are the public signals (public.json).
// write_wtns writes the same layout (what circom's witness generator and snarkjs write).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cuzk/core/error.hpp"
#include "cuzk/io/binfile.hpp"
#include "cuzk/io/field_io.hpp"
#include "cuzk/io/snarkjs_curve.hpp"

namespace cuzk::io {

/// A parsed .wtns file: the full assignment as field elements (Montgomery form inside).
template <class Curve>
struct wtns {
    using curve = Curve;
    using fr = typename Curve::fr;

    std::vector<fr> values;

    /// Section names for error messages.
    static std::string section_name(uint32_t id) {
        switch (id) {
            case 1: return "header";
            case 2: return "witness values";
            default: return "";
        }
    }

    /// Reads and validates a .wtns file.
    static wtns read(const std::string& path) { return read(std::make_shared<file_source>(path)); }

    /// Reads and validates .wtns bytes from any source. The values are read into their final
    /// vector and converted in place, in parallel chunks (io/field_io.hpp read_canonical_array).
    static wtns read(std::shared_ptr<const byte_source> src) {
        binfile f(std::move(src), "wtns", 2, &section_name);
        f.require_known_sections({1, 2});
        uint32_t n = 0;
        {
            auto r = f.reader(1);
            read_field_header<fr>(r, "field");
            n = r.u32();
            r.expect_end();
        }
        wtns out;
        auto r = f.reader(2);
        if (r.remaining() != uint64_t(n) * n8_of<fr>)
            throw r.fail("size " + std::to_string(r.remaining()) + " disagrees with the header's nWitness = " +
                         std::to_string(n) + " (" + std::to_string(n8_of<fr>) + " bytes each)");
        read_canonical_array<fr>(r, n, out.values, "witness value");
        r.expect_end();
        if (n > 0 && !out.values[0].is_one()) throw r.fail("witness value 0 (the constant ONE) is not 1");
        return out;
    }
};

/// Writes the assignment `values` (values[0] = 1) as a .wtns file (version 2), canonical
/// little-endian values: the inverse of wtns::read. Throws invalid_argument for an empty
/// assignment or one not starting with 1, cuzk::error on I/O failure.
template <class Curve>
void write_wtns(const std::string& path, std::span<const typename Curve::fr> values) {
    using fr = typename Curve::fr;
    if (values.empty() || !values[0].is_one())
        throw invalid_argument(path + ": write_wtns: the witness must start with the constant 1");
    if (values.size() > UINT32_MAX) throw invalid_argument(path + ": write_wtns: more than 2^32 - 1 values");
    binfile_writer w(path, "wtns", 2, 2);
    w.begin_section(1);
    w.u32(uint32_t(n8_of<fr>));
    w.write(&fr::modulus, n8_of<fr>);
    w.u32(uint32_t(values.size()));
    w.end_section();
    w.begin_section(2);
    std::vector<typename fr::integer> buf;
    constexpr size_t chunk = size_t(1) << 14;
    for (size_t i = 0; i < values.size(); i += chunk) {
        const size_t n = std::min(chunk, values.size() - i);
        buf.resize(n);
        for (size_t k = 0; k < n; ++k) buf[k] = values[i + k].to_canonical();
        w.write(buf.data(), n * n8_of<fr>);
    }
    w.end_section();
    w.close();
}

/// Writes a parsed witness back (see the span overload).
template <class Curve>
void write_wtns(const std::string& path, const wtns<Curve>& w) {
    write_wtns<Curve>(path, std::span<const typename Curve::fr>(w.values));
}

/// The curve a .wtns is for, from the scalar-field prime of its header; nullopt when the header
/// is malformed or names neither curve's field (wtns::read then says what is wrong).
inline std::optional<curve_id> wtns_curve(std::shared_ptr<const byte_source> src) {
    try {
        binfile f(std::move(src), "wtns", 2);
        auto r = f.reader(1);
        const uint32_t n8 = r.u32();
        if (n8 != 32) return std::nullopt;  // both curves' r have 32 bytes
        const std::vector<uint8_t> p = r.bytes(n8);
        if (is_modulus<bn254::fr>(p)) return curve_id::bn254;
        if (is_modulus<bls12_381::fr>(p)) return curve_id::bls12_381;
    } catch (const decode_error&) {
    }
    return std::nullopt;
}

}  // namespace cuzk::io
