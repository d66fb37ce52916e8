// SPDX-License-Identifier: MIT OR Apache-2.0
// Writes a seed corpus for the fuzz targets: valid synthetic .r1cs, .wtns, .zkey and snarkjs
// JSON files for both curves (tests/test_io_synth.hpp), and small BLS12-381 bellperson .params
// and .vk files (INSECURE test keys), bellperson proof bytes and zcash point encodings, and a
// provable zkey + witness pair for the C API, so fuzzing starts from deep inside the formats.
// Usage: fuzz_seeds OUT_DIR  (creates OUT_DIR/{r1cs,wtns,zkey,json,params,proof,c_api}/).
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/synthetic_circuit.hpp"
#include "cuzk/groth16/test_setup.hpp"
#include "cuzk/io/bellperson_params.hpp"
#include "cuzk/io/bellperson_proof.hpp"
#include "cuzk/io/snarkjs_json.hpp"
#include "cuzk/io/wtns.hpp"
#include "cuzk/io/zkey_groth16.hpp"
#include "test_io_synth.hpp"

namespace fs = std::filesystem;
using namespace cuzk::io;

namespace {

void write(const fs::path& p, const iotest::bytes& b) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}
void write(const fs::path& p, const std::string& s) { write(p, iotest::bytes(s.begin(), s.end())); }

template <class Curve>
void seeds(const fs::path& out) {
    const std::string c(Curve::snarkjs_name);
    iotest::toy_circuit<Curve> toy;
    write(out / "r1cs" / (c + ".r1cs"), toy.r1cs().build());
    write(out / "wtns" / (c + ".wtns"), toy.wtns().build());
    iotest::toy_zkey<Curve> z;
    write(out / "zkey" / (c + ".zkey"), z.build().build());
    std::mt19937_64 rng(3);
    using g1 = typename Curve::g1_point;
    using g2 = typename Curve::g2_point;
    groth16_proof<Curve> p{iotest::random_in_subgroup<g1>(rng), iotest::random_in_subgroup<g2>(rng),
                           iotest::random_in_subgroup<g1>(rng)};
    write(out / "json" / (c + "_proof.json"), proof_to_json(p));
    write(out / "json" / (c + "_public.json"), public_to_json<Curve>(toy.witness));
    verification_key<Curve> vk;
    vk.alpha1 = iotest::random_in_subgroup<g1>(rng);
    vk.beta2 = iotest::random_in_subgroup<g2>(rng);
    vk.gamma2 = cuzk::affine<typename Curve::g2>::generator();
    vk.delta2 = iotest::random_in_subgroup<g2>(rng);
    for (int i = 0; i < 3; ++i) vk.ic.push_back(iotest::random_in_subgroup<g1>(rng));
    write(out / "json" / (c + "_vk.json"), vk_to_json(vk));
}

/// A dense key (every variable in A and B) and a density-compressed one (a synthetic circuit),
/// both on an 8-row domain: a few KB each.
void params_seeds(const fs::path& out) {
    using cuzk::bls12_381::fr;
    using C = cuzk::bls12_381::curve;
    namespace g = cuzk::groth16;
    g::circuit_builder<fr> cb;
    auto p = cb.add_public(fr::from_u64(3));
    auto x = cb.add_witness(fr::from_u64(2));
    auto s = cb.add_witness(fr::from_u64(25));
    const auto one = g::circuit_builder<fr>::one();
    cb.enforce(g::linear_combination<fr>(p) + x, g::linear_combination<fr>(p) + x, s);
    cb.enforce(s, one, s);
    cb.enforce(one, s, s);
    const auto dense = std::move(cb).build();
    const auto synth = g::synthetic_circuit<fr>({.log_domain = 3, .num_public = 1, .bit_share = 0.5, .seed = 1});
    for (const auto& [name, cs] : {std::pair{"dense", &dense.system}, std::pair{"synth", &synth.system}}) {
        auto pk = g::test_setup_insecure<C>(*cs, 1);
        cuzk::io::to_monomial_h(pk);
        write(out / "params" / (std::string(name) + ".params"), cuzk::io::bellperson_params_bytes(pk));
        write(out / "params" / (std::string(name) + ".vk"), cuzk::io::bellperson_vk_bytes(pk));
    }
}

/// A proof-shaped 192 bytes (random subgroup points) and each point encoding on its own.
void proof_seeds(const fs::path& out) {
    using namespace cuzk;
    std::mt19937_64 rng(5);
    using g1 = typename bls12381::g1_point;
    using g2 = typename bls12381::g2_point;
    const groth16::proof<bls12_381::curve> pi{iotest::random_in_subgroup<g1>(rng), iotest::random_in_subgroup<g2>(rng),
                                              iotest::random_in_subgroup<g1>(rng)};
    const auto b = io::to_bellperson_bytes(pi);
    write(out / "proof" / "proof.bin", iotest::bytes(b.begin(), b.end()));
    const auto u1 = zcash::serialize_uncompressed(pi.a);
    const auto u2 = zcash::serialize_uncompressed(pi.b);
    write(out / "proof" / "g1_uncompressed.bin", iotest::bytes(u1.begin(), u1.end()));
    write(out / "proof" / "g2_uncompressed.bin", iotest::bytes(u2.begin(), u2.end()));
    const auto inf = zcash::serialize_compressed(affine<bls12_381::g1>::identity());
    write(out / "proof" / "g1_infinity.bin", iotest::bytes(inf.begin(), inf.end()));
}

iotest::bytes file_bytes(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    return iotest::bytes(std::istreambuf_iterator<char>(f), {});
}

/// The C API target's input: a 4-byte little-endian zkey length, the zkey, the witness; from a
/// provable 8-row synthetic circuit with an INSECURE seeded setup.
template <class IoCurve>
void c_api_seed(const fs::path& out) {
    using namespace cuzk;
    using Curve = io::groth16_curve_t<IoCurve>;
    auto ckt = groth16::synthetic_circuit<typename IoCurve::fr>({.log_domain = 3, .num_public = 2, .seed = 1});
    const fs::path dir = out / "c_api";
    fs::create_directories(dir);
    const std::string c(IoCurve::snarkjs_name);
    io::write_zkey((dir / "tmp.zkey").string(),
                   io::to_zkey<IoCurve>(groth16::test_setup_insecure<Curve>(ckt.system, 1), ckt.system));
    io::write_wtns<IoCurve>((dir / "tmp.wtns").string(), ckt.assignment);
    const auto zkey = file_bytes(dir / "tmp.zkey"), wtns = file_bytes(dir / "tmp.wtns");
    fs::remove(dir / "tmp.zkey");
    fs::remove(dir / "tmp.wtns");
    iotest::bytes seed(4);
    const uint32_t n = uint32_t(zkey.size());
    std::memcpy(seed.data(), &n, 4);
    seed.insert(seed.end(), zkey.begin(), zkey.end());
    seed.insert(seed.end(), wtns.begin(), wtns.end());
    write(dir / (c + ".bin"), seed);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) return 2;
    seeds<bn128>(argv[1]);
    seeds<bls12381>(argv[1]);
    params_seeds(argv[1]);
    proof_seeds(argv[1]);
    c_api_seed<bn128>(argv[1]);
    c_api_seed<bls12381>(argv[1]);
    return 0;
}
