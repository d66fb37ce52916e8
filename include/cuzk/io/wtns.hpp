// wtns: a witness as circom/snarkjs write it (iden3/snarkjs src/wtns_utils.js).
//
//   magic "wtns", version 2
//   section 1 header: u32 n8, prime[n8] (= r), u32 nWitness
//   section 2 values: nWitness * value[n8], canonical little-endian (not Montgomery)
// w[0] is the constant 1; w[1 .. nPublic] are the public signals (public.json).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

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
    /// vector and converted in place.
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

}  // namespace cuzk::io
