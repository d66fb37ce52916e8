// SPDX-License-Identifier: MIT OR Apache-2.0
// io/ readers and JSON writers against files made by the real circom and snarkjs
// (tests/interop/make_fixtures.sh, run as a ctest fixture). The oracles are snarkjs's own
// decodings of the same files (`r1cs|wtns|zkey export json`), its verification_key.json,
// proof.json and public.json, and snarkjs's `wtns check` / `groth16 verify`, which the fixture
// script already ran.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/r1cs.hpp"
#include "cuzk/io/snarkjs_json.hpp"
#include "cuzk/io/wtns.hpp"
#include "cuzk/io/zkey.hpp"
#include "cuzk/io/zkey_groth16.hpp"
#include "test_io_synth.hpp"

#if !defined(CUZK_INTEROP_DIR) || !defined(CUZK_NODE) || !defined(CUZK_SNARKJS_CLI)
#error "CUZK_INTEROP_DIR, CUZK_NODE and CUZK_SNARKJS_CLI must be defined (tests/interop/CMakeLists.txt)"
#endif

using namespace cuzk;
using namespace cuzk::io;
namespace fs = std::filesystem;

namespace {

const char* const circuits[] = {"multi_public", "poseidon_cmp", "mul_chain"};

template <class Curve>
fs::path fixture_dir(std::string_view circuit) {
    return fs::path(CUZK_INTEROP_DIR) / std::string(Curve::snarkjs_name) / std::string(circuit);
}

iotest::bytes read_bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return iotest::bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

json::value read_json(const fs::path& p) { return json::parse(read_text_file(p.string()), p.string()); }

template <class F>
F dec(const json::value& v) {
    return field_from_decimal<F>(v.text, "fixture json");
}

/// A snarkjs JSON point (["x","y","1"] or ["0","1","0"]) compared with a decoded point.
template <class Curve>
void expect_g1(const json::value& j, const typename Curve::g1_point& p, const std::string& what) {
    using fq = typename Curve::fq;
    ASSERT_TRUE(j.is_array() && j.items.size() == 3) << what;
    if (j.items[2].text == "0") {
        EXPECT_TRUE(p.is_identity()) << what;
        return;
    }
    EXPECT_EQ(j.items[2].text, "1") << what;
    EXPECT_EQ(p.x, dec<fq>(j.items[0])) << what;
    EXPECT_EQ(p.y, dec<fq>(j.items[1])) << what;
}

template <class Curve>
void expect_g2(const json::value& j, const typename Curve::g2_point& p, const std::string& what) {
    using fq = typename Curve::fq;
    ASSERT_TRUE(j.is_array() && j.items.size() == 3) << what;
    if (j.items[2].items[0].text == "0" && j.items[2].items[1].text == "0") {
        EXPECT_TRUE(p.is_identity()) << what;
        return;
    }
    EXPECT_EQ(p.x.c0, dec<fq>(j.items[0].items[0])) << what;
    EXPECT_EQ(p.x.c1, dec<fq>(j.items[0].items[1])) << what;
    EXPECT_EQ(p.y.c0, dec<fq>(j.items[1].items[0])) << what;
    EXPECT_EQ(p.y.c1, dec<fq>(j.items[1].items[1])) << what;
}

template <class Curve>
bool fixtures_present() {
    return fs::exists(fixture_dir<Curve>(circuits[0]) / "proof.json");
}

}  // namespace

template <class Curve>
class io_interop : public ::testing::Test {
protected:
    void SetUp() override {
        if (!fixtures_present<Curve>())
            GTEST_SKIP() << "no snarkjs fixtures under " << CUZK_INTEROP_DIR << " (run tests/interop/make_fixtures.sh)";
    }
};
using curves = ::testing::Types<bn128, bls12381>;
TYPED_TEST_SUITE(io_interop, curves);

TYPED_TEST(io_interop, r1cs_matches_snarkjs_and_the_witness_satisfies_it) {
    using fr = typename TypeParam::fr;
    for (const char* name : circuits) {
        SCOPED_TRACE(name);
        const auto dir = fixture_dir<TypeParam>(name);
        const auto r = r1cs<TypeParam>::read((dir / (std::string(name) + ".r1cs")).string());
        const auto j = read_json(dir / (std::string(name) + ".r1cs.json"));
        EXPECT_EQ(std::to_string(r.n_wires), j.find("nVars")->text);
        EXPECT_EQ(std::to_string(r.n_pub_out), j.find("nOutputs")->text);
        EXPECT_EQ(std::to_string(r.n_pub_in), j.find("nPubInputs")->text);
        EXPECT_EQ(std::to_string(r.n_prv_in), j.find("nPrvInputs")->text);
        EXPECT_EQ(std::to_string(r.n_labels), j.find("nLabels")->text);
        EXPECT_EQ(std::to_string(r.n_constraints), j.find("nConstraints")->text);
        const auto& cs = j.find("constraints")->items;
        ASSERT_EQ(cs.size(), r.n_constraints);
        const lc_matrix<fr>* mats[3] = {&r.a, &r.b, &r.c};
        for (size_t i = 0; i < cs.size(); ++i)
            for (size_t m = 0; m < 3; ++m) {
                std::map<uint32_t, fr> want, got;
                for (const auto& [k, v] : cs[i].items[m].members) want[uint32_t(std::stoul(k))] = dec<fr>(v);
                for (const auto& t : mats[m]->row(i)) got[t.wire] += t.value;
                ASSERT_EQ(got.size(), want.size()) << "constraint " << i << " matrix " << m;
                for (const auto& [w, v] : want) EXPECT_EQ(got[w], v) << "constraint " << i << " wire " << w;
            }
        const auto& map = j.find("map")->items;
        ASSERT_EQ(map.size(), r.wire_to_label.size());
        for (size_t w = 0; w < map.size(); ++w) EXPECT_EQ(map[w].text, std::to_string(r.wire_to_label[w]));

        // The witness (checked by `snarkjs wtns check` in the fixture script) satisfies A*B = C
        // with our decoded coefficients; a perturbed one does not.
        auto w = wtns<TypeParam>::read((dir / (std::string(name) + ".wtns")).string());
        const auto wj = read_json(dir / (std::string(name) + ".wtns.json"));
        ASSERT_EQ(w.values.size(), wj.items.size());
        for (size_t k = 0; k < w.values.size(); ++k) EXPECT_EQ(w.values[k], dec<fr>(wj.items[k])) << "witness " << k;
        EXPECT_FALSE(r.first_unsatisfied(w.values).has_value());
        auto bad = w.values;
        bad.back() += fr::one();
        EXPECT_TRUE(r.first_unsatisfied(bad).has_value());

        // public.json is w[1 .. nPublic].
        const auto pub = public_from_json<TypeParam>(read_text_file((dir / "public.json").string()));
        ASSERT_EQ(pub.size(), r.n_public());
        for (size_t k = 0; k < pub.size(); ++k) EXPECT_EQ(pub[k], w.values[1 + k]);
    }
}

TYPED_TEST(io_interop, zkey_matches_snarkjs_export_and_the_r1cs) {
    using fr = typename TypeParam::fr;
    for (const char* name : circuits) {
        SCOPED_TRACE(name);
        const auto dir = fixture_dir<TypeParam>(name);
        // Real keys pass the optional subgroup check too.
        const auto z = zkey<TypeParam>::read((dir / (std::string(name) + ".zkey")).string(),
                                             zkey_read_options{.check_subgroup = true});
        const auto j = read_json(dir / (std::string(name) + ".zkey.json"));
        EXPECT_EQ(std::to_string(z.n_vars), j.find("nVars")->text);
        EXPECT_EQ(std::to_string(z.n_public), j.find("nPublic")->text);
        EXPECT_EQ(std::to_string(z.domain_size), j.find("domainSize")->text);
        EXPECT_EQ(std::to_string(z.domain_log2()), j.find("power")->text);
        expect_g1<TypeParam>(*j.find("vk_alpha_1"), z.vk.alpha1, "alpha1");
        expect_g1<TypeParam>(*j.find("vk_beta_1"), z.vk.beta1, "beta1");
        expect_g1<TypeParam>(*j.find("vk_delta_1"), z.vk.delta1, "delta1");
        expect_g2<TypeParam>(*j.find("vk_beta_2"), z.vk.beta2, "beta2");
        expect_g2<TypeParam>(*j.find("vk_gamma_2"), z.vk.gamma2, "gamma2");
        expect_g2<TypeParam>(*j.find("vk_delta_2"), z.vk.delta2, "delta2");
        auto points = [&](const char* key, const auto& vec, size_t skip) {
            const auto& arr = j.find(key)->items;
            ASSERT_EQ(arr.size(), vec.size() + skip) << key;
            for (size_t i = 0; i < vec.size(); ++i) {
                if constexpr (std::is_same_v<std::decay_t<decltype(vec[0])>, typename TypeParam::g2_point>)
                    expect_g2<TypeParam>(arr[i + skip], vec[i], std::string(key) + " " + std::to_string(i));
                else
                    expect_g1<TypeParam>(arr[i + skip], vec[i], std::string(key) + " " + std::to_string(i));
            }
        };
        points("IC", z.vk.ic, 0);
        points("A", z.a, 0);
        points("B1", z.b1, 0);
        points("B2", z.b2, 0);
        points("C", z.c, z.n_public + 1);  // snarkjs lists null for ONE and the public signals
        points("hExps", z.h, 0);
        const auto& cc = j.find("ccoefs")->items;
        ASSERT_EQ(cc.size(), z.coeffs.size());
        for (size_t i = 0; i < cc.size(); ++i) {
            EXPECT_EQ(std::to_string(uint32_t(z.coeffs[i].matrix)), cc[i].find("matrix")->text);
            EXPECT_EQ(std::to_string(z.coeffs[i].constraint), cc[i].find("constraint")->text);
            EXPECT_EQ(std::to_string(z.coeffs[i].signal), cc[i].find("signal")->text);
            EXPECT_EQ(z.coeffs[i].value, dec<fr>(*cc[i].find("value"))) << "coefficient " << i;
        }

        // Section 4 = the r1cs A and B entries, plus one A row (ONE coefficient) per public signal.
        const auto r = r1cs<TypeParam>::read((dir / (std::string(name) + ".r1cs")).string());
        EXPECT_EQ(z.n_vars, r.n_wires);
        EXPECT_EQ(z.n_public, r.n_public());
        EXPECT_GE(z.domain_size, r.n_constraints + r.n_public() + 1);
        EXPECT_LT(z.domain_size / 2, r.n_constraints + r.n_public() + 1);
        std::map<std::tuple<uint32_t, uint32_t, uint32_t>, fr> want, got;
        for (uint32_t i = 0; i < r.n_constraints; ++i) {
            for (const auto& t : r.a.row(i)) want[{0, i, t.wire}] += t.value;
            for (const auto& t : r.b.row(i)) want[{1, i, t.wire}] += t.value;
        }
        for (uint32_t s = 0; s <= r.n_public(); ++s) want[{0, r.n_constraints + s, s}] += fr::one();
        for (const auto& e : z.coeffs) got[{uint32_t(e.matrix), e.constraint, e.signal}] += e.value;
        std::erase_if(want, [](const auto& kv) { return kv.second.is_zero(); });
        std::erase_if(got, [](const auto& kv) { return kv.second.is_zero(); });
        EXPECT_EQ(got.size(), want.size());
        for (const auto& [k, v] : want) EXPECT_EQ(got[k], v);
    }
}

TYPED_TEST(io_interop, json_files_round_trip_byte_for_byte_and_match_the_zkey) {
    for (const char* name : circuits) {
        SCOPED_TRACE(name);
        const auto dir = fixture_dir<TypeParam>(name);
        const std::string proof_text = read_text_file((dir / "proof.json").string());
        const std::string public_text = read_text_file((dir / "public.json").string());
        const std::string vk_text = read_text_file((dir / "verification_key.json").string());

        const auto proof = proof_from_json<TypeParam>(proof_text);
        EXPECT_EQ(proof_to_json(proof), proof_text);
        const auto pub = public_from_json<TypeParam>(public_text);
        EXPECT_EQ(public_to_json<TypeParam>(pub), public_text);
        const auto vk = vk_from_json<TypeParam>(vk_text);
        EXPECT_EQ(vk_to_json(vk), vk_text);
        EXPECT_TRUE(vk.alphabeta_12.has_value());

        // The zkey's verification key is the JSON one (and writes the same bytes given e(alpha, beta)).
        const auto z = zkey<TypeParam>::read((dir / (std::string(name) + ".zkey")).string());
        EXPECT_EQ(z.vk.alpha1, vk.alpha1);
        EXPECT_EQ(z.vk.beta2, vk.beta2);
        EXPECT_EQ(z.vk.gamma2, vk.gamma2);
        EXPECT_EQ(z.vk.delta2, vk.delta2);
        EXPECT_EQ(z.vk.ic, vk.ic);
        EXPECT_EQ(vk.n_public(), z.n_public);
        auto from_zkey = verification_key<TypeParam>::from_zkey(z.vk);
        from_zkey.alphabeta_12 = vk.alphabeta_12;
        EXPECT_EQ(vk_to_json(from_zkey), vk_text);
        EXPECT_EQ(pub.size(), z.n_public);
    }
}

TYPED_TEST(io_interop, writers_reproduce_snarkjs_files) {
    // write_zkey(read(zkey)) reproduces snarkjs's sections 1..9 byte for byte (section 10, the
    // MPC transcript, is not kept by the reader: ours has no contributions); write_wtns(read(wtns))
    // reproduces the whole witness file.
    const fs::path tmp = fs::temp_directory_path() / ("cuzk_interop_writers_" + std::string(TypeParam::snarkjs_name));
    fs::create_directories(tmp);
    for (const char* name : circuits) {
        SCOPED_TRACE(name);
        const auto dir = fixture_dir<TypeParam>(name);
        const std::string zpath = (dir / (std::string(name) + ".zkey")).string();
        write_zkey((tmp / "k.zkey").string(), zkey<TypeParam>::read(zpath));
        const auto theirs = binfile::open(zpath, "zkey", 1), ours = binfile::open((tmp / "k.zkey").string(), "zkey", 1);
        for (uint32_t id = 1; id <= 9; ++id) {
            SCOPED_TRACE("section " + std::to_string(id));
            auto a = theirs.reader(id), b = ours.reader(id);
            ASSERT_EQ(a.remaining(), b.remaining());
            EXPECT_TRUE(a.bytes(size_t(a.remaining())) == b.bytes(size_t(b.remaining())));
        }
        const std::string wpath = (dir / (std::string(name) + ".wtns")).string();
        write_wtns((tmp / "w.wtns").string(), wtns<TypeParam>::read(wpath));
        EXPECT_TRUE(read_bytes(wpath) == read_bytes(tmp / "w.wtns"));
    }
    fs::remove_all(tmp);
}

TYPED_TEST(io_interop, real_files_truncated_or_corrupted_are_rejected) {
    using other = std::conditional_t<std::is_same_v<TypeParam, bn128>, bls12381, bn128>;
    for (const char* name : circuits) {
        SCOPED_TRACE(name);
        const auto dir = fixture_dir<TypeParam>(name);
        for (const char* ext : {".r1cs", ".wtns", ".zkey"}) {
            const std::string file = std::string(name) + ext;
            const iotest::bytes good = read_bytes(dir / file);
            auto parse = [&](const iotest::bytes& b) {
                auto src = iotest::source_of(b, file);
                if (std::string_view(ext) == ".r1cs") (void)r1cs<TypeParam>::read(src);
                else if (std::string_view(ext) == ".wtns") (void)wtns<TypeParam>::read(src);
                else (void)zkey<TypeParam>::read(src);
            };
            ASSERT_NO_THROW(parse(good)) << file;
            // Cut points: every section boundary, inside each section header, mid-section, last byte.
            const char* magic = std::string_view(ext) == ".r1cs" ? "r1cs" : std::string_view(ext) == ".wtns" ? "wtns" : "zkey";
            const uint32_t version = std::string_view(ext) == ".wtns" ? 2 : 1;
            binfile f(iotest::source_of(good, file), magic, version);
            std::vector<size_t> cuts = {0, 3, 4, 11, 12};
            for (const auto& s : f.sections()) {
                for (uint64_t c : {s.offset - 12, s.offset - 6, s.offset - 1, s.offset, s.offset + s.size / 2,
                                   s.offset + s.size - 1})
                    if (c < good.size()) cuts.push_back(size_t(c));
            }
            cuts.push_back(good.size() - 1);
            for (size_t c : cuts) {
                bool threw = false;
                try {
                    parse(iotest::bytes(good.begin(), good.begin() + c));
                } catch (const decode_error& e) {
                    threw = std::string(e.what()).find(file) != std::string::npos;
                }
                EXPECT_TRUE(threw) << file << " cut at " << c;
            }
            // Bad magic, version, unknown and duplicate section ids, trailing garbage.
            auto expect_reject = [&](iotest::bytes b, std::string_view what) {
                EXPECT_THROW(parse(b), decode_error) << file << ": " << what;
            };
            auto b = good;
            b[1] ^= 0x20;
            expect_reject(b, "magic");
            b = good;
            b[4] = 9;
            expect_reject(b, "version");
            b = good;
            const size_t first_header = size_t(f.sections()[0].offset - 12);
            b[first_header] = 77;
            expect_reject(b, "unknown section id");
            b = good;
            b[first_header] = uint8_t(f.sections()[1].id);
            expect_reject(b, "duplicate section id");
            b = good;
            b.push_back(0);
            expect_reject(b, "trailing byte");
            // The other curve's reader rejects the file (wrong prime / field size).
            EXPECT_THROW(
                {
                    auto src = iotest::source_of(good, file);
                    if (std::string_view(ext) == ".r1cs") (void)r1cs<other>::read(src);
                    else if (std::string_view(ext) == ".wtns") (void)wtns<other>::read(src);
                    else (void)zkey<other>::read(src);
                },
                decode_error)
                << file;
        }
        // JSON files of this curve are rejected by the other curve's readers ("curve" field).
        EXPECT_THROW((void)proof_from_json<other>(read_text_file((dir / "proof.json").string())), decode_error);
        EXPECT_THROW((void)vk_from_json<other>(read_text_file((dir / "verification_key.json").string())), decode_error);
    }
}

// ---- end to end: cuzk proves from snarkjs's zkey and witness; snarkjs verifies ----------------------

namespace {

/// `snarkjs groth16 verify vk public proof`: true on exit status 0 ("OK!").
bool snarkjs_verifies(const fs::path& vk, const fs::path& pub, const fs::path& proof, const fs::path& log) {
    const std::string cmd = std::string(CUZK_NODE) + " " + CUZK_SNARKJS_CLI + " groth16 verify '" + vk.string() + "' '" +
                            pub.string() + "' '" + proof.string() + "' > '" + log.string() + "' 2>&1";
    return std::system(cmd.c_str()) == 0;
}

}  // namespace

TYPED_TEST(io_interop, cuzk_proofs_from_snarkjs_files_verify_in_snarkjs_and_cuzk) {
    using fr = typename TypeParam::fr;
    using GC = groth16_curve_t<TypeParam>;
    for (const char* name : circuits) {
        SCOPED_TRACE(name);
        const auto dir = fixture_dir<TypeParam>(name);
        auto z = zkey<TypeParam>::read((dir / (std::string(name) + ".zkey")).string());
        const auto w = wtns<TypeParam>::read((dir / (std::string(name) + ".wtns")).string());
        const auto vk_json = vk_from_json<TypeParam>(read_text_file((dir / "verification_key.json").string()));
        const auto vk = to_verifying_key(vk_json);
        const uint32_t n_public = z.n_public;
        auto abc = evaluate_abc<TypeParam>(z.coeffs, z.domain_size, w.values);
        auto pk = std::make_shared<const groth16::proving_key<GC>>(to_proving_key(std::move(z)));
        groth16::prover<GC> prover(pk);
        const auto pi = prover.prove_from_abc(w.values, std::move(abc));
        const std::vector<fr> pub(w.values.begin() + 1, w.values.begin() + 1 + n_public);
        EXPECT_TRUE(groth16::verify(vk, std::span<const fr>(pub), pi)) << "cuzk's verifier rejects cuzk's proof";

        const auto out = dir / "cuzk";
        fs::create_directories(out);
        write_text_file((out / "proof.json").string(), proof_to_json(from_groth16<TypeParam>(pi)));
        write_text_file((out / "public.json").string(), public_to_json<TypeParam>(pub));
        EXPECT_TRUE(snarkjs_verifies(dir / "verification_key.json", out / "public.json", out / "proof.json", out / "verify.log"))
            << "snarkjs rejects cuzk's proof; see " << (out / "verify.log");

        // snarkjs's own proof: cuzk accepts it, and rejects it with a changed public signal.
        const auto theirs = to_groth16(proof_from_json<TypeParam>(read_text_file((dir / "proof.json").string())));
        auto their_pub = public_from_json<TypeParam>(read_text_file((dir / "public.json").string()));
        EXPECT_TRUE(groth16::verify(vk, std::span<const fr>(their_pub), theirs));
        their_pub[0] += fr::one();
        EXPECT_FALSE(groth16::verify(vk, std::span<const fr>(their_pub), theirs));
        auto swapped = theirs;
        std::swap(swapped.a, swapped.c);
        their_pub[0] -= fr::one();
        EXPECT_FALSE(groth16::verify(vk, std::span<const fr>(their_pub), swapped));

        // A tampered cuzk proof (A and C swapped: still valid points) fails in snarkjs too.
        if (std::string_view(name) == "multi_public") {
            auto bad = from_groth16<TypeParam>(pi);
            std::swap(bad.a, bad.c);
            write_text_file((out / "proof_tampered.json").string(), proof_to_json(bad));
            EXPECT_FALSE(snarkjs_verifies(dir / "verification_key.json", out / "public.json", out / "proof_tampered.json",
                                          out / "verify_tampered.log"));
        }
    }
}
