// SPDX-License-Identifier: MIT OR Apache-2.0
// cuzk-setup: writes snarkjs-compatible Groth16 keys from a seeded test setup. INSECURE: anyone
// who knows the seed (the default is 1) can forge proofs. For benchmarks and tests only; never
// use these keys for anything real.
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
// statement (scripts/snarkjs-bench.sh times them).
//
//   cuzk-setup --r1cs CIRCUIT.r1cs [--wtns WITNESS.wtns] [--seed S] OUTDIR
//
// the same for a circom circuit (io/r1cs.hpp reads it; the curve comes from the file's prime):
// writes OUTDIR/circuit.zkey and verification_key.json, the keys `snarkjs groth16 setup` would
// make over a Powers of Tau, but from seeded toxic waste and without one, so a 2^18 circuit takes
// seconds instead of hours of ptau. Public signals, domain and section 4 follow snarkjs (outputs,
// then public inputs; one extra A row per public signal and ONE). With --wtns, also checks that the
// witness (circom's, e.g. `snarkjs wtns calculate`) satisfies every constraint and writes
// OUTDIR/public.json. Prove with that witness as above. Host-only (plain C++ in every build).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cli_version.hpp"
#include "cuzk/groth16/synthetic_circuit.hpp"
#include "cuzk/groth16/test_setup.hpp"
#include "cuzk/io/binfile.hpp"
#include "cuzk/io/r1cs.hpp"
#include "cuzk/io/snarkjs_json.hpp"
#include "cuzk/io/wtns.hpp"
#include "cuzk/io/zkey.hpp"
#include "cuzk/io/zkey_groth16.hpp"

namespace {

struct options {
    std::string curve = "bn128";
    bool curve_given = false;
    unsigned log_size = 10;
    bool synthetic_only_given = false;  // --log-size or --witness, which mean nothing with --r1cs
    double bit_share = 0.0;
    uint64_t seed = 1;
    std::string r1cs;  // circom mode when not empty
    std::string wtns;
    std::string out;
};

constexpr const char* help_text =
    "usage: cuzk-setup [options] OUTDIR                      a synthetic circuit\n"
    "       cuzk-setup --r1cs C.r1cs [--wtns W.wtns] [--seed S] OUTDIR   a circom circuit\n"
    "  INSECURE test keys from a seed (anyone who knows it can forge proofs): for benchmarks\n"
    "  and tests only, never for anything real.\n"
    "\n"
    "  Synthetic mode writes OUTDIR/circuit.zkey, witness.wtns, verification_key.json and\n"
    "  public.json for a synthetic circuit with a 2^K-row proving domain.\n"
    "  --curve bn128|bls12381       (also bn254, bls12-381; default bn128)\n"
    "  --log-size K                 proving domain of 2^K rows, K in [4, 26] (default 10)\n"
    "  --witness random|bits        random: full-width witness (default); bits: 90% in {0, 1}\n"
    "  --seed S                     circuit and setup seed (default 1)\n"
    "\n"
    "  circom mode (--r1cs) writes OUTDIR/circuit.zkey and verification_key.json for a circom\n"
    "  .r1cs file: the keys snarkjs's `groth16 setup` would make, but from a seeded setup and\n"
    "  without a Powers of Tau, so large circuits take seconds. snarkjs and cuzk-prove prove\n"
    "  with it and the circuit's witness; `snarkjs groth16 verify` accepts the proofs.\n"
    "  --r1cs FILE                  the circuit (the curve is read from its prime; --curve, if\n"
    "                               given, must agree)\n"
    "  --wtns FILE                  optional: check that this witness satisfies the circuit and\n"
    "                               write OUTDIR/public.json\n"
    "  --seed S                     setup seed (default 1)\n"
    "\n"
    "  --help, -h                   this text\n";

[[noreturn]] void usage(const std::string& why) {
    std::fprintf(stderr, "%s\n", why.c_str());
    std::fputs(help_text, stderr);
    std::exit(2);
}

options parse(int argc, char** argv) {
    options o;
    for (int i = 1; i < argc; ++i) {
        std::string_view a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) usage("cuzk-setup: missing value after " + std::string(a));
            return argv[++i];
        };
        auto number = [&](double lo, double hi) {
            std::string v = value();
            char* end = nullptr;
            double x = std::strtod(v.c_str(), &end);
            if (v.empty() || *end != '\0' || x < lo || x > hi || x != double(uint64_t(x)))
                usage("cuzk-setup: bad value '" + v + "' for " + std::string(a));
            return x;
        };
        if (a == "--curve") {
            std::string v = value();
            if (v == "bn128" || v == "bn254") o.curve = "bn128";
            else if (v == "bls12381" || v == "bls12-381") o.curve = "bls12381";
            else usage("cuzk-setup: unknown curve '" + v + "'");
            o.curve_given = true;
        } else if (a == "--log-size") {
            o.log_size = unsigned(number(4, 26));
            o.synthetic_only_given = true;
        } else if (a == "--witness") {
            std::string v = value();
            if (v != "random" && v != "bits") usage("cuzk-setup: bad value '" + v + "' for --witness");
            o.bit_share = v == "bits" ? 0.9 : 0.0;
            o.synthetic_only_given = true;
        } else if (a == "--seed") o.seed = uint64_t(number(0, 1e18));
        else if (a == "--r1cs") o.r1cs = value();
        else if (a == "--wtns") o.wtns = value();
        else if (a == "--help" || a == "-h") {
            std::fputs("cuzk-setup: snarkjs-compatible Groth16 keys from a seeded setup (INSECURE keys)\n", stdout);
            std::fputs(help_text, stdout);
            std::exit(0);
        } else if (!a.empty() && a[0] == '-') usage("cuzk-setup: unknown argument " + std::string(a));
        else if (o.out.empty()) o.out = a;
        else usage("cuzk-setup: more than one OUTDIR");
    }
    if (o.out.empty()) usage("cuzk-setup: missing OUTDIR");
    if (!o.r1cs.empty() && o.synthetic_only_given) usage("cuzk-setup: --log-size and --witness are for synthetic circuits, not --r1cs");
    if (o.r1cs.empty() && !o.wtns.empty()) usage("cuzk-setup: --wtns needs --r1cs");
    return o;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void warn_insecure(uint64_t seed) {
    std::fprintf(stderr,
                 "cuzk-setup: WARNING: INSECURE keys from a seeded test setup (seed %llu): anyone who knows the seed can\n"
                 "            forge proofs. For benchmarks and tests only.\n",
                 (unsigned long long)seed);
}

/// Runs the seeded setup for cs and writes OUTDIR/circuit.zkey and verification_key.json.
template <class IoCurve>
void write_keys(const cuzk::groth16::r1cs<typename IoCurve::fr>& cs, uint64_t seed, const std::string& dir) {
    using namespace cuzk;
    using Curve = io::groth16_curve_t<IoCurve>;
    auto t0 = std::chrono::steady_clock::now();
    auto pk = groth16::test_setup_insecure<Curve>(cs, seed);
    const auto vk_json = io::vk_to_json(io::verification_key<IoCurve>::from_zkey(
        {pk.vk.alpha_g1, pk.beta_g1, pk.vk.beta_g2, pk.vk.gamma_g2, pk.delta_g1, pk.vk.delta_g2, pk.vk.ic}));
    std::printf("cuzk-setup: INSECURE test setup %.2f s\n", seconds_since(t0));
    t0 = std::chrono::steady_clock::now();
    std::filesystem::create_directories(dir);
    io::write_zkey(dir + "circuit.zkey", io::to_zkey<IoCurve>(std::move(pk), cs));
    io::write_text_file(dir + "verification_key.json", vk_json);
    std::printf("cuzk-setup: wrote %scircuit.zkey (%.1f MB), verification_key.json (%.2f s)\n", dir.c_str(),
                double(std::filesystem::file_size(dir + "circuit.zkey")) / 1e6, seconds_since(t0));
}

template <class IoCurve>
int run_synthetic(const options& o) {
    using namespace cuzk;
    using Fr = typename IoCurve::fr;
    warn_insecure(o.seed);
    auto t0 = std::chrono::steady_clock::now();
    auto ckt = groth16::synthetic_circuit<Fr>({.log_domain = o.log_size, .num_public = 4, .bit_share = o.bit_share, .seed = o.seed});
    std::printf("cuzk-setup: %s, domain 2^%u: %zu constraints, %zu variables, %zu public inputs (%.2f s)\n",
                std::string(IoCurve::snarkjs_name).c_str(), o.log_size, ckt.system.num_constraints(),
                ckt.system.num_variables, ckt.system.num_public, seconds_since(t0));
    const std::string dir = o.out + "/";
    write_keys<IoCurve>(ckt.system, o.seed, dir);
    io::write_wtns<IoCurve>(dir + "witness.wtns", ckt.assignment);
    io::write_text_file(dir + "public.json", io::public_to_json<IoCurve>(ckt.public_inputs()));
    std::printf("cuzk-setup: wrote %switness.wtns, public.json\n", dir.c_str());
    return 0;
}

/// A circom circuit as cuzk's constraint system: the same wires in the same order (ONE, public
/// outputs, public inputs, then the rest), so a circom witness is a cuzk assignment as it is.
template <class Fr>
cuzk::groth16::r1cs<Fr> to_groth16_r1cs(const auto& file) {
    cuzk::groth16::r1cs<Fr> cs;
    cs.num_public = file.n_public();
    cs.num_variables = file.n_wires;
    std::vector<cuzk::groth16::term<Fr>> row;
    auto copy = [&](const auto& in, cuzk::groth16::sparse_matrix<Fr>& out) {
        out.reserve(in.rows(), in.terms.size());
        for (size_t i = 0; i < in.rows(); ++i) {
            row.clear();
            for (const auto& t : in.row(i)) row.push_back({t.wire, t.value});
            out.append_row(row);
        }
    };
    copy(file.a, cs.a);
    copy(file.b, cs.b);
    copy(file.c, cs.c);
    return cs;
}

template <class IoCurve>
int run_r1cs(const options& o) {
    using namespace cuzk;
    using Fr = typename IoCurve::fr;
    warn_insecure(o.seed);
    auto t0 = std::chrono::steady_clock::now();
    const auto cs = to_groth16_r1cs<Fr>(io::r1cs<IoCurve>::read(o.r1cs));
    std::printf("cuzk-setup: %s, %s: %zu constraints, %zu wires, %zu public signals, domain %zu (%.2f s)\n",
                std::string(IoCurve::snarkjs_name).c_str(), o.r1cs.c_str(), cs.num_constraints(), cs.num_variables,
                cs.num_public, cs.domain_size(), seconds_since(t0));
    const std::string dir = o.out + "/";
    if (!o.wtns.empty()) {  // before the setup: a bad witness fails in a second, not after it
        t0 = std::chrono::steady_clock::now();
        const auto w = io::wtns<IoCurve>::read(o.wtns);
        if (w.values.size() != cs.num_variables)
            throw invalid_argument(o.wtns + ": " + std::to_string(w.values.size()) + " witness values, the circuit has " +
                                   std::to_string(cs.num_variables) + " wires");
        if (auto bad = cs.first_unsatisfied(w.values))
            throw invalid_argument(o.wtns + ": the witness violates constraint " + std::to_string(*bad) + " of " + o.r1cs);
        std::filesystem::create_directories(dir);
        io::write_text_file(dir + "public.json", io::public_to_json<IoCurve>(std::span<const Fr>(
                                                     w.values.data() + 1, cs.num_public)));
        std::printf("cuzk-setup: %s satisfies every constraint; wrote %spublic.json (%.2f s)\n", o.wtns.c_str(),
                    dir.c_str(), seconds_since(t0));
    }
    write_keys<IoCurve>(cs, o.seed, dir);
    return 0;
}

/// snarkjs's name of the curve whose scalar field is a .r1cs file's prime ("bn128" or
/// "bls12381"); throws decode_error for any other prime or a malformed file.
std::string r1cs_curve_name(const std::string& path) {
    using namespace cuzk;
    io::binfile f(std::make_shared<io::file_source>(path), "r1cs", 1, &io::r1cs<io::bn128>::section_name);
    auto r = f.reader(1);
    const uint32_t n8 = r.u32();
    std::vector<uint8_t> p = r.bytes(n8);
    auto equals = [&](const auto& modulus) {
        if (p.size() != sizeof(modulus.limb)) return false;
        for (size_t i = 0; i < p.size(); ++i)
            if (p[i] != uint8_t(modulus.limb[i / 8] >> (8 * (i % 8)))) return false;
        return true;
    };
    if (equals(bn254::fr::modulus)) return "bn128";
    if (equals(bls12_381::fr::modulus)) return "bls12381";
    throw r.fail("prime is the scalar field of neither BN254 nor BLS12-381 (circom --prime bn128 or bls12381)");
}

}  // namespace

int main(int argc, char** argv) {
    if (cuzk::examples::print_version_if_asked(argc, argv, "cuzk-setup")) return 0;
    options o = parse(argc, argv);
    try {
        if (!o.r1cs.empty()) {
            const std::string curve = r1cs_curve_name(o.r1cs);
            if (o.curve_given && curve != o.curve)
                throw cuzk::invalid_argument(o.r1cs + " is a " + curve + " circuit, not " + o.curve + " (--curve)");
            return curve == "bn128" ? run_r1cs<cuzk::io::bn128>(o) : run_r1cs<cuzk::io::bls12381>(o);
        }
        return o.curve == "bn128" ? run_synthetic<cuzk::io::bn128>(o) : run_synthetic<cuzk::io::bls12381>(o);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cuzk-setup: error: %s\n", e.what());
        return 1;
    }
}
