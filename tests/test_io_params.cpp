// SPDX-License-Identifier: MIT OR Apache-2.0
// Filecoin/bellperson .params files (io/bellperson_params.hpp). The oracles: the layout as
// bellperson documents it in code (params.rs / verifying_key.rs write order, assembled here with
// the zcash encoder that test_ec_zcash checks against the published k*G vectors), those vectors
// themselves, the zcash decoder's accept/reject decisions, H points computed from the toxic waste,
// proofs that the pairing verifier accepts, and coreutils' b2sum for the digest.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/synthetic_circuit.hpp"
#include "cuzk/groth16/test_setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/bellperson_params.hpp"
#include "test_ec_util.hpp"
#include "test_vectors.hpp"

namespace {

using namespace cuzk;
using C = bls12_381::curve;
using fr = bls12_381::fr;
using G1 = bls12_381::g1;
using G2 = bls12_381::g2;
using bytes = std::vector<uint8_t>;
namespace fs = std::filesystem;

// ---- keys ---------------------------------------------------------------------------------------

/// Every variable in a non-empty A and B column, so bellperson keeps every A and B point.
groth16::circuit<fr> dense_circuit() {
    groth16::circuit_builder<fr> cb;
    auto p = cb.add_public(fr::from_u64(3));
    auto x = cb.add_witness(fr::from_u64(2));
    auto s = cb.add_witness(fr::from_u64(25));
    auto t = cb.add_witness(fr::from_u64(625));
    const auto one = groth16::circuit_builder<fr>::one();
    using lc = groth16::linear_combination<fr>;
    cb.enforce(lc(p) + x, lc(p) + x, s);
    cb.enforce(s, s, t);
    cb.enforce(t, one, t);
    cb.enforce(one, t, t);
    return std::move(cb).build();
}

/// The INSECURE test key on bellperson's domain (as every real file is) with H computed directly
/// in the monomial basis from the toxic waste: H_k = [tau^k Z(tau) / delta]_1, k < n (what
/// bellperson's generator.rs computes).
groth16::proving_key<C> monomial_key(const groth16::r1cs<fr>& cs, uint64_t seed,
                                     ntt::domain_roots roots = ntt::domain_roots::bellperson) {
    const auto tw = groth16::toxic_waste_from_seed<fr>(seed);
    auto pk = groth16::setup_from_toxic_waste<C>(cs, tw, roots);
    const size_t n = cs.domain_size();
    std::vector<fr> s(n);
    s[0] = (tw.tau.pow_vartime(uint64_t(n)) - fr::one()) * tw.delta.inverse();
    for (size_t k = 1; k < n; ++k) s[k] = s[k - 1] * tw.tau;
    groth16::detail::fixed_base_table<G1>(affine<G1>::generator()).mul_all(s, pk.h.owned());
    pk.h_convention = groth16::h_basis::monomial;
    return pk;
}

/// Which variables have a non-empty A (B) column, from the r1cs (inputs always have A: the
/// input rows), as a prover's density tracker records it.
std::pair<std::vector<bool>, std::vector<bool>> densities(const groth16::r1cs<fr>& cs) {
    std::vector<bool> a(cs.num_variables, false), b(cs.num_variables, false);
    for (size_t j = 0; j < cs.num_constraints(); ++j) {
        for (uint32_t c : cs.a.columns(j)) a[c] = true;
        for (uint32_t c : cs.b.columns(j)) b[c] = true;
    }
    for (size_t k = 0; k <= cs.num_public; ++k) a[k] = true;
    return {a, b};
}

// ---- the layout as documented -------------------------------------------------------------------

void put_u32(bytes& out, uint32_t v) {
    for (int i = 3; i >= 0; --i) out.push_back(uint8_t(v >> (8 * i)));
}
template <class G>
void put_point(bytes& out, const affine<G>& p) {
    const auto e = zcash::serialize_uncompressed(p);
    out.insert(out.end(), e.begin(), e.end());
}
template <class Points>  // a std::vector or a groth16::key_points of affine points
void put_section(bytes& out, const Points& pts, size_t n, bool skip_identity) {
    size_t count = 0;
    for (size_t i = 0; i < n; ++i) count += !(skip_identity && pts[i].is_identity());
    put_u32(out, uint32_t(count));
    for (size_t i = 0; i < n; ++i)
        if (!(skip_identity && pts[i].is_identity())) put_point(out, pts[i]);
}
/// VK (alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2, IC), then H without its last
/// point, L, and A, B_G1, B_G2 without identities (generator.rs filters them).
bytes documented_layout(const groth16::proving_key<C>& pk) {
    bytes out;
    put_point(out, pk.vk.alpha_g1);
    put_point(out, pk.beta_g1);
    put_point(out, pk.vk.beta_g2);
    put_point(out, pk.vk.gamma_g2);
    put_point(out, pk.delta_g1);
    put_point(out, pk.vk.delta_g2);
    put_section(out, pk.vk.ic, pk.vk.ic.size(), false);
    put_section(out, pk.h, pk.h.size() - 1, false);
    put_section(out, pk.l, pk.l.size(), false);
    put_section(out, pk.a, pk.a.size(), true);
    put_section(out, pk.b_g1, pk.b_g1.size(), true);
    put_section(out, pk.b_g2, pk.b_g2.size(), true);
    return out;
}

// ---- helpers --------------------------------------------------------------------------------------

struct temp_file {
    fs::path path;
    explicit temp_file(const std::string& tag)
        : path(fs::temp_directory_path() / ("cuzk_params_" + std::to_string(::getpid()) + "_" + tag)) {}
    ~temp_file() {
        std::error_code ec;
        fs::remove(path, ec);
    }
    void write(const bytes& b) const {
        std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
    }
};

/// The decode_error message of reading `b`, or "" if it reads. The same bytes read from a file
/// (the big sections through pread, not the mapping) must give the same message, the name aside.
std::string read_error(const bytes& b, const io::bellperson_read_options& opt = {}) {
    auto message = [](auto&& read) -> std::string {
        try {
            read();
            return "";
        } catch (const decode_error& e) {
            return e.what();
        }
    };
    const std::string from_memory =
        message([&] { (void)io::read_bellperson_params(std::span<const uint8_t>(b), "t.params", opt); });
    temp_file f("read_error.params");
    f.write(b);
    const std::string path = f.path.string();
    std::string from_file = message([&] { (void)io::read_bellperson_params(path, opt); });
    if (from_file.rfind(path, 0) == 0) from_file = "t.params" + from_file.substr(path.size());
    EXPECT_EQ(from_file, from_memory) << "the file reader and the memory reader disagree";
    return from_memory;
}

/// got (possibly density-compressed) against a dense key, via the dense form of got.
void expect_keys_equal(const groth16::proving_key<C>& compressed_or_dense, const groth16::proving_key<C>& want) {
    const auto got = groth16::to_dense(compressed_or_dense);
    EXPECT_EQ(compressed_or_dense.roots, want.roots);
    EXPECT_EQ(got.vk.alpha_g1, want.vk.alpha_g1);
    EXPECT_EQ(got.vk.beta_g2, want.vk.beta_g2);
    EXPECT_EQ(got.vk.gamma_g2, want.vk.gamma_g2);
    EXPECT_EQ(got.vk.delta_g2, want.vk.delta_g2);
    EXPECT_EQ(got.vk.ic, want.vk.ic);
    EXPECT_EQ(got.beta_g1, want.beta_g1);
    EXPECT_EQ(got.delta_g1, want.delta_g1);
    EXPECT_EQ(got.a, want.a);
    EXPECT_EQ(got.b_g1, want.b_g1);
    EXPECT_EQ(got.b_g2, want.b_g2);
    EXPECT_EQ(got.l, want.l);
    ASSERT_EQ(got.h.size(), want.h.size());
    EXPECT_TRUE(std::equal(got.h.begin(), got.h.end() - 1, want.h.begin()));  // the file has n - 1
    EXPECT_TRUE(got.h.back().is_identity());
    EXPECT_EQ(got.h_convention, groth16::h_basis::monomial);
}

/// A proof with `pk` verifies against its verifying key (the pairing check is the oracle).
void expect_proof_verifies(const groth16::proving_key<C>& pk, const groth16::circuit<fr>& ckt) {
    auto shared = std::make_shared<const groth16::proving_key<C>>(pk);
    groth16::prover<C> p(shared);
    std::mt19937_64 rng(5);
    const auto pi = p.prove(ckt.system, ckt.assignment, rng);
    EXPECT_TRUE(groth16::verify(shared->vk, ckt.public_inputs(), pi));
}

struct fixture_keys {
    groth16::circuit<fr> dense = dense_circuit();
    groth16::circuit<fr> synth = groth16::synthetic_circuit<fr>(
        {.log_domain = 6, .num_public = 3, .bit_share = 0.7, .seed = 11});
    groth16::proving_key<C> dense_pk = monomial_key(dense.system, 21);
    groth16::proving_key<C> synth_pk = monomial_key(synth.system, 22);
    bytes dense_file = io::bellperson_params_bytes(dense_pk);
    bytes synth_file = io::bellperson_params_bytes(synth_pk);
};
const fixture_keys& keys() {
    static const fixture_keys k;
    return k;
}

/// The first point of a density-compressed section: the first non-identity of the key's vector.
template <class G>
affine<G> first_present(const groth16::key_points<affine<G>>& v) {
    for (const auto& p : v)
        if (!p.is_identity()) return p;
    return affine<G>::identity();
}

/// Offset of point `i` of a section.
uint64_t at(const io::bellperson_section& s, uint64_t i) { return s.offset + i * s.point_size; }

}  // namespace

// ---- layout and round trip --------------------------------------------------------------------------

TEST(BellpersonParams, WriterProducesTheDocumentedLayout) {
    const auto& k = keys();
    EXPECT_EQ(k.dense_file, documented_layout(k.dense_pk));
    EXPECT_EQ(k.synth_file, documented_layout(k.synth_pk));
    // The dense circuit: 2 inputs, 3 aux, domain 8; sizes from the documented layout.
    const auto l = io::scan_bellperson_params(k.dense_file);
    EXPECT_EQ(l.ic.count, 2u);
    EXPECT_EQ(l.h.count, 7u);
    EXPECT_EQ(l.l.count, 3u);
    EXPECT_EQ(l.a.count, 5u);
    EXPECT_EQ(l.b_g1.count, 5u);
    EXPECT_EQ(l.b_g2.count, 5u);
    EXPECT_TRUE(l.is_dense());
    EXPECT_EQ(l.domain_size(), 8u);
    EXPECT_EQ(l.ic.offset, 864u + 4);
    EXPECT_EQ(k.dense_file.size(), 864u + 6 * 4 + 96 * (2 + 7 + 3 + 5 + 5) + 192 * 5);
    // The synthetic circuit leaves columns empty: bellperson's file holds fewer A and B points.
    const auto s = io::scan_bellperson_params(k.synth_file);
    EXPECT_FALSE(s.is_dense());
    EXPECT_LT(s.b_g1.count, s.num_variables());
    EXPECT_EQ(s.b_g1.count, s.b_g2.count);
    EXPECT_EQ(s.domain_size(), 64u);
    EXPECT_EQ(s.file_size, k.synth_file.size());
}

TEST(BellpersonParams, DenseRoundTripProvesAndVerifies) {
    const auto& k = keys();
    temp_file f("dense.params");
    io::write_bellperson_params(f.path.string(), k.dense_pk);
    auto pk = io::read_bellperson_proving_key(f.path.string(), {.check_subgroup = true});
    expect_keys_equal(pk, k.dense_pk);
    expect_proof_verifies(pk, k.dense);
}

TEST(BellpersonParams, DensityCompressedRoundTripProvesAndVerifies) {
    const auto& k = keys();
    auto p = io::read_bellperson_params(std::span<const uint8_t>(k.synth_file));
    EXPECT_THROW((void)io::to_proving_key(io::bellperson_params(p)), invalid_argument);
    const auto [a, b] = densities(k.synth.system);
    const size_t file_a = p.a.size(), file_b = p.b_g1.size();
    auto pk = io::to_proving_key(std::move(p), a, b);
    // The key stays compressed: the file's points, the maps beside them.
    EXPECT_FALSE(pk.is_dense());
    EXPECT_EQ(pk.a.size(), file_a);
    EXPECT_EQ(pk.b_g1.size(), file_b);
    EXPECT_EQ(pk.b_g2.size(), file_b);
    EXPECT_EQ(pk.a_density, groth16::density_map::from_bools(a));
    EXPECT_EQ(pk.b_density, groth16::density_map::from_bools(b));
    EXPECT_EQ(pk.roots, ntt::domain_roots::bellperson);
    expect_keys_equal(pk, k.synth_pk);
    expect_proof_verifies(pk, k.synth);
    // The compressed path proves the dense path's proof (same randomness).
    auto compressed = std::make_shared<const groth16::proving_key<C>>(pk);
    auto dense = std::make_shared<const groth16::proving_key<C>>(groth16::to_dense(pk));
    std::mt19937_64 r1(12), r2(12);
    EXPECT_EQ(groth16::prover<C>(compressed).prove(k.synth.system, k.synth.assignment, r1),
              groth16::prover<C>(dense).prove(k.synth.system, k.synth.assignment, r2));
    // Written back from the compressed key: the same file.
    EXPECT_EQ(io::bellperson_params_bytes(pk), k.synth_file);
}

// A PoRep-shaped partition (groth16::porep_shape: Filecoin's densities, 97% bits) keyed as
// bellperson would: the file is density-compressed like a real Filecoin key (A ~99.7%, B ~25% of
// the aux variables), reads back with the circuit's density maps, and its proofs verify and equal
// the dense key's (same randomness). cuzk-prove --porep --write-params writes this kind of file.
TEST(BellpersonParams, PorepShapedPartitionKeyRoundTrip) {
    const auto ckt = groth16::synthetic_circuit<fr>(groth16::porep_shape(9, 4));
    const auto dense_pk = monomial_key(ckt.system, 23);
    temp_file f("porep.params");
    io::write_bellperson_params(f.path.string(), dense_pk);
    auto p = io::read_bellperson_params(f.path.string());
    EXPECT_FALSE(p.layout.is_dense());
    const size_t nv = ckt.system.num_variables, aux = nv - ckt.system.num_public - 1;
    EXPECT_GT(double(p.a.size() - ckt.system.num_public - 1), 0.97 * double(aux));
    EXPECT_LT(double(p.b_g1.size()), 0.35 * double(nv));
    EXPECT_GT(double(p.b_g1.size()), 0.15 * double(nv));
    const auto [a, b] = densities(ckt.system);
    const auto pk = std::make_shared<const groth16::proving_key<C>>(io::to_proving_key(std::move(p), a, b));
    EXPECT_FALSE(pk->is_dense());
    expect_proof_verifies(*pk, ckt);
    auto dense = std::make_shared<const groth16::proving_key<C>>(dense_pk);
    std::mt19937_64 r1(13), r2(13);
    EXPECT_EQ(groth16::prover<C>(pk).prove(ckt.system, ckt.assignment, r1),
              groth16::prover<C>(dense).prove(ckt.system, ckt.assignment, r2));
}

TEST(BellpersonParams, TheFileDoesNotRecordItsDomain) {
    // A key cuzk writes from a setup on its default (snarkjs) roots: read as bellperson's (the
    // default, as for every real file) its proofs fail; read with the roots it was made on they verify.
    const auto& k = keys();
    const auto snarkjs_pk = monomial_key(k.synth.system, 23, ntt::domain_roots::snarkjs);
    const bytes file = io::bellperson_params_bytes(snarkjs_pk);
    const auto [a, b] = densities(k.synth.system);
    auto read = [&] { return io::read_bellperson_params(std::span<const uint8_t>(file)); };
    auto as_bellperson = std::make_shared<const groth16::proving_key<C>>(io::to_proving_key(read(), a, b));
    auto as_snarkjs =
        std::make_shared<const groth16::proving_key<C>>(io::to_proving_key(read(), a, b, ntt::domain_roots::snarkjs));
    std::mt19937_64 r1(2), r2(2);
    const auto bad = groth16::prover<C>(as_bellperson).prove(k.synth.system, k.synth.assignment, r1);
    const auto good = groth16::prover<C>(as_snarkjs).prove(k.synth.system, k.synth.assignment, r2);
    EXPECT_EQ(groth16::verify_verdict(as_bellperson->vk, k.synth.public_inputs(), bad),
              groth16::verdict::pairing_check_failed);
    EXPECT_TRUE(groth16::verify(as_snarkjs->vk, k.synth.public_inputs(), good));
}

TEST(BellpersonParams, DensityBitmapsMustMatchTheFile) {
    const auto& k = keys();
    const auto [a, b] = densities(k.synth.system);
    auto read = [&] { return io::read_bellperson_params(std::span<const uint8_t>(k.synth_file)); };
    auto short_a = a;
    short_a.pop_back();
    EXPECT_THROW((void)io::to_proving_key(read(), short_a, b), invalid_argument);
    auto flipped = b;
    for (size_t i = 0; i < flipped.size(); ++i)
        if (!flipped[i]) {
            flipped[i] = true;
            break;
        }
    try {
        (void)io::to_proving_key(read(), a, flipped);
        ADD_FAILURE() << "accepted";
    } catch (const invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("B (G1) density has"), std::string::npos) << e.what();
    }
    // Bitmaps that match the file's counts but not the circuit: the prover refuses them.
    auto moved = b;
    size_t on = 0, off = 0;
    while (!moved[on]) ++on;
    while (moved[off]) ++off;
    moved[on] = false;
    moved[off] = true;
    auto pk = std::make_shared<const groth16::proving_key<C>>(io::to_proving_key(read(), a, moved));
    std::mt19937_64 rng(1);
    EXPECT_THROW(groth16::prover<C>(pk).prove(k.synth.system, k.synth.assignment, rng), invalid_argument);
}

TEST(BellpersonParams, LagrangeKeysConvertToTheToxicWasteMonomialBasis) {
    const auto& k = keys();
    // same toxic waste as synth_pk, on bellperson's domain
    auto lagrange = groth16::test_setup_insecure<C>(k.synth.system, 22, ntt::domain_roots::bellperson);
    ASSERT_EQ(lagrange.h_convention, groth16::h_basis::lagrange_odd_coset);
    EXPECT_THROW((void)io::bellperson_params_bytes(lagrange), invalid_argument);
    io::to_monomial_h(lagrange);
    EXPECT_EQ(lagrange.h, k.synth_pk.h);
    EXPECT_EQ(io::bellperson_params_bytes(lagrange), k.synth_file);
    // The monomial points do not depend on the roots: the snarkjs-domain key's Lagrange H (other
    // points) converts to the same H.
    auto snarkjs = groth16::test_setup_insecure<C>(k.synth.system, 22, ntt::domain_roots::snarkjs);
    EXPECT_NE(snarkjs.h, groth16::test_setup_insecure<C>(k.synth.system, 22, ntt::domain_roots::bellperson).h);
    io::to_monomial_h(snarkjs);
    EXPECT_EQ(snarkjs.h, k.synth_pk.h);
}

TEST(BellpersonParams, WriterRejectsKeysBellpersonCouldNotRead) {
    auto pk = keys().dense_pk;
    pk.l.owned()[1] = affine<G1>::identity();  // an unconstrained variable
    try {
        (void)io::bellperson_params_bytes(pk);
        ADD_FAILURE() << "accepted";
    } catch (const invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("L point 1"), std::string::npos) << e.what();
    }
    pk = keys().dense_pk;
    pk.b_g2.pop_back();
    EXPECT_THROW((void)io::bellperson_params_bytes(pk), invalid_argument);
    pk = keys().dense_pk;
    pk.h.pop_back();  // 7 points: not a power of two
    EXPECT_THROW((void)io::bellperson_params_bytes(pk), invalid_argument);
}

TEST(BellpersonParams, VkFileIsTheHeadOfTheParamsFile) {
    const auto& k = keys();
    const bytes vk = io::bellperson_vk_bytes(k.synth_pk);
    const auto l = io::scan_bellperson_params(k.synth_file);
    ASSERT_EQ(vk.size(), l.ic.end());
    EXPECT_TRUE(std::equal(vk.begin(), vk.end(), k.synth_file.begin()));
    const auto v = io::read_bellperson_vk(std::span<const uint8_t>(vk));
    EXPECT_EQ(v.key.alpha_g1, k.synth_pk.vk.alpha_g1);
    EXPECT_EQ(v.key.delta_g2, k.synth_pk.vk.delta_g2);
    EXPECT_EQ(v.key.ic, k.synth_pk.vk.ic);
    EXPECT_EQ(v.beta_g1, k.synth_pk.beta_g1);
    EXPECT_EQ(v.delta_g1, k.synth_pk.delta_g1);
    bytes longer = vk;
    longer.push_back(0);
    EXPECT_THROW((void)io::read_bellperson_vk(std::span<const uint8_t>(longer)), decode_error);
    bytes shorter(vk.begin(), vk.end() - 1);
    EXPECT_THROW((void)io::read_bellperson_vk(std::span<const uint8_t>(shorter)), decode_error);
}

// ---- truncation and counts ----------------------------------------------------------------------------

TEST(BellpersonParams, TruncatedAtEverySectionBoundaryAndInsideBG2) {
    const bytes& f = keys().synth_file;
    const auto l = io::scan_bellperson_params(f);
    ASSERT_EQ(read_error(f), "");
    std::vector<std::pair<uint64_t, std::string>> cuts = {
        {0, "verifying key"}, {100, "verifying key"}, {863, "verifying key"}};
    for (const io::bellperson_section* s : {&l.ic, &l.h, &l.l, &l.a, &l.b_g1, &l.b_g2}) {
        const std::string name = std::string("section ") + s->name + ":";
        cuts.push_back({s->offset - 4, name});  // where its count would start
        cuts.push_back({s->offset - 1, name});  // inside the count
        cuts.push_back({s->offset, name});      // the count, no points
        cuts.push_back({s->offset + 1, name});  // inside the first point
        cuts.push_back({s->end() - 1, name});   // one byte short of the section
    }
    // Inside B_G2: supraseal's check adds B_G2 at 96 bytes a point, so it passes this file.
    cuts.push_back({l.b_g2.offset + l.b_g2.count * 96, "section B_G2:"});
    cuts.push_back({l.b_g2.end() - 192, "section B_G2:"});
    cuts.push_back({l.b_g2.end() - 96, "section B_G2:"});
    for (const auto& [size, where] : cuts) {
        SCOPED_TRACE(testing::Message() << "cut at " << size);
        const bytes t(f.begin(), f.begin() + std::ptrdiff_t(size));
        const std::string e = read_error(t);
        EXPECT_NE(e.find(where), std::string::npos) << e;
        EXPECT_NE(e.find("truncated"), std::string::npos) << e;
    }
    bytes longer = f;
    longer.push_back(0);
    EXPECT_NE(read_error(longer).find("unexpected bytes after the end of section B_G2"), std::string::npos);
}

TEST(BellpersonParams, CountLargerThanTheFileIsRejectedBeforeAllocating) {
    const bytes& f = keys().synth_file;
    const auto l = io::scan_bellperson_params(f);
    for (const io::bellperson_section* s : {&l.ic, &l.h, &l.l, &l.a, &l.b_g1, &l.b_g2}) {
        for (uint32_t count : {uint32_t(0xffffffff), uint32_t(0x7fffffff)}) {
            SCOPED_TRACE(testing::Message() << s->name << " count " << count);
            bytes t = f;
            io::bellperson_detail::put_be32(t.data() + s->offset - 4, count);
            // a decode_error, not bad_alloc: 2^32 points would be 412 GB
            const std::string e = read_error(t);
            EXPECT_NE(e.find(std::string("section ") + s->name + ": count " + std::to_string(count)), std::string::npos)
                << e;
        }
        // One point too many: the sections after it are misread, and something must not fit.
        for (uint32_t count : {uint32_t(s->count + 1), uint32_t(s->count - 1)}) {
            bytes t = f;
            io::bellperson_detail::put_be32(t.data() + s->offset - 4, count);
            EXPECT_NE(read_error(t), "") << s->name << " count " << count;
        }
    }
}

// ---- points ------------------------------------------------------------------------------------------------

namespace {
/// f with the point of section s at index i replaced by `enc`.
template <size_t N>
bytes with_point(const bytes& f, const io::bellperson_section& s, uint64_t i, const std::array<uint8_t, N>& enc) {
    EXPECT_EQ(N, s.point_size);
    bytes t = f;
    std::copy(enc.begin(), enc.end(), t.begin() + std::ptrdiff_t(at(s, i)));
    return t;
}
}  // namespace

TEST(BellpersonParams, IdentityRejectedOutsideTheVerifyingKeyAcceptedInIt) {
    const bytes& f = keys().synth_file;
    const auto l = io::scan_bellperson_params(f);
    const auto inf1 = zcash::serialize_uncompressed(affine<G1>::identity());
    const auto inf2 = zcash::serialize_uncompressed(affine<G2>::identity());
    ASSERT_EQ(inf1[0], 0x40);
    for (const io::bellperson_section* s : {&l.ic, &l.h, &l.l, &l.a, &l.b_g1}) {
        const std::string e = read_error(with_point(f, *s, 1, inf1));
        EXPECT_NE(e.find(std::string(s->name) + " point 1"), std::string::npos) << e;
        EXPECT_NE(e.find("point at infinity"), std::string::npos) << e;
    }
    EXPECT_NE(read_error(with_point(f, l.b_g2, 0, inf2)).find("B_G2 point 0"), std::string::npos);
    // alpha_g1 at byte 0 and gamma_g2 at 384: bellperson's VerifyingKey::read accepts the identity.
    bytes t = f;
    std::copy(inf1.begin(), inf1.end(), t.begin());
    std::copy(inf2.begin(), inf2.end(), t.begin() + 384);
    const auto p = io::read_bellperson_params(std::span<const uint8_t>(t));
    EXPECT_TRUE(p.vk.key.alpha_g1.is_identity());
    EXPECT_TRUE(p.vk.key.gamma_g2.is_identity());
    EXPECT_EQ(p.vk.key.beta_g2, keys().synth_pk.vk.beta_g2);
    // an infinity flag with any other bit set (the sort bit, a stray bit, a non-zero byte)
    for (auto [byte, value] : {std::pair{0, 0x60}, std::pair{0, 0x41}, std::pair{95, 0x01}}) {
        auto bad = inf1;
        bad[size_t(byte)] = uint8_t(value);
        EXPECT_NE(read_error(with_point(f, l.h, 0, bad)).find("infinity flag set but"), std::string::npos);
    }
}

TEST(BellpersonParams, FlagBits) {
    const bytes& f = keys().synth_file;
    const auto l = io::scan_bellperson_params(f);
    const auto& pk = keys().synth_pk;
    auto h0 = zcash::serialize_uncompressed(pk.h[0]);
    auto b0 = zcash::serialize_uncompressed(first_present(pk.b_g2));
    for (uint8_t flag : {uint8_t(0x80), uint8_t(0xa0), uint8_t(0xc0)}) {
        auto e1 = h0;
        auto e2 = b0;
        e1[0] |= flag;
        e2[0] |= flag;
        EXPECT_NE(read_error(with_point(f, l.h, 0, e1)).find("compression flag is set"), std::string::npos);
        EXPECT_NE(read_error(with_point(f, l.b_g2, 0, e2)).find("compression flag is set"), std::string::npos);
    }
    h0[0] |= 0x20;
    const std::string e = read_error(with_point(f, l.h, 0, h0));
    EXPECT_NE(e.find("H point 0"), std::string::npos) << e;
    EXPECT_NE(e.find("sort flag"), std::string::npos) << e;
}

TEST(BellpersonParams, CoordinatesNotBelowP) {
    const bytes& f = keys().synth_file;
    const auto l = io::scan_bellperson_params(f);
    const auto& pk = keys().synth_pk;
    std::array<uint8_t, 48> p{};
    for (size_t i = 0; i < 48; ++i) p[47 - i] = uint8_t(bls12_381::fp::modulus.limb[i / 8] >> (8 * (i % 8)));
    ASSERT_EQ(p[0] & 0xe0, 0);  // p < 2^381: no flag bits, so x = p is a pure range error
    auto l0 = zcash::serialize_uncompressed(pk.l[0]);
    std::copy(p.begin(), p.end(), l0.begin());
    EXPECT_NE(read_error(with_point(f, l.l, 0, l0)).find("x is not below the field modulus p"), std::string::npos);
    l0 = zcash::serialize_uncompressed(pk.l[0]);
    std::copy(p.begin(), p.end(), l0.begin() + 48);
    EXPECT_NE(read_error(with_point(f, l.l, 0, l0)).find("y is not below the field modulus p"), std::string::npos);
    for (size_t slot : {0, 1, 2, 3}) {  // x.c1, x.c0, y.c1, y.c0 of a G2 point
        auto b = zcash::serialize_uncompressed(first_present(pk.b_g2));
        std::copy(p.begin(), p.end(), b.begin() + std::ptrdiff_t(48 * slot));
        EXPECT_NE(read_error(with_point(f, l.b_g2, 0, b)).find(slot < 2 ? "x is not below" : "y is not below"),
                  std::string::npos)
            << slot;
    }
}

TEST(BellpersonParams, PointOffTheCurveAndOfOrderThree) {
    const bytes& f = keys().synth_file;
    const auto l = io::scan_bellperson_params(f);
    const auto& pk = keys().synth_pk;
    auto a = pk.a[2];
    a.y += bls12_381::fp::one();
    std::string e = read_error(with_point(f, l.a, 2, zcash::serialize_uncompressed(a)));
    EXPECT_NE(e.find("A point 2"), std::string::npos) << e;
    EXPECT_NE(e.find("not on the curve"), std::string::npos) << e;
    auto b = first_present(pk.b_g2);
    b.x += bls12_381::fp2::one();
    EXPECT_NE(read_error(with_point(f, l.b_g2, 0, zcash::serialize_uncompressed(b))).find("not on the curve"),
              std::string::npos);
    // (0, 0) without the infinity flag is not the identity and not on the curve
    std::array<uint8_t, 96> zero{};
    EXPECT_NE(read_error(with_point(f, l.h, 0, zero)).find("not on the curve"), std::string::npos);
    // (0, 2): on the curve, order 3. The zcash decoder's unchecked path takes it; blst and the reader do not.
    const affine<G1> t{bls12_381::fp::zero(), bls12_381::fp::from_u64(2)};
    ASSERT_TRUE(t.is_on_curve());
    EXPECT_NO_THROW((void)zcash::deserialize_uncompressed_unchecked<G1>(zcash::serialize_uncompressed(t)));
    EXPECT_NE(read_error(with_point(f, l.h, 0, zcash::serialize_uncompressed(t))).find("order 3"), std::string::npos);
}

// decode_points tests the curve 8 points at a time inside each chunk of a section (count / 64
// points, at most 4096; io/point_check.hpp where the CPU has AVX-512 IFMA): a point off the curve in
// any lane of a block, in a chunk's tail, in the last chunk; and the first failure of a chunk is the
// one reported whichever check catches it (a range error before a point off the curve, and after).
TEST(BellpersonParams, OffTheCurveInEveryLaneAndTheFirstFailureOfAChunk) {
    const auto ckt = groth16::synthetic_circuit<fr>({.log_domain = 10, .num_public = 3, .bit_share = 0.7, .seed = 12});
    const auto pk = monomial_key(ckt.system, 23);
    const bytes f = io::bellperson_params_bytes(pk);
    const auto l = io::scan_bellperson_params(f);
    ASSERT_EQ(l.h.count, 1023u);  // chunks of 15: a block of 8 and a tail of 7
    auto off_curve = [&](uint64_t i) {
        auto q = pk.h[i];
        q.y += bls12_381::fp::one();
        EXPECT_FALSE(q.is_on_curve());
        return zcash::serialize_uncompressed(q);
    };
    auto says = [](const std::string& e, uint64_t i, const char* what) {
        return e.find("H point " + std::to_string(i) + " (") != std::string::npos &&
               e.find(what) != std::string::npos;
    };
    for (uint64_t i : {0, 1, 5, 7, 8, 14, 15, 22, 23, 29, 500, 1019, 1022}) {
        const std::string e = read_error(with_point(f, l.h, i, off_curve(i)));
        EXPECT_TRUE(says(e, i, "not on the curve")) << i << ": " << e;
    }
    std::array<uint8_t, 48> p{};
    for (size_t i = 0; i < 48; ++i) p[47 - i] = uint8_t(bls12_381::fp::modulus.limb[i / 8] >> (8 * (i % 8)));
    auto x_is_p = [&](uint64_t i) {
        auto e = zcash::serialize_uncompressed(pk.h[i]);
        std::copy(p.begin(), p.end(), e.begin());
        return e;
    };
    const bytes range_first = with_point(with_point(f, l.h, 20, off_curve(20)), l.h, 17, x_is_p(17));
    EXPECT_TRUE(says(read_error(range_first), 17, "x is not below")) << read_error(range_first);
    const bytes curve_first = with_point(with_point(f, l.h, 17, off_curve(17)), l.h, 20, x_is_p(20));
    EXPECT_TRUE(says(read_error(curve_first), 17, "not on the curve")) << read_error(curve_first);
}

TEST(BellpersonParams, PointOutsideTheSubgroup) {
    const bytes& f = keys().synth_file;
    const auto l = io::scan_bellperson_params(f);
    std::mt19937_64 rng(9);
    const auto q1 = ec_test::random_curve_point<G1>(rng);
    const auto q2 = ec_test::random_curve_point<G2>(rng);
    ASSERT_FALSE(is_in_subgroup(q1));
    ASSERT_FALSE(is_in_subgroup(q2));
    const bytes t1 = with_point(f, l.b_g1, 3, zcash::serialize_uncompressed(q1));
    const bytes t2 = with_point(f, l.b_g2, 1, zcash::serialize_uncompressed(q2));
    for (const bytes* t : {&t1, &t2}) {
        const std::string e = read_error(*t, {.check_subgroup = true});
        EXPECT_NE(e.find("not in the prime-order subgroup"), std::string::npos) << e;
    }
    // Without the check the points are taken as they are (bellperson's unchecked read).
    EXPECT_EQ(io::read_bellperson_params(std::span<const uint8_t>(t1)).b_g1[3], q1);
    EXPECT_EQ(io::read_bellperson_params(std::span<const uint8_t>(t2)).b_g2[1], q2);
    // The verifying key is always checked: IC point 0 and delta_g1 (bytes 576..672).
    EXPECT_NE(read_error(with_point(f, l.ic, 0, zcash::serialize_uncompressed(q1))).find("IC point 0"),
              std::string::npos);
    bytes t = f;
    const auto e1 = zcash::serialize_uncompressed(q1);
    std::copy(e1.begin(), e1.end(), t.begin() + 576);
    EXPECT_NE(read_error(t).find("delta_g1"), std::string::npos);
}

namespace {
/// A batched subgroup check on the host, as io::gpu_subgroup_check() is on the GPU: the reader's
/// batched path (decode, then check each section on its own thread) without a GPU. Counts its calls.
io::bellperson_read_options host_batch_options(std::shared_ptr<std::atomic<int>> calls) {
    auto first_bad = [calls](auto pts) -> uint64_t {
        ++*calls;
        for (size_t i = 0; i < pts.size(); ++i)
            if (!is_in_subgroup(pts[i])) return i;
        return pts.size();
    };
    io::subgroup_batch_check c;
    c.g1 = [first_bad](std::span<const affine<G1>> p) { return first_bad(p); };
    c.g2 = [first_bad](std::span<const affine<G2>> p) { return first_bad(p); };
    return {.check_subgroup = true, .subgroup_batch = c};
}
}  // namespace

// The batched path must fail where and as the per-point path does: the first bad point in file
// order, whether a subgroup test or the decoder finds it, and in whichever section.
TEST(BellpersonParams, BatchedSubgroupCheckGivesTheHostPathsVerdicts) {
    const bytes& f = keys().synth_file;
    const auto& pk = keys().synth_pk;
    const auto l = io::scan_bellperson_params(f);
    auto calls = std::make_shared<std::atomic<int>>(0);
    const auto batch = host_batch_options(calls);
    EXPECT_EQ(read_error(f, batch), "");
    EXPECT_EQ(calls->load(), 10);  // five sections, from memory and from a file
    std::mt19937_64 rng(31);
    const auto q1 = zcash::serialize_uncompressed(ec_test::random_curve_point<G1>(rng));
    const auto q2 = zcash::serialize_uncompressed(ec_test::random_curve_point<G2>(rng));
    auto h = pk.h[5];
    h.y += bls12_381::fp::one();
    const auto off_curve_h5 = zcash::serialize_uncompressed(h);
    const auto inf1 = zcash::serialize_uncompressed(affine<G1>::identity());
    std::vector<bytes> cases;
    for (const io::bellperson_section* s : {&l.h, &l.l, &l.a, &l.b_g1})
        for (uint64_t i : {uint64_t(0), uint64_t(1), s->count - 1}) cases.push_back(with_point(f, *s, i, q1));
    for (uint64_t i : {uint64_t(0), l.b_g2.count - 1}) cases.push_back(with_point(f, l.b_g2, i, q2));
    cases.push_back(with_point(with_point(f, l.h, 9, q1), l.h, 5, off_curve_h5));  // decoder first
    cases.push_back(with_point(with_point(f, l.h, 2, q1), l.h, 5, off_curve_h5));  // subgroup first
    cases.push_back(with_point(with_point(f, l.h, 7, q1), l.l, 0, inf1));          // earlier section's
    cases.push_back(with_point(with_point(f, l.l, 0, q1), l.h, 7, inf1));
    cases.push_back(with_point(with_point(f, l.b_g2, 0, q2), l.b_g1, 1, q1));
    cases.push_back(with_point(f, l.ic, 0, q1));  // the VK block: always on the host
    for (size_t k = 0; k < cases.size(); ++k) {
        const std::string want = read_error(cases[k], {.check_subgroup = true});
        EXPECT_NE(want, "") << k;
        EXPECT_EQ(read_error(cases[k], batch), want) << k;
    }
    // A throwing batch check (a CUDA failure) comes out of the read as it is.
    io::bellperson_read_options failing = batch;
    failing.subgroup_batch.g2 = [](std::span<const affine<G2>>) -> uint64_t { throw error("device lost"); };
    EXPECT_THROW((void)io::read_bellperson_params(std::span<const uint8_t>(f), "t", failing), error);
}

// ---- the point decoder against published vectors and the zcash decoder ------------------------------------

TEST(BellpersonParams, PublishedZcashVectorsDecode) {
    const std::string dir = test::vector_set("bls12_381/zcash");
    if (dir.empty()) GTEST_SKIP() << test::missing_vector_set("bls12_381/zcash");
    const bytes g1 = ec_test::read_bytes(dir + "/g1_uncompressed_valid_test_vectors.dat");
    const bytes g2 = ec_test::read_bytes(dir + "/g2_uncompressed_valid_test_vectors.dat");
    ASSERT_EQ(g1.size(), 1000u * 96);
    ASSERT_EQ(g2.size(), 1000u * 192);
    // A file whose H and B_G2 sections are the published k*G for k = 1..999, VK points k = 1..6
    // (k = 0, the identity, is where alpha_g1 may hold it).
    bytes f;
    f.insert(f.end(), g1.begin(), g1.begin() + 96);  // alpha_g1 = 0*G
    f.insert(f.end(), g1.begin() + 96, g1.begin() + 192);
    f.insert(f.end(), g2.begin() + 192, g2.begin() + 384);
    f.insert(f.end(), g2.begin() + 384, g2.begin() + 576);
    f.insert(f.end(), g1.begin() + 192, g1.begin() + 288);
    f.insert(f.end(), g2.begin() + 576, g2.begin() + 768);
    put_u32(f, 1);
    f.insert(f.end(), g1.begin() + 96, g1.begin() + 192);
    put_u32(f, 999);
    f.insert(f.end(), g1.begin() + 96, g1.end());
    for (int s = 0; s < 3; ++s) put_u32(f, 0);
    put_u32(f, 999);
    f.insert(f.end(), g2.begin() + 192, g2.end());
    const auto p = io::read_bellperson_params(std::span<const uint8_t>(f), "vectors", {.check_subgroup = true});
    EXPECT_TRUE(p.vk.key.alpha_g1.is_identity());
    jacobian<G1> k1 = jacobian<G1>::identity();
    jacobian<G2> k2 = jacobian<G2>::identity();
    for (size_t k = 1; k < 1000; ++k) {
        k1 += affine<G1>::generator();
        k2 += affine<G2>::generator();
        ASSERT_EQ(p.h[k - 1], to_affine(k1)) << k;
        ASSERT_EQ(p.b_g2[k - 1], to_affine(k2)) << k;
    }
    EXPECT_EQ(p.vk.key.beta_g2, affine<G2>::generator());
    EXPECT_EQ(p.vk.key.gamma_g2, to_affine(jacobian<G2>::generator() + jacobian<G2>::generator()));
}

namespace {
/// decode_point_vartime and the zcash decoder take the same decisions on mutated encodings
/// (the reader's only extra rule: x = 0 is rejected; a valid identity is reported as such).
template <class G>
void agree_with_zcash_decoder(uint64_t seed) {
    std::mt19937_64 rng(seed);
    int accepted = 0, rejected = 0;
    jacobian<G> multiple = jacobian<G>::generator();  // subgroup points k*G, k = 1, 2, ...
    for (int trial = 0; trial < 1000; ++trial) {
        multiple += affine<G>::generator();
        const auto p = trial % 3 == 0 ? ec_test::random_curve_point<G>(rng) : to_affine(multiple);
        auto e = zcash::serialize_uncompressed(p);
        switch (trial % 5) {
            case 0: break;
            case 1: e[0] ^= uint8_t(0x20 << (rng() % 3)); break;               // one flag bit
            case 2: e[rng() % e.size()] ^= uint8_t(1u << (rng() % 8)); break;  // any bit
            case 3:
                // the identity, perhaps with a stray bit
                e = zcash::serialize_uncompressed(affine<G>::identity());
                e[rng() % e.size()] |= uint8_t(rng() % 2);
                break;
            case 4:
                // x >= p
                std::fill(e.begin(), e.begin() + 48, uint8_t(0xff));
                e[0] = uint8_t(rng() & 0x1f);
                break;
        }
        for (bool sub : {false, true}) {
            affine<G> got{};
            const auto s = io::bellperson_detail::decode_point_vartime<G>(e.data(), got, sub);
            bool z_ok = true;
            affine<G> want{};
            try {
                want = sub ? zcash::deserialize_uncompressed<G>(e) : zcash::deserialize_uncompressed_unchecked<G>(e);
            } catch (const decode_error&) {
                z_ok = false;
            }
            const bool ok = s == io::bellperson_detail::point_status::none ||
                            s == io::bellperson_detail::point_status::infinity;
            ASSERT_EQ(ok, z_ok && !(want.x.is_zero() && !want.is_identity())) << "trial " << trial;
            if (ok) {
                ASSERT_EQ(got, want);
                ASSERT_EQ(s == io::bellperson_detail::point_status::infinity, want.is_identity());
            }
            (ok ? accepted : rejected)++;
        }
    }
    EXPECT_GT(accepted, 300);
    EXPECT_GT(rejected, 300);
}
}  // namespace

TEST(BellpersonParams, PointDecoderAgreesWithTheZcashDecoder) {
    agree_with_zcash_decoder<G1>(1);
    agree_with_zcash_decoder<G2>(2);
}

// ---- digest ----------------------------------------------------------------------------------------------------

namespace {
/// `b2sum FILE`'s hash (128 hex characters), or "" when b2sum is not installed.
std::string b2sum(const fs::path& p) {
    const std::string cmd = "b2sum '" + p.string() + "' 2>/dev/null";
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> pipe(::popen(cmd.c_str(), "r"), &::pclose);
    if (!pipe) return "";
    char buf[256] = {};
    const size_t got = std::fread(buf, 1, sizeof(buf) - 1, pipe.get());
    std::string out(buf, got);
    const size_t sp = out.find(' ');
    return sp == 128 ? out.substr(0, 128) : "";
}
}  // namespace

TEST(BellpersonParams, DigestMatchesCoreutilsB2sum) {
#if !defined(CUZK_HAVE_OPENSSL)
    GTEST_SKIP() << "built without OpenSSL (CUZK_HAVE_OPENSSL): no digest";
#else
    temp_file probe("probe");
    probe.write({});
    if (b2sum(probe.path).empty()) GTEST_SKIP() << "b2sum (coreutils) not found";
    std::mt19937_64 rng(4);
    bytes big((size_t(9) << 20) + 3);  // crosses the reader's 4 MiB chunks
    for (auto& x : big) x = uint8_t(rng());
    const std::vector<std::pair<std::string, bytes>> files = {{"empty", {}},
                                                              {"one", {0x61}},
                                                              {"big", big},
                                                              {"dense.params", keys().dense_file},
                                                              {"synth.params", keys().synth_file},
                                                              {"synth.vk", io::bellperson_vk_bytes(keys().synth_pk)}};
    for (const auto& [tag, content] : files) {
        temp_file f(tag);
        f.write(content);
        const std::string want = b2sum(f.path);
        ASSERT_EQ(want.size(), 128u) << tag;
        EXPECT_EQ(io::blake2b512_file_hex(f.path.string()), want) << tag;
        EXPECT_EQ(io::filecoin_params_digest(f.path.string()), want.substr(0, 32)) << tag;
    }
#endif
}

// ---- a large key for measuring the CLI (opt-in) ----------------------------------------------------------------

// CUZK_PARAMS_BENCH_LOG=20 CUZK_PARAMS_BENCH_OUT=k20.params test_io_params --gtest_filter='*LargeKey*'
// writes a 2^K-domain key (synthetic circuit, 90% bits) for `cuzk-params FILE`; skipped otherwise.
// Above 2^18 the key is made at 2^18 and its points repeated up to 2^K (the setup on the CPU would
// take many minutes): the reader's work per point (decode, on-curve check) does not depend on the
// values, and the file has the counts and size of a 2^K key.
TEST(BellpersonParams, WriteLargeKeyForTheCli) {
    const char* log = std::getenv("CUZK_PARAMS_BENCH_LOG");
    const char* out = std::getenv("CUZK_PARAMS_BENCH_OUT");
    if (!log || !out) GTEST_SKIP() << "set CUZK_PARAMS_BENCH_LOG and CUZK_PARAMS_BENCH_OUT to write a large key";
    const unsigned k = unsigned(std::atoi(log));
    const unsigned made = std::min(k, 18u);
    const auto ckt = groth16::synthetic_circuit<fr>({.log_domain = made, .num_public = 4, .bit_share = 0.9, .seed = 1});
    auto pk = monomial_key(ckt.system, 1);
    const size_t copies = size_t(1) << (k - made), inputs = pk.vk.ic.size();
    auto repeat = [&](auto& points, size_t keep) {  // v[0, keep) once, then v[keep, end) `copies` times
        auto& v = points.owned();
        const auto tail = std::vector(v.begin() + std::ptrdiff_t(keep), v.end());
        v.resize(keep);
        for (size_t c = 0; c < copies; ++c) v.insert(v.end(), tail.begin(), tail.end());
    };
    repeat(pk.h, 0), repeat(pk.l, 0), repeat(pk.a, inputs), repeat(pk.b_g1, inputs), repeat(pk.b_g2, inputs);
    io::write_bellperson_params(out, pk);
    const auto p = io::read_bellperson_params(std::string(out));
    EXPECT_EQ(p.layout.domain_size(), uint64_t(1) << k);
}
