// SPDX-License-Identifier: MIT OR Apache-2.0
// io/ readers on small synthetic files written by tests/test_io_synth.hpp: correct decoding and
// a clear cuzk::decode_error for every kind of malformed input (truncation at every byte,
// bad magic/version/section table, wrong curve, absurd counts, values and points out of range).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>
#include <string>

#include "cuzk/io/r1cs.hpp"
#include "cuzk/io/wtns.hpp"
#include "cuzk/io/zkey.hpp"
#include "test_io_synth.hpp"

using namespace cuzk;
using namespace cuzk::io;
using namespace cuzk::io::iotest;

namespace {

/// Runs f, expects a decode_error whose message contains every one of `parts`.
void expect_decode_error(const std::function<void()>& f, std::initializer_list<std::string_view> parts) {
    try {
        f();
    } catch (const decode_error& e) {
        const std::string msg = e.what();
        for (auto p : parts) EXPECT_NE(msg.find(p), std::string::npos) << "message: " << msg << "\nmissing: " << p;
        return;
    } catch (const std::exception& e) {
        ADD_FAILURE() << "expected decode_error, got: " << e.what();
        return;
    }
    ADD_FAILURE() << "expected decode_error, nothing thrown";
}

/// b in a file called `name` in a directory of its own, mapped (io::mapped_source); the file is
/// removed at once (the mapping keeps it). The source's name is the file's path.
std::shared_ptr<const byte_source> mapped_of(const bytes& b, const std::string& name) {
    static int serial = 0;
    const auto dir = std::filesystem::temp_directory_path() /
                     ("cuzk_mapped_" + std::to_string(::getpid()) + "_" + std::to_string(serial++));
    std::filesystem::create_directories(dir);
    const auto path = dir / name;
    {
        std::ofstream out(path, std::ios::binary);
        out.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
    }
    auto src = std::make_shared<mapped_source>(path.string());
    std::filesystem::remove_all(dir);
    return src;
}

/// A message of a mapped source's error with its directory taken out (what the same bytes give
/// read from memory under the file's name).
std::string without_dir(std::string msg, const byte_source& mapped) {
    const std::string dir = std::filesystem::path(mapped.name()).parent_path().string() + "/";
    for (size_t at; (at = msg.find(dir)) != std::string::npos;) msg.erase(at, dir.size());
    return msg;
}

template <class T>
inline constexpr bool is_zkey = requires { T::coefficient_chunk; };

/// A reader of b for expect_decode_error. A zkey is read twice, mapped (its aligned point
/// sections checked in place) and from memory: both must give the same error, or none.
template <class T>
auto reader_of(const bytes& b, const std::string& name) {
    return [b, name] {
        if constexpr (is_zkey<T>) {
            std::string mapped_error = "(none)";
            const auto m = mapped_of(b, name);
            try {
                (void)T::read(m);
            } catch (const decode_error& e) {
                mapped_error = without_dir(e.what(), *m);
            }
            try {
                (void)T::read(source_of(b, name));
            } catch (const decode_error& e) {
                EXPECT_EQ(mapped_error, e.what()) << "the mapped read's error differs";
                throw;
            }
            EXPECT_EQ(mapped_error, "(none)") << "only the mapped read failed";
        } else {
            (void)T::read(source_of(b, name));
        }
    };
}

void put32(bytes& b, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + i] = uint8_t(v >> (8 * i));
}

}  // namespace

template <class Curve>
class io_readers : public ::testing::Test {};
using curves = ::testing::Types<bn128, bls12381>;
TYPED_TEST_SUITE(io_readers, curves);

// ---- binfile ------------------------------------------------------------------------------------

TEST(io_binfile, parses_sections_in_any_order_and_bounds_reads) {
    container c{"test", 7, {{3, {1, 2, 3}}, {1, {}}, {2, {9, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}}}};
    binfile f(source_of(c.build(), "t.bin"), "test", 7);
    ASSERT_EQ(f.sections().size(), 3u);
    EXPECT_EQ(f.section(3).size, 3u);
    EXPECT_EQ(f.section(1).size, 0u);
    auto r = f.reader(2);
    EXPECT_EQ(r.u32(), 9u);
    EXPECT_EQ(r.u64(), ~uint64_t(0));
    r.expect_end();
    expect_decode_error([&] { (void)r.u32(); }, {"t.bin", "section 2", "truncated"});
    expect_decode_error([&] { (void)f.section(4); }, {"section 4", "missing"});
    expect_decode_error([&] { f.require_known_sections({1, 2}); }, {"section 3", "unknown section"});
    auto r3 = f.reader(3);
    uint8_t two[2];
    r3.read(two, 2);
    expect_decode_error([&] { r3.expect_end(); }, {"section 3", "disagrees"});
}

TEST(io_binfile, rejects_bad_headers_and_tables) {
    container c{"test", 1, {{1, {1, 2, 3, 4}}, {2, {5}}}};
    const bytes good = c.build();
    auto parse = [](const bytes& b) { return [b] { binfile f(source_of(b, "x.bin"), "test", 1); }; };
    bytes b = good;
    b[0] = 'T';
    expect_decode_error(parse(b), {"x.bin", "bad magic 'Test'"});
    b = good;
    put32(b, 4, 2);
    expect_decode_error(parse(b), {"version 2"});
    b = good;
    put32(b, 8, 0xffffffffu);  // absurd section count: rejected before reserving
    expect_decode_error(parse(b), {"4294967295 sections"});
    b = good;
    put32(b, 8, 1);  // one section declared, bytes of another follow
    expect_decode_error(parse(b), {"unexpected bytes after the last section"});
    b = good;
    b.push_back(0);
    expect_decode_error(parse(b), {"1 unexpected bytes"});
    b = good;
    put32(b, 12 + 12 + 4, 1);  // the second section gets id 1 again
    expect_decode_error(parse(b), {"section 1", "duplicate"});
    b = good;
    put32(b, 16, 0xffff);  // section size far past the end
    expect_decode_error(parse(b), {"section 1", "runs past the end"});
    for (size_t n = 0; n < good.size(); ++n)
        expect_decode_error(parse(bytes(good.begin(), good.begin() + n)), {"x.bin"});
    binfile ok(source_of(good, "x.bin"), "test", 1);
    EXPECT_EQ(ok.sections().size(), 2u);
}

TEST(io_binfile, file_source_reads_files_and_reports_missing_ones) {
    const auto path = std::filesystem::temp_directory_path() / ("cuzk_io_binfile_" + std::to_string(::getpid()) + ".bin");
    container c{"test", 1, {{1, {1, 2, 3, 4}}}};
    const bytes b = c.build();
    {
        std::ofstream out(path, std::ios::binary);
        out.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
    }
    binfile f = binfile::open(path.string(), "test", 1);
    EXPECT_EQ(f.reader(1).u32(), 0x04030201u);
    std::filesystem::remove(path);
    try {
        (void)binfile::open(path.string(), "test", 1);
        ADD_FAILURE() << "opening a missing file must throw";
    } catch (const cuzk::error& e) {
        EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos);
    }
}

// ---- r1cs -----------------------------------------------------------------------------------------

TYPED_TEST(io_readers, r1cs_decodes_and_is_satisfied) {
    using fr = typename TypeParam::fr;
    toy_circuit<TypeParam> toy;
    auto r = r1cs<TypeParam>::read(source_of(toy.r1cs().build(), "toy.r1cs"));
    EXPECT_EQ(r.n_wires, 5u);
    EXPECT_EQ(r.n_pub_out, 1u);
    EXPECT_EQ(r.n_pub_in, 1u);
    EXPECT_EQ(r.n_prv_in, 1u);
    EXPECT_EQ(r.n_public(), 2u);
    EXPECT_EQ(r.n_constraints, 3u);
    ASSERT_EQ(r.a.rows(), 3u);
    const lc_matrix<fr>* mats[3] = {&r.a, &r.b, &r.c};
    for (size_t i = 0; i < 3; ++i)
        for (size_t m = 0; m < 3; ++m) {
            const auto& want = toy.constraints[i][m];
            auto got = mats[m]->row(i);
            ASSERT_EQ(got.size(), want.size());
            for (size_t k = 0; k < want.size(); ++k) {
                EXPECT_EQ(got[k].wire, want[k].wire);
                EXPECT_EQ(got[k].value, want[k].value);
            }
        }
    EXPECT_EQ(r.wire_to_label.size(), 5u);
    EXPECT_FALSE(r.first_unsatisfied(toy.witness).has_value());
    auto bad = toy.witness;
    bad[1] += fr::one();
    EXPECT_EQ(r.first_unsatisfied(bad), std::optional<size_t>(1));
    bad = toy.witness;
    bad[3] += fr::one();  // x*y != t
    EXPECT_EQ(r.first_unsatisfied(bad), std::optional<size_t>(0));
    EXPECT_THROW((void)r.first_unsatisfied(std::span(toy.witness).first(4)), cuzk::invalid_argument);
}

TYPED_TEST(io_readers, r1cs_rejects_every_truncation_and_corruption) {
    using fr = typename TypeParam::fr;
    using R = r1cs<TypeParam>;
    toy_circuit<TypeParam> toy;
    const container c = toy.r1cs();
    const bytes good = c.build();
    for (size_t n = 0; n < good.size(); ++n) expect_decode_error(reader_of<R>(bytes(good.begin(), good.begin() + n), "t.r1cs"), {"t.r1cs"});

    // Section table: sections are 2 (constraints), 1 (header), 3 (labels) in file order.
    const auto offs = c.header_offsets();
    bytes b = good;
    put32(b, offs[0], 9);
    expect_decode_error(reader_of<R>(b, "t.r1cs"), {"section 9", "unknown section"});
    b = good;
    put32(b, offs[0], 4);
    expect_decode_error(reader_of<R>(b, "t.r1cs"), {"section 4", "custom gates"});
    b = good;
    put32(b, offs[2], 1);
    expect_decode_error(reader_of<R>(b, "t.r1cs"), {"duplicate"});

    // Missing header or constraints.
    for (uint32_t drop : {1u, 2u}) {
        container d = c;
        std::erase_if(d.sections, [&](const auto& s) { return s.first == drop; });
        expect_decode_error(reader_of<R>(d.build(), "t.r1cs"), {"section " + std::to_string(drop), "missing"});
    }

    // Header fields (section 1 content starts at offs[1] + 12).
    const size_t h = offs[1] + 12;
    b = good;
    put32(b, h, 48);
    expect_decode_error(reader_of<R>(b, "t.r1cs"), {"section 1 (header)", "n8 = 48"});
    b = good;
    b[h + 4] ^= 1;  // not r
    expect_decode_error(reader_of<R>(b, "t.r1cs"), {"section 1 (header)", "prime", "wrong curve"});
    b = good;
    put32(b, h + 36, 2);  // nWires < 1 + outputs + inputs
    expect_decode_error(reader_of<R>(b, "t.r1cs"), {"nWires = 2"});
    b = good;
    put32(b, h + 36 + 24, 0xffffffffu);  // absurd nConstraints: rejected before allocating
    expect_decode_error(reader_of<R>(b, "t.r1cs"), {"section 2 (constraints)", "nConstraints = 4294967295"});
    b = good;
    put32(b, h + 36 + 24, 2);  // fewer constraints than the section holds
    expect_decode_error(reader_of<R>(b, "t.r1cs"), {"section 2", "disagrees"});

    // Constraint content (section 2 content starts at offs[0] + 12): first LC is A of constraint 0.
    const size_t s2 = offs[0] + 12;
    b = good;
    put32(b, s2, 0x7fffffffu);  // absurd nTerms
    expect_decode_error(reader_of<R>(b, "t.r1cs"), {"section 2", "2147483647 terms"});
    b = good;
    put32(b, s2 + 4, 5);  // wire id == nWires
    expect_decode_error(reader_of<R>(b, "t.r1cs"), {"section 2", "wire 5"});
    b = good;
    {
        writer w;
        w.integer(fr::modulus);  // the value r itself is not canonical
        std::copy(w.b.begin(), w.b.end(), b.begin() + s2 + 8);
    }
    expect_decode_error(reader_of<R>(b, "t.r1cs"), {"section 2", "not below the modulus"});

    // Labels section of the wrong size.
    container d = c;
    d.sections[2].second.resize(32);
    expect_decode_error(reader_of<R>(d.build(), "t.r1cs"), {"section 3", "nWires = 5"});
}

TEST(io_readers_cross, r1cs_of_one_curve_is_rejected_by_the_other) {
    toy_circuit<bn128> toy;
    const bytes b = toy.r1cs().build();
    expect_decode_error(reader_of<r1cs<bls12381>>(b, "bn.r1cs"), {"bn.r1cs", "section 1", "wrong curve"});
    toy_circuit<bls12381> toy2;
    expect_decode_error(reader_of<wtns<bn128>>(toy2.wtns().build(), "bls.wtns"), {"bls.wtns", "section 1", "wrong curve"});
}

// ---- wtns -----------------------------------------------------------------------------------------

TYPED_TEST(io_readers, wtns_decodes_and_rejects_corruption) {
    using fr = typename TypeParam::fr;
    using W = wtns<TypeParam>;
    toy_circuit<TypeParam> toy;
    const container c = toy.wtns();
    const bytes good = c.build();
    auto w = W::read(source_of(good, "t.wtns"));
    ASSERT_EQ(w.values.size(), toy.witness.size());
    for (size_t i = 0; i < w.values.size(); ++i) EXPECT_EQ(w.values[i], toy.witness[i]);

    for (size_t n = 0; n < good.size(); ++n) expect_decode_error(reader_of<W>(bytes(good.begin(), good.begin() + n), "t.wtns"), {"t.wtns"});
    const auto offs = c.header_offsets();
    const size_t h = offs[0] + 12, v = offs[1] + 12;
    bytes b = good;
    put32(b, 4, 1);
    expect_decode_error(reader_of<W>(b, "t.wtns"), {"wtns version 1"});
    b = good;
    put32(b, h + 36, 0xffffffffu);  // absurd nWitness
    expect_decode_error(reader_of<W>(b, "t.wtns"), {"section 2 (witness values)", "nWitness = 4294967295"});
    b = good;
    put32(b, h + 36, 4);
    expect_decode_error(reader_of<W>(b, "t.wtns"), {"section 2", "nWitness = 4"});
    b = good;
    std::fill(b.begin() + v + 32 * 2, b.begin() + v + 32 * 3, 0xff);  // value 2 >= r
    expect_decode_error(reader_of<W>(b, "t.wtns"), {"section 2", "witness value 2", "not below the modulus"});
    b = good;
    b[v] = 2;  // w[0] must be 1
    expect_decode_error(reader_of<W>(b, "t.wtns"), {"constant ONE"});
    b = good;
    put32(b, offs[1], 3);
    expect_decode_error(reader_of<W>(b, "t.wtns"), {"section 3", "unknown"});
    (void)fr::one();
}

TYPED_TEST(io_readers, wtns_reads_long_witnesses_and_reports_the_first_bad_value) {
    using fr = typename TypeParam::fr;
    using W = wtns<TypeParam>;
    // Longer than the reader's chunks (2^12 values, read and converted in parallel), the last
    // one partial.
    const size_t n = 3 * 4096 + 17;
    std::mt19937_64 rng(11);
    std::vector<fr> values(n);
    values[0] = fr::one();
    for (size_t i = 1; i < n; ++i) values[i] = fr::random(rng);
    values[n - 1] = -fr::one();  // r - 1: the largest value below the modulus
    writer h, v;
    h.u32(32).integer(fr::modulus).u32(uint32_t(n));
    for (const fr& x : values) v.canonical(x);
    const container c{"wtns", 2, {{1, h.b}, {2, v.b}}};
    const bytes good = c.build();
    const auto w = W::read(source_of(good, "long.wtns"));
    ASSERT_EQ(w.values.size(), n);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(w.values[i], values[i]) << "value " << i;

    // Values not below r in two chunks: the earlier is reported, whichever thread finds it.
    const size_t at = c.header_offsets()[1] + 12;
    auto put_modulus = [&](bytes& b, size_t i) {
        writer m;
        m.integer(fr::modulus);  // exactly r
        std::copy(m.b.begin(), m.b.end(), b.begin() + at + 32 * i);
    };
    bytes b = good;
    put_modulus(b, 2 * 4096 + 5);
    put_modulus(b, 4096 + 3);
    expect_decode_error(reader_of<W>(b, "long.wtns"), {"section 2", "witness value 4099:", "not below the modulus"});
    b = good;
    put_modulus(b, n - 1);  // in the last, partial chunk
    expect_decode_error(reader_of<W>(b, "long.wtns"), {"witness value " + std::to_string(n - 1) + ":", "not below"});
}

// ---- zkey -----------------------------------------------------------------------------------------

TYPED_TEST(io_readers, zkey_decodes_points_and_coefficients) {
    using Z = zkey<TypeParam>;
    toy_zkey<TypeParam> toy;
    const Z z = Z::read(source_of(toy.build().build(), "t.zkey"));
    EXPECT_EQ(z.n_vars, toy.n_vars);
    EXPECT_EQ(z.n_public, toy.n_public);
    EXPECT_EQ(z.domain_size, toy.domain_size);
    EXPECT_EQ(z.domain_log2(), 3u);
    EXPECT_EQ(z.vk.alpha1, toy.header_g1[0]);
    EXPECT_EQ(z.vk.beta1, toy.header_g1[1]);
    EXPECT_EQ(z.vk.delta1, toy.header_g1[2]);
    EXPECT_EQ(z.vk.beta2, toy.header_g2[0]);
    EXPECT_EQ(z.vk.gamma2, toy.header_g2[1]);
    EXPECT_EQ(z.vk.delta2, toy.header_g2[2]);
    EXPECT_EQ(z.vk.ic, toy.ic);
    EXPECT_EQ(z.vk.n_public(), toy.n_public);
    EXPECT_EQ(z.a, toy.a);
    EXPECT_TRUE(z.a[4].is_identity());
    EXPECT_TRUE(z.b2[5].is_identity());
    EXPECT_EQ(z.b1, toy.b1);
    EXPECT_EQ(z.b2, toy.b2);
    EXPECT_EQ(z.c, toy.c);
    EXPECT_EQ(z.h, toy.h);
    ASSERT_EQ(z.coeffs.size(), toy.coeffs.size());
    for (size_t i = 0; i < z.coeffs.size(); ++i) {
        EXPECT_EQ(uint32_t(z.coeffs[i].matrix), toy.coeffs[i].matrix);
        EXPECT_EQ(z.coeffs[i].constraint, toy.coeffs[i].constraint);
        EXPECT_EQ(z.coeffs[i].signal, toy.coeffs[i].signal);
        EXPECT_EQ(z.coeffs[i].value, toy.coeffs[i].value) << "coefficient " << i << " (stored as c*R^2)";
    }
}

TYPED_TEST(io_readers, zkey_mapped_reads_the_same_key_with_aligned_sections_in_place) {
    using Z = zkey<TypeParam>;
    toy_zkey<TypeParam> toy;
    // Each 12-byte section header moves the next section by 4 bytes mod 8, and section 4's entries
    // are 12 + n8 bytes: one coefficient more flips the alignment of every point section after it.
    for (int extra = 0; extra < 2; ++extra) {
        if (extra) toy.coeffs.push_back({1, 2, 1, TypeParam::fr::one()});
        const bytes file = toy.build().build();
        const Z copied = Z::read(source_of(file, "t.zkey"));
        const Z mapped = Z::read(mapped_of(file, "t.zkey"));
        const Z copied_from_map = Z::read(mapped_of(file, "t.zkey"), zkey_read_options{.zero_copy = false});
        for (const Z* z : {&mapped, &copied_from_map}) {
            EXPECT_EQ(z->vk.ic, copied.vk.ic);
            EXPECT_EQ(z->a, copied.a);
            EXPECT_EQ(z->b1, copied.b1);
            EXPECT_EQ(z->b2, copied.b2);
            EXPECT_EQ(z->c, copied.c);
            EXPECT_EQ(z->h, copied.h);
            ASSERT_EQ(z->coeffs.size(), copied.coeffs.size());
        }
        const binfile f(source_of(file, "t.zkey"), "zkey", 1);
        auto expect_view = [&](const auto& v, uint32_t id, const char* what) {
            const bool aligned = f.section(id).offset % 8 == 0;
            EXPECT_EQ(v.is_view(), aligned) << what << ", section offset " << f.section(id).offset;
        };
        expect_view(mapped.a, 5, "A");
        expect_view(mapped.b1, 6, "B1");
        expect_view(mapped.b2, 7, "B2");
        expect_view(mapped.c, 8, "C");
        expect_view(mapped.h, 9, "H");
        EXPECT_NE(mapped.a.is_view(), mapped.b1.is_view()) << "consecutive sections alternate in alignment";
        for (const auto* v : {&copied_from_map.a, &copied_from_map.b1, &copied_from_map.c, &copied_from_map.h})
            EXPECT_FALSE(v->is_view());
        EXPECT_FALSE(copied.a.is_view());
        // The views keep the mapping alive: the key outlives every other holder of the source
        // (the file itself is gone already), and a copy of a view is a view of the same bytes.
        Z moved = Z::read(mapped_of(file, "t.zkey"));
        groth16::key_points<typename Z::g1> a = std::move(moved.a), b1 = std::move(moved.b1);
        moved = Z{};
        EXPECT_EQ(a, copied.a);
        EXPECT_EQ(b1, copied.b1);
        const auto kept = a.is_view() ? a : b1;
        EXPECT_TRUE(kept.is_view());
        // owned() copies a view into storage of its own.
        auto owned = kept;
        owned.owned();
        EXPECT_FALSE(owned.is_view());
        EXPECT_EQ(owned, kept);
    }
}

TYPED_TEST(io_readers, zkey_rejects_every_truncation_and_corruption) {
    using Z = zkey<TypeParam>;
    using fq = typename TypeParam::fq;
    using fr = typename TypeParam::fr;
    constexpr size_t n8q = sizeof(typename fq::integer);
    toy_zkey<TypeParam> toy;
    const container c = toy.build();
    const bytes good = c.build();
    for (size_t n = 0; n < good.size(); ++n) expect_decode_error(reader_of<Z>(bytes(good.begin(), good.begin() + n), "t.zkey"), {"t.zkey"});

    // File order of sections: 1, 2, 4, 3, 5, 6, 7, 8, 9, 10.
    const auto offs = c.header_offsets();
    auto content = [&](uint32_t id) {
        for (size_t i = 0; i < c.sections.size(); ++i)
            if (c.sections[i].first == id) return offs[i] + 12;
        return size_t(0);
    };
    const size_t s2 = content(2);
    const size_t counts = s2 + 4 + n8q + 4 + 32;  // nVars, nPublic, domainSize
    bytes b = good;
    put32(b, content(1), 2);
    expect_decode_error(reader_of<Z>(b, "t.zkey"), {"section 1 (protocol)", "PLONK", "not supported"});
    b = good;
    put32(b, offs[9], 11);
    expect_decode_error(reader_of<Z>(b, "t.zkey"), {"section 11", "unknown"});
    for (uint32_t drop : {2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u}) {
        container d = c;
        std::erase_if(d.sections, [&](const auto& s) { return s.first == drop; });
        expect_decode_error(reader_of<Z>(d.build(), "t.zkey"), {"section " + std::to_string(drop), "missing"});
    }
    {  // section 10 (transcript) is optional
        container d = c;
        d.sections.pop_back();
        EXPECT_NO_THROW((void)Z::read(source_of(d.build(), "t.zkey")));
    }
    b = good;
    b[s2 + 4] ^= 2;  // q of another curve
    expect_decode_error(reader_of<Z>(b, "t.zkey"), {"section 2 (Groth16 header)", "base field (q) prime", "wrong curve"});
    b = good;
    b[s2 + 4 + n8q + 4] ^= 2;
    expect_decode_error(reader_of<Z>(b, "t.zkey"), {"section 2", "scalar field (r) prime"});
    b = good;
    put32(b, s2, 40);
    expect_decode_error(reader_of<Z>(b, "t.zkey"), {"section 2", "n8 = 40"});
    b = good;
    put32(b, counts, 0xffffffffu);  // absurd nVars: section sizes disagree, nothing allocated
    expect_decode_error(reader_of<Z>(b, "t.zkey"), {"section 5 (A points)", "disagrees with the header"});
    b = good;
    put32(b, counts + 4, toy.n_vars);  // nPublic >= nVars
    expect_decode_error(reader_of<Z>(b, "t.zkey"), {"section 2", "nPublic = 6"});
    b = good;
    put32(b, counts + 8, 12);
    expect_decode_error(reader_of<Z>(b, "t.zkey"), {"section 2", "domainSize = 12 is not a power of two"});
    if constexpr (fr::two_adicity < 31) {  // BN254: 2^31 exceeds Fr's 2-adicity 28
        b = good;
        put32(b, counts + 8, 0x80000000u);
        expect_decode_error(reader_of<Z>(b, "t.zkey"), {"section 2", "2-adicity"});
    }

    // Coefficients (section 4): nCoeffs, then (matrix, constraint, signal, value).
    const size_t s4 = content(4);
    b = good;
    put32(b, s4, 0xffffffffu);
    expect_decode_error(reader_of<Z>(b, "t.zkey"), {"section 4 (coefficients)", "nCoeffs = 4294967295"});
    b = good;
    put32(b, s4 + 4, 2);
    expect_decode_error(reader_of<Z>(b, "t.zkey"), {"section 4", "coefficient 0", "matrix 2"});
    b = good;
    put32(b, s4 + 8, toy.domain_size);
    expect_decode_error(reader_of<Z>(b, "t.zkey"), {"section 4", "constraint 8"});
    b = good;
    put32(b, s4 + 12, toy.n_vars);
    expect_decode_error(reader_of<Z>(b, "t.zkey"), {"section 4", "signal 6"});
    b = good;
    std::fill(b.begin() + s4 + 16, b.begin() + s4 + 48, 0xff);
    expect_decode_error(reader_of<Z>(b, "t.zkey"), {"section 4", "not below the modulus r"});

    // Points: off the curve, or a coordinate >= q.
    const size_t s5 = content(5);
    b = good;
    b[s5 + 2 * 2 * n8q + n8q] ^= 1;  // y of A point 2
    expect_decode_error(reader_of<Z>(b, "t.zkey"), {"section 5 (A points)", "A point 2", "not on the curve"});
    EXPECT_NO_THROW((void)Z::read(source_of(b, "t.zkey"), zkey_read_options{.check_points = false}));
    // The toy's points are on the curve but (G2 at least) not in the subgroup: opt-in check.
    expect_decode_error([&] { (void)Z::read(source_of(good, "t.zkey"), zkey_read_options{.check_subgroup = true}); },
                        {"section 2", "not in the prime-order subgroup"});
    b = good;
    std::fill(b.begin() + s5, b.begin() + s5 + n8q, 0xff);
    expect_decode_error(reader_of<Z>(b, "t.zkey"), {"section 5", "A point 0", "not below the modulus q"});
    b = good;
    b[content(7) + 4 * n8q + 3] ^= 0x10;  // G2 point 1, y.c0
    expect_decode_error(reader_of<Z>(b, "t.zkey"), {"section 7 (B2 points)", "B2 point 1", "not on the curve"});
    b = good;
    b[content(9) + 7 * 2 * n8q] ^= 0x01;
    expect_decode_error(reader_of<Z>(b, "t.zkey"), {"section 9 (H points)", "H point 7"});
    b = good;
    b[s2 + 4 + n8q + 4 + 32 + 12 + 2 * n8q + 5] ^= 0x01;  // beta1
    expect_decode_error(reader_of<Z>(b, "t.zkey"), {"section 2", "beta1", "not on the curve"});
    (void)fr::one();
}

// ---- zkey: sections of many read chunks (the parallel read) --------------------------------------

namespace {

/// A zkey whose point sections span many read chunks, the last one partial, and whose section 4
/// spans three coefficient chunks and a bit. Its points cycle through 1031 random ones (a prime
/// period: a chunk read into the wrong place would not match), its coefficients are random.
/// Written with write_zkey and read back as bytes.
template <class Curve>
struct chunky_zkey {
    using Z = zkey<Curve>;
    Z key;
    bytes file;

    chunky_zkey() {
        using fr = typename Curve::fr;
        std::mt19937_64 rng(7);
        std::vector<typename Curve::g1_point> p1;
        std::vector<typename Curve::g2_point> p2;
        for (int i = 0; i < 1031; ++i) {
            p1.push_back(random_on_curve<typename Curve::g1_point>(Curve::g1_b(), rng));
            p2.push_back(random_on_curve<typename Curve::g2_point>(Curve::g2_b(), rng));
        }
        // 64 chunks of 312 points (point_chunk_for) and 35 more points.
        key.n_vars = 20003;
        key.n_public = 3;
        key.domain_size = 2048;
        key.vk = {p1[0], p1[1], p2[0], p2[1], p1[2], p2[2], {p1[3], p1[4], p1[5], p1[6]}};
        auto g1s = [&](uint64_t n, uint64_t shift) {
            std::vector<typename Curve::g1_point> v(n);
            for (uint64_t i = 0; i < n; ++i) v[i] = p1[(i + shift) % p1.size()];
            return v;
        };
        key.a = g1s(key.n_vars, 0);
        key.b1 = g1s(key.n_vars, 1);
        key.c = g1s(key.n_vars - key.n_public - 1, 2);
        key.h = g1s(key.domain_size, 3);
        key.b2.resize(key.n_vars);
        for (uint64_t i = 0; i < key.n_vars; ++i) key.b2.owned()[i] = p2[i % p2.size()];
        key.a.owned()[4097] = {};  // the identity (all-zero bytes) is accepted anywhere
        for (uint64_t i = 0; i < 3 * Z::coefficient_chunk + 5; ++i)
            key.coeffs.push_back({zkey_matrix(rng() % 2), uint32_t(rng() % key.domain_size),
                                  uint32_t(rng() % key.n_vars), fr::random(rng)});
        const auto path = std::filesystem::temp_directory_path() /
                          ("cuzk_chunky_" + std::to_string(::getpid()) + "_" + std::string(Curve::name) + ".zkey");
        write_zkey(path.string(), key);
        std::ifstream in(path, std::ios::binary);
        file.assign(std::istreambuf_iterator<char>(in), {});
        std::filesystem::remove(path);
    }

    /// One per curve for the tests below (writing it is most of their time).
    static const chunky_zkey& get() {
        static const chunky_zkey t;
        return t;
    }

    /// File offset of entry i of a section (a point, or a section 4 entry after its count).
    uint64_t offset(uint32_t section, uint64_t i) const {
        const binfile f(source_of(file, "c.zkey"), "zkey", 1);
        const uint64_t at = f.section(section).offset;
        switch (section) {
            case 4: return at + 4 + i * Z::coefficient_bytes;
            case 7: return at + i * sizeof(typename Curve::g2_point);
            default: return at + i * sizeof(typename Curve::g1_point);
        }
    }
};

}  // namespace

TYPED_TEST(io_readers, zkey_sections_of_many_chunks_read_back_exactly) {
    using Z = zkey<TypeParam>;
    const chunky_zkey<TypeParam>& t = chunky_zkey<TypeParam>::get();
    ASSERT_EQ(io::point_chunk_for(t.key.n_vars), 312u) << "the key no longer ends in a partial chunk";
    const Z z = Z::read(source_of(t.file, "c.zkey"));
    EXPECT_EQ(z.vk.ic, t.key.vk.ic);
    EXPECT_EQ(z.a, t.key.a);
    EXPECT_EQ(z.b1, t.key.b1);
    EXPECT_EQ(z.b2, t.key.b2);
    EXPECT_EQ(z.c, t.key.c);
    EXPECT_EQ(z.h, t.key.h);
    ASSERT_EQ(z.coeffs.size(), t.key.coeffs.size());
    for (size_t i = 0; i < z.coeffs.size(); ++i) {
        EXPECT_EQ(z.coeffs[i].matrix, t.key.coeffs[i].matrix) << i;
        EXPECT_EQ(z.coeffs[i].constraint, t.key.coeffs[i].constraint) << i;
        EXPECT_EQ(z.coeffs[i].signal, t.key.coeffs[i].signal) << i;
        EXPECT_EQ(z.coeffs[i].value, t.key.coeffs[i].value) << i;
    }
}

TYPED_TEST(io_readers, zkey_mapped_checks_every_point_in_place_across_chunks) {
    using Z = zkey<TypeParam>;
    const chunky_zkey<TypeParam>& t = chunky_zkey<TypeParam>::get();
    const Z z = Z::read(mapped_of(t.file, "c.zkey"));
    EXPECT_EQ(z.a, t.key.a);
    EXPECT_EQ(z.b1, t.key.b1);
    EXPECT_EQ(z.b2, t.key.b2);
    EXPECT_EQ(z.c, t.key.c);
    EXPECT_EQ(z.h, t.key.h);
    EXPECT_TRUE(z.a.is_view() || z.b1.is_view());
    // A bad point in each section (viewed or copied), past the first chunk: the mapped read names
    // the same point as the read from memory.
    const uint64_t chunk = io::point_chunk_for(t.key.n_vars);
    for (uint32_t section : {5u, 6u, 7u, 8u, 9u}) {
        bytes b = t.file;
        const size_t y = (section == 7 ? 2 : 1) * sizeof(typename TypeParam::fq);
        const uint64_t i = section == 9 ? 1025 : chunk + 3;
        b[t.offset(section, i) + y] ^= 0x01;
        expect_decode_error(reader_of<Z>(b, "c.zkey"), {"section " + std::to_string(section), " point " +
                                                        std::to_string(i) + ":", "not on the curve"});
    }
}

TYPED_TEST(io_readers, zkey_reports_the_first_bad_entry_across_chunks) {
    using Z = zkey<TypeParam>;
    const chunky_zkey<TypeParam>& t = chunky_zkey<TypeParam>::get();
    const uint64_t chunk = io::point_chunk_for(t.key.n_vars), last = t.key.n_vars - 1;
    // One copy of the file, spoilt and restored in place (copies of it cost more than reading it).
    bytes b = t.file;
    auto read_b = [&b] { (void)Z::read(std::make_shared<memory_source>(b, "c.zkey")); };
    // A point off the curve: its y's lowest bit flipped (y' = +-y is impossible, and y' stays
    // below q); flipping it again restores the point.
    auto flip = [&](uint32_t section, uint64_t i) {
        const size_t y = (section == 7 ? 2 : 1) * sizeof(typename TypeParam::fq);
        b[t.offset(section, i) + y] ^= 0x01;
    };
    for (uint64_t i : {uint64_t(0), chunk - 1, chunk, 2 * chunk + 1, last}) {
        flip(5, i);
        expect_decode_error(read_b, {"section 5 (A points)", "A point " + std::to_string(i) + ":", "not on the curve"});
        flip(5, i);
        flip(7, i);
        expect_decode_error(read_b, {"section 7 (B2 points)", "B2 point " + std::to_string(i) + ":", "not on the curve"});
        flip(7, i);
    }
    ASSERT_EQ(b, t.file);
    // Several bad points in different chunks: the first in file order is named, wherever the
    // threads found them.
    for (uint64_t i : {last, 5 * chunk + 3, 3 * chunk - 1, 40 * chunk}) flip(6, i);
    expect_decode_error(read_b, {"section 6 (B1 points)", "B1 point " + std::to_string(3 * chunk - 1) + ":"});
    // A bad point in an earlier section wins over one in a later section.
    flip(9, 2);
    flip(5, 4 * chunk);
    expect_decode_error(read_b, {"A point " + std::to_string(4 * chunk) + ":"});

    // Coefficients: a matrix of 2 at chunk edges and in the last, partial chunk.
    b = t.file;
    const uint64_t cc = Z::coefficient_chunk, n = t.key.coeffs.size();
    for (uint64_t i : {cc - 1, cc, 3 * cc, n - 1}) {
        const uint32_t matrix = uint32_t(t.key.coeffs[i].matrix);
        put32(b, t.offset(4, i), 2);
        expect_decode_error(read_b, {"section 4 (coefficients)", "coefficient " + std::to_string(i) + ":", "matrix 2"});
        put32(b, t.offset(4, i), matrix);
    }
    ASSERT_EQ(b, t.file);
    put32(b, t.offset(4, 3 * cc + 1) + 8, t.key.n_vars);  // signal = nVars
    put32(b, t.offset(4, cc + 2) + 4, t.key.domain_size);  // constraint = domainSize
    expect_decode_error(read_b, {"coefficient " + std::to_string(cc + 2) + ":", "constraint 2048"});
}

TYPED_TEST(io_readers, zkey_read_errors_inside_the_parallel_read_reach_the_caller) {
    using Z = zkey<TypeParam>;
    const chunky_zkey<TypeParam>& t = chunky_zkey<TypeParam>::get();
    // A source that fails one read in the middle of a section, as a failing disk would.
    struct failing : byte_source {
        bytes data;
        uint64_t bad;
        failing(bytes d, uint64_t at) : byte_source("f.zkey"), data(std::move(d)), bad(at) {}
        uint64_t size() const override { return data.size(); }
        void read_at(uint64_t off, void* dst, size_t n) const override {
            if (off <= bad && bad < off + n) throw error("f.zkey: injected read failure");
            memory_source(data, name()).read_at(off, dst, n);
        }
    };
    for (auto [section, i] : {std::pair{5u, uint64_t(7000)}, std::pair{7u, uint64_t(19000)}, std::pair{4u, uint64_t(5000)}}) {
        try {
            (void)Z::read(std::make_shared<failing>(t.file, t.offset(section, i)));
            ADD_FAILURE() << "section " << section << ": no error";
        } catch (const error& e) {
            EXPECT_NE(std::string(e.what()).find("injected read failure"), std::string::npos) << e.what();
        }
    }
}

TYPED_TEST(io_readers, zkey_off_curve_points_at_every_lane_of_the_8_point_test) {
    // io/point_check.hpp tests 8 points at a time (AVX-512 IFMA where the CPU has it) and the rest of
    // a chunk one at a time: a bad point in each lane of a block, in the last full block of the
    // last (partial) chunk, and in the tail after it, in a G1 and the G2 section and in C (whose
    // count, nVars - nPublic - 1, differs from A's).
    using Z = zkey<TypeParam>;
    const chunky_zkey<TypeParam>& t = chunky_zkey<TypeParam>::get();
    const uint64_t chunk = io::point_chunk_for(t.key.n_vars), n = t.key.n_vars;
    const uint64_t last_chunk = (n - 1) / chunk * chunk, tail = last_chunk + (n - last_chunk) / 8 * 8;
    ASSERT_LT(tail, n) << "the last chunk no longer ends in a tail of fewer than 8 points";
    bytes b = t.file;
    auto read_b = [&b] { (void)Z::read(std::make_shared<memory_source>(b, "c.zkey")); };
    auto flip = [&](uint32_t section, uint64_t i) {
        const size_t y = (section == 7 ? 2 : 1) * sizeof(typename TypeParam::fq);
        b[t.offset(section, i) + y] ^= 0x01;
    };
    const char* names[] = {"", "", "", "", "", "A point ", "", "B2 point ", "C point "};
    for (uint32_t section : {5u, 7u, 8u}) {
        const uint64_t count = section == 8 ? t.key.c.size() : n;
        std::vector<uint64_t> at = {1, 2, 3, 4, 5, 6, 7, 8, 15, chunk + 7, tail - 1, tail, count - 1};
        for (uint64_t i : at) {
            if (i >= count) continue;
            flip(section, i);
            expect_decode_error(read_b, {names[section] + std::to_string(i) + ":", "not on the curve"});
            flip(section, i);
        }
    }
    ASSERT_EQ(b, t.file);
    (void)Z::read(std::make_shared<memory_source>(b, "c.zkey"));
}

namespace {

/// The base field of F: F itself, or Fp for Fp2.
template <class F>
struct base_field_of {
    using type = F;
};
template <class F>
    requires requires { typename F::base; }
struct base_field_of<F> {
    using type = typename F::base;
};

/// first_off_curve_vartime against affine::is_on_curve: arrays of 1 .. 40 points (on the curve,
/// the identity, negated, and off it) with bad points in every lane of a block and in the tail.
template <class Point, class F, class Rng>
void check_first_off_curve(const F& b, Rng& rng) {
    std::vector<Point> on;
    for (int i = 0; i < 16; ++i) on.push_back(random_on_curve<Point>(b, rng));
    auto off = [&] {
        Point q = on[rng() % on.size()];
        if (rng() % 2) return Point{F::random(rng), F::random(rng)};
        q.y = q.y + q.y;  // 2y: on the curve only if y = 0, which no point here has
        return q;
    };
    // The largest canonical coordinates: q - 1 in every base-field coordinate (off the curve).
    Point top{};
    {
        using base = typename base_field_of<F>::type;
        typename base::integer m = base::modulus;
        m.limb[0] -= 1;
        const base v = base::from_montgomery_unchecked(m);
        if constexpr (requires { top.x.c1; }) top = Point{F{v, v}, F{v, v}};
        else top = Point{v, v};
    }
    ASSERT_FALSE(top.is_on_curve());
    for (size_t n = 1; n <= 40; ++n) {
        std::vector<Point> pts(n);
        for (auto& p : pts) {
            switch (rng() % 4) {
                case 0: p = Point{}; break;
                case 1: p = -on[rng() % on.size()]; break;
                default: p = on[rng() % on.size()]; break;
            }
        }
        EXPECT_EQ(first_off_curve_vartime(pts.data(), n), n) << n;
        for (size_t i = 0; i < n; ++i) {
            const Point keep = pts[i];
            pts[i] = i % 3 == 0 ? top : off();
            ASSERT_FALSE(pts[i].is_on_curve());
            EXPECT_EQ(first_off_curve_vartime(pts.data(), n), i) << "n " << n << ", bad at " << i;
            EXPECT_EQ(first_off_curve_vartime(pts.data(), n, curve_check_path::scalar), i);
            if (i + 5 < n) {  // a second bad point later does not hide the first
                const Point keep2 = pts[i + 5];
                pts[i + 5] = off();
                EXPECT_EQ(first_off_curve_vartime(pts.data(), n), i);
                pts[i + 5] = keep2;
            }
            pts[i] = keep;
        }
    }
}

}  // namespace

TYPED_TEST(io_readers, first_off_curve_matches_the_scalar_test_in_every_lane) {
    std::mt19937_64 rng(42);
    std::printf("[          ] 8-point IFMA test on this CPU: G1 %s, G2 %s\n",
                curve_check_vectorised<typename TypeParam::g1_point>() ? "yes" : "no",
                curve_check_vectorised<typename TypeParam::g2_point>() ? "yes" : "no");
    check_first_off_curve<typename TypeParam::g1_point>(TypeParam::g1_b(), rng);
    check_first_off_curve<typename TypeParam::g2_point>(TypeParam::g2_b(), rng);
}

// ---- zkey coefficient conversion against an independent computation ------------------------------

TEST(io_readers_cross, zkey_coefficient_conversion_matches_the_definition) {
    // The file stores s = c * 2^512 mod r; the reader must return c. Check with c = 1: s = 2^512 mod r,
    // computed here by repeated doubling (independent of Montgomery arithmetic).
    using fr = bn128::fr;
    fr s = fr::one();
    for (int i = 0; i < 512; ++i) s = s.dbl();
    toy_zkey<bn128> toy;
    toy.coeffs = {{0, 0, 0, fr::one()}};
    const auto z = zkey<bn128>::read(source_of(toy.build().build(), "t.zkey"));
    ASSERT_EQ(z.coeffs.size(), 1u);
    EXPECT_TRUE(z.coeffs[0].value.is_one());
    EXPECT_EQ(s, toy_zkey<bn128>::r_squared());
}
