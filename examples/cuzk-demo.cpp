// SPDX-License-Identifier: MIT OR Apache-2.0
// cuzk-demo: a tour of the field arithmetic on the host (and on the GPU when one is present).
#include <chrono>
#include <cstdio>
#include <random>

#include "cli_version.hpp"
#include "cuzk/curves/bls12_381.hpp"
#include "cuzk/curves/bn254.hpp"

template <class F>
static bool tour() {
    std::mt19937_64 rng(42);
    F a = F::random(rng), b = F::random(rng);
    bool ok = (a * b) * b.inverse() == a;                   // inverse
    ok = ok && (a + b) - b == a;                            // add / sub
    auto root = a.square().sqrt();                          // sqrt
    ok = ok && root && (*root == a || *root == -a);
    constexpr int kMuls = 1 << 20;
    auto t0 = std::chrono::steady_clock::now();
    F acc = a;
    for (int i = 0; i < kMuls; ++i) acc *= b;
    double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / kMuls;
    ok = ok && acc == a * b.pow_vartime(kMuls);
    std::printf("  %-14s %3zu-bit  mul %6.1f ns   checks %s\n", F::config::name, F::modulus_bits, ns,
                ok ? "passed" : "FAILED");
    return ok;
}

int main(int argc, char** argv) {
    if (cuzk::examples::print_version_if_asked(argc, argv, "cuzk-demo")) return 0;
    std::printf("cuzk field demo (host)\n");
    bool ok = tour<cuzk::bls12_381::fp>() & tour<cuzk::bls12_381::fr>() & tour<cuzk::bn254::fq>() &
              tour<cuzk::bn254::fr>();
    std::printf("%s\n", ok ? "all checks passed" : "SOME CHECKS FAILED");
    return ok ? 0 : 1;
}
