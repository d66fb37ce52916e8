// SPDX-License-Identifier: MIT OR Apache-2.0
// cuzk-verify: snarkjs's `groth16 verify` with cuzk's verifier (same argument order).
//
//   cuzk-verify <verification_key.json> <public.json> <proof.json>
//
// Prints "OK!" and exits 0 for a valid proof; prints why and exits 1 otherwise (2 for usage or
// file errors). Stricter than snarkjs: proof points must be in the prime-order subgroups.
// Inputs are bounded (docs/LIMITS.md): verification_key.json at most vk_limit bytes, proof.json
// at most io::default_text_file_limit, public.json that plus public_bytes_per_signal for each
// public signal the key declares; a larger or endless input (/dev/zero) is refused at the limit.
#include <cstdio>
#include <string>

#include "cli_version.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/snarkjs_json.hpp"
#include "cuzk/io/zkey_groth16.hpp"

namespace {

/// verification_key.json's limit: the key of a circuit with about 240,000 public signals (each
/// adds one G1 point of about 270 bytes to IC).
constexpr size_t vk_limit = size_t(64) << 20;
/// public.json's allowance per public signal of the key, above the default limit: a signal is
/// at most 78 digits, quotes, a comma and an indent, with room for more whitespace.
constexpr size_t public_bytes_per_signal = 256;

template <class IoCurve>
int verify_files(const std::string& vk_text, const std::string& vk_path, const std::string& public_path,
                 const std::string& proof_path) {
    using namespace cuzk;
    const auto vk = io::to_verifying_key<IoCurve>(io::vk_from_json<IoCurve>(vk_text, vk_path));
    const size_t public_limit = io::default_text_file_limit + public_bytes_per_signal * vk.num_public();
    const auto publics = io::public_from_json<IoCurve>(io::read_text_file(public_path, public_limit), public_path);
    const auto pi = io::to_groth16<IoCurve>(io::proof_from_json<IoCurve>(io::read_text_file(proof_path), proof_path));
    if (publics.size() != vk.num_public()) {
        std::printf("Invalid proof: %zu public signals, the verification key expects %zu\n", publics.size(),
                    vk.num_public());
        return 1;
    }
    const auto v = groth16::verify_verdict(vk, std::span<const typename IoCurve::fr>(publics), pi);
    if (v == groth16::verdict::ok) {
        std::printf("OK!\n");
        return 0;
    }
    std::printf("Invalid proof: %s\n", groth16::to_string(v));
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    if (cuzk::examples::print_version_if_asked(argc, argv, "cuzk-verify")) return 0;
    const char* usage =
        "usage: cuzk-verify <verification_key.json> <public.json> <proof.json>\n"
        "  verifies a snarkjs Groth16 proof (bn128 or bls12381) with cuzk's verifier; prints OK! and exits 0\n"
        "  for a valid proof, else says why and exits 1 (2 for usage or file errors)\n";
    if (argc == 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
        std::fputs(usage, stdout);
        return 0;
    }
    if (argc != 4) {
        std::fputs(usage, stderr);
        return 2;
    }
    try {
        const std::string text = cuzk::io::read_text_file(argv[1], vk_limit);
        const auto root = cuzk::io::json::parse(text, argv[1]);
        const auto* curve_value = root.find("curve");
        if (!curve_value || !curve_value->is_string())
            throw cuzk::decode_error(std::string(argv[1]) + ": no \"curve\" string (is it a verification_key.json?)");
        const std::string& curve = curve_value->text;
        if (curve == "bn128") return verify_files<cuzk::io::bn128>(text, argv[1], argv[2], argv[3]);
        if (curve == "bls12381") return verify_files<cuzk::io::bls12381>(text, argv[1], argv[2], argv[3]);
        throw cuzk::decode_error(std::string(argv[1]) + ": unsupported curve \"" + curve + "\"");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cuzk-verify: error: %s\n", e.what());
        return 2;
    }
}
