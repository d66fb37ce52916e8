// cuzk-setup: writes a snarkjs-compatible benchmark circuit. INSECURE: the keys come from a
// seeded test setup, so anyone who knows the seed (the default is 1) can forge proofs. For
// benchmarks and tests only; never use these keys for anything real.
//
//   cuzk-setup [--curve bn128|bls12381] [--log-size K] [--witness random|bits] [--seed S] OUTDIR
//
// builds the synthetic circuit (groth16/synthetic_circuit.hpp) whose proving domain has exactly
// 2^K rows (2^K - 5 constraints, 4 public inputs), runs the seeded test setup on the host, and
// writes to OUTDIR:
//   circuit.zkey             snarkjs Groth16 proving key (io::write_zkey)
//   witness.wtns             the satisfying assignment (io::write_wtns)
//   verification_key.json    as `snarkjs zkey export verificationkey` writes it (no vk_alphabeta_12)
//   public.json              the public signals, as a prover writes them
// Then `snarkjs groth16 prove OUTDIR/circuit.zkey OUTDIR/witness.wtns proof.json public.json` and
// `cuzk-prove OUTDIR/circuit.zkey OUTDIR/witness.wtns proof.json public.json` prove the same
// statement (scripts/snarkjs-bench.sh times them). Host-only (plain C++ in every build).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include "cuzk/groth16/synthetic_circuit.hpp"
#include "cuzk/groth16/test_setup.hpp"
#include "cuzk/io/snarkjs_json.hpp"
#include "cuzk/io/wtns.hpp"
#include "cuzk/io/zkey.hpp"
#include "cuzk/io/zkey_groth16.hpp"

namespace {

struct options {
    std::string curve = "bn128";
    unsigned log_size = 10;
    double bit_share = 0.0;
    uint64_t seed = 1;
    std::string out;
};

[[noreturn]] void usage(const char* why) {
    std::fprintf(stderr,
                 "%s\n"
                 "usage: cuzk-setup [options] OUTDIR\n"
                 "  writes OUTDIR/circuit.zkey, witness.wtns, verification_key.json, public.json for a\n"
                 "  synthetic circuit with a 2^K-row proving domain. INSECURE test keys from a seed:\n"
                 "  for benchmarks and tests only.\n"
                 "  --curve bn128|bls12381       (also bn254, bls12-381; default bn128)\n"
                 "  --log-size K                 proving domain of 2^K rows, K in [4, 26] (default 10)\n"
                 "  --witness random|bits        random: full-width witness (default); bits: 90%% in {0, 1}\n"
                 "  --seed S                     circuit and setup seed (default 1)\n",
                 why);
    std::exit(2);
}

options parse(int argc, char** argv) {
    options o;
    for (int i = 1; i < argc; ++i) {
        std::string_view a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) usage(("cuzk-setup: missing value after " + std::string(a)).c_str());
            return argv[++i];
        };
        auto number = [&](double lo, double hi) {
            std::string v = value();
            char* end = nullptr;
            double x = std::strtod(v.c_str(), &end);
            if (v.empty() || *end != '\0' || x < lo || x > hi || x != double(uint64_t(x)))
                usage(("cuzk-setup: bad value '" + v + "' for " + std::string(a)).c_str());
            return x;
        };
        if (a == "--curve") {
            std::string v = value();
            if (v == "bn128" || v == "bn254") o.curve = "bn128";
            else if (v == "bls12381" || v == "bls12-381") o.curve = "bls12381";
            else usage(("cuzk-setup: unknown curve '" + v + "'").c_str());
        } else if (a == "--log-size") o.log_size = unsigned(number(4, 26));
        else if (a == "--witness") {
            std::string v = value();
            if (v != "random" && v != "bits") usage(("cuzk-setup: bad value '" + v + "' for --witness").c_str());
            o.bit_share = v == "bits" ? 0.9 : 0.0;
        } else if (a == "--seed") o.seed = uint64_t(number(0, 1e18));
        else if (a == "--help" || a == "-h") usage("cuzk-setup: a snarkjs-compatible benchmark circuit (INSECURE keys)");
        else if (!a.empty() && a[0] == '-') usage(("cuzk-setup: unknown argument " + std::string(a)).c_str());
        else if (o.out.empty()) o.out = a;
        else usage("cuzk-setup: more than one OUTDIR");
    }
    if (o.out.empty()) usage("cuzk-setup: missing OUTDIR");
    return o;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <class IoCurve>
int run(const options& o) {
    using namespace cuzk;
    using Curve = io::groth16_curve_t<IoCurve>;
    using Fr = typename Curve::fr;
    std::fprintf(stderr,
                 "cuzk-setup: WARNING: INSECURE keys from a seeded test setup (seed %llu): anyone who knows the seed can\n"
                 "            forge proofs. For benchmarks and tests only.\n",
                 (unsigned long long)o.seed);
    auto t0 = std::chrono::steady_clock::now();
    auto ckt = groth16::synthetic_circuit<Fr>({.log_domain = o.log_size, .num_public = 4, .bit_share = o.bit_share, .seed = o.seed});
    std::printf("cuzk-setup: %s, domain 2^%u: %zu constraints, %zu variables, %zu public inputs (%.2f s)\n",
                std::string(IoCurve::snarkjs_name).c_str(), o.log_size, ckt.system.num_constraints(),
                ckt.system.num_variables, ckt.system.num_public, seconds_since(t0));
    t0 = std::chrono::steady_clock::now();
    auto pk = groth16::test_setup_insecure<Curve>(ckt.system, o.seed);
    const auto vk_json = io::vk_to_json(io::verification_key<IoCurve>::from_zkey(
        {pk.vk.alpha_g1, pk.beta_g1, pk.vk.beta_g2, pk.vk.gamma_g2, pk.delta_g1, pk.vk.delta_g2, pk.vk.ic}));
    std::printf("cuzk-setup: INSECURE test setup %.2f s\n", seconds_since(t0));

    t0 = std::chrono::steady_clock::now();
    std::filesystem::create_directories(o.out);
    const std::string dir = o.out + "/";
    io::write_zkey(dir + "circuit.zkey", io::to_zkey<IoCurve>(std::move(pk), ckt.system));
    io::write_wtns<IoCurve>(dir + "witness.wtns", ckt.assignment);
    io::write_text_file(dir + "verification_key.json", vk_json);
    io::write_text_file(dir + "public.json", io::public_to_json<IoCurve>(ckt.public_inputs()));
    std::printf("cuzk-setup: wrote %scircuit.zkey (%.1f MB), witness.wtns, verification_key.json, public.json (%.2f s)\n",
                dir.c_str(), double(std::filesystem::file_size(dir + "circuit.zkey")) / 1e6, seconds_since(t0));
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const options o = parse(argc, argv);
    try {
        return o.curve == "bn128" ? run<cuzk::io::bn128>(o) : run<cuzk::io::bls12381>(o);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cuzk-setup: error: %s\n", e.what());
        return 1;
    }
}
