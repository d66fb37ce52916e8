// SPDX-License-Identifier: MIT OR Apache-2.0
// r1cs: circom's constraint system file (.r1cs, iden3/r1csfile doc/r1cs_bin_format.md).
//
//   magic "r1cs", version 1
//   section 1 header:      u32 n8, prime[n8] (= r), u32 nWires, u32 nPubOut, u32 nPubIn,
//                          u32 nPrvIn, u64 nLabels, u32 nConstraints
//   section 2 constraints: per constraint the linear combinations A, B, C, each
//                          u32 nTerms then nTerms * (u32 wireId, value[n8]); values canonical LE
//   section 3 wire map:    u64 label id per wire (optional here)
// Sections 4 and 5 (custom gates, PLONK only) are rejected. A constraint means A*B - C = 0
// over Fr. Wire 0 is the constant ONE, then public outputs, public inputs, private inputs.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cuzk/io/binfile.hpp"
#include "cuzk/io/field_io.hpp"
#include "cuzk/io/snarkjs_curve.hpp"

namespace cuzk::io {

/// One term coefficient * wire of a linear combination; value is a field element.
template <class Fr>
struct r1cs_term {
    uint32_t wire;
    Fr value;
};

/// One of the matrices A, B, C in compressed rows: row i is terms[start[i] .. start[i+1]).
template <class Fr>
struct lc_matrix {
    std::vector<uint64_t> start{0};
    std::vector<r1cs_term<Fr>> terms;

    /// Number of rows (constraints).
    size_t rows() const { return start.size() - 1; }
    /// The terms of row i.
    std::span<const r1cs_term<Fr>> row(size_t i) const {
        return {terms.data() + start[i], size_t(start[i + 1] - start[i])};
    }
    /// sum of value * witness[wire] over row i (wires must be < witness.size()).
    Fr evaluate(size_t i, std::span<const Fr> witness) const {
        Fr acc = Fr::zero();
        for (const auto& t : row(i)) acc += t.value * witness[t.wire];
        return acc;
    }
};

/// A parsed .r1cs file.
template <class Curve>
struct r1cs {
    using curve = Curve;
    using fr = typename Curve::fr;

    uint32_t n_wires = 0;
    uint32_t n_pub_out = 0;
    uint32_t n_pub_in = 0;
    uint32_t n_prv_in = 0;
    uint64_t n_labels = 0;
    uint32_t n_constraints = 0;
    lc_matrix<fr> a, b, c;
    /// Label id of each wire (section 3); empty if the file has no section 3.
    std::vector<uint64_t> wire_to_label;

    /// Public signals excluding the constant ONE (outputs, then public inputs).
    uint32_t n_public() const { return n_pub_out + n_pub_in; }

    /// Index of the first constraint with A*B != C under this full witness (w[0] = 1), or none.
    /// Throws invalid_argument if the witness has the wrong length.
    std::optional<size_t> first_unsatisfied(std::span<const fr> witness) const {
        if (witness.size() != n_wires)
            throw invalid_argument("r1cs: witness has " + std::to_string(witness.size()) + " values, circuit has " +
                                   std::to_string(n_wires) + " wires");
        for (size_t i = 0; i < n_constraints; ++i)
            if (a.evaluate(i, witness) * b.evaluate(i, witness) != c.evaluate(i, witness)) return i;
        return std::nullopt;
    }

    /// Section names for error messages.
    static std::string section_name(uint32_t id) {
        switch (id) {
            case 1: return "header";
            case 2: return "constraints";
            case 3: return "wire-to-label map";
            case 4: return "custom gates list";
            case 5: return "custom gates uses";
            default: return "";
        }
    }

    /// Reads and validates a .r1cs file.
    static r1cs read(const std::string& path) { return read(std::make_shared<file_source>(path)); }

    /// Reads and validates .r1cs bytes from any source.
    static r1cs read(std::shared_ptr<const byte_source> src) {
        binfile f(std::move(src), "r1cs", 1, &section_name);
        if (f.has(4) || f.has(5))
            throw decode_error(f.where(f.has(4) ? 4 : 5) + ": custom gates (PLONK) are not supported");
        f.require_known_sections({1, 2, 3});
        r1cs out;

        // header
        {
            auto r = f.reader(1);
            read_field_header<fr>(r, "field");
            out.n_wires = r.u32();
            out.n_pub_out = r.u32();
            out.n_pub_in = r.u32();
            out.n_prv_in = r.u32();
            out.n_labels = r.u64();
            out.n_constraints = r.u32();
            r.expect_end();
            const uint64_t declared = 1 + uint64_t(out.n_pub_out) + out.n_pub_in + out.n_prv_in;
            if (declared > out.n_wires)
                throw r.fail("nWires = " + std::to_string(out.n_wires) + " is less than 1 + outputs + inputs = " +
                             std::to_string(declared));
        }

        // constraints: each needs at least 3 * 4 bytes, so bound the count before reserving
        {
            auto r = f.reader(2);
            if (uint64_t(out.n_constraints) > r.remaining() / 12)
                throw r.fail("header's nConstraints = " + std::to_string(out.n_constraints) +
                             " cannot fit in a section of " + std::to_string(r.remaining()) + " bytes");
            for (auto* m : {&out.a, &out.b, &out.c}) m->start.reserve(size_t(out.n_constraints) + 1);
            const uint64_t term_bytes = 4 + n8_of<fr>;
            for (uint32_t i = 0; i < out.n_constraints; ++i) {
                for (auto* m : {&out.a, &out.b, &out.c}) {
                    const uint32_t n_terms = r.u32();
                    if (uint64_t(n_terms) > r.remaining() / term_bytes)
                        throw r.fail("constraint " + std::to_string(i) + ": " + std::to_string(n_terms) +
                                     " terms cannot fit in the rest of the section");
                    for (uint32_t k = 0; k < n_terms; ++k) {
                        const uint32_t wire = r.u32();
                        if (wire >= out.n_wires)
                            throw r.fail("constraint " + std::to_string(i) + ": wire " + std::to_string(wire) +
                                         " is not below nWires = " + std::to_string(out.n_wires));
                        m->terms.push_back({wire, read_canonical<fr>(r, "coefficient")});
                    }
                    m->start.push_back(m->terms.size());
                }
            }
            r.expect_end();
        }

        // wire-to-label map (optional)
        if (f.has(3)) {
            auto r = f.reader(3);
            if (r.remaining() != uint64_t(out.n_wires) * 8)
                throw r.fail("size " + std::to_string(r.remaining()) + " disagrees with nWires = " +
                             std::to_string(out.n_wires) + " (expected 8 bytes per wire)");
            out.wire_to_label.resize(out.n_wires);
            r.read(out.wire_to_label.data(), size_t(out.n_wires) * 8);
            for (uint32_t w = 0; w < out.n_wires; ++w)
                if (out.wire_to_label[w] >= out.n_labels)
                    throw r.fail("wire " + std::to_string(w) + " maps to label " + std::to_string(out.wire_to_label[w]) +
                                 ", not below nLabels = " + std::to_string(out.n_labels));
        }
        return out;
    }
};

}  // namespace cuzk::io
