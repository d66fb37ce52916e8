// SPDX-License-Identifier: MIT OR Apache-2.0
// cuzk-params: validates a Filecoin (bellperson) Groth16 parameter file and prints its layout.
//
//   cuzk-params FILE [--digest] [--check-subgroup [--gpu]]
//
// Walks the section counts (io::scan_bellperson_params), decodes every point with the on-curve
// checks (io::read_bellperson_params: parallel pread chunks, all cores through OpenMP; OMP_NUM_THREADS
// picks fewer) and prints the counts, sizes and decode speed. --check-subgroup adds the
// prime-order subgroup check of every point (bellperson's `checked`; far slower on the host), on the
// GPU with --gpu (io/subgroup_check_device.cuh; builds with CUDA only). --digest prints
// the digest Filecoin's parameters.json records (first 32 hex characters of BLAKE2b-512; needs a
// build with OpenSSL). A file that ends with ".vk" is read as a verifying key.
// Exit status: 0 valid, 1 invalid file (the reason on stderr), 2 usage or I/O error.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "cli_version.hpp"
#include "cuzk/io/bellperson_params.hpp"
#if defined(CUZK_PARAMS_GPU)
#include "cuzk_params_gpu.hpp"
#endif

namespace {

constexpr const char* usage_text =
    "usage: cuzk-params FILE [--digest] [--check-subgroup [--gpu]]\n"
    "  validates a Filecoin/bellperson Groth16 parameter file (.params, or .vk by its name) for\n"
    "  BLS12-381 and prints its section counts, sizes and decode speed.\n"
    "  --digest          also print the parameters.json digest (BLAKE2b-512, first 32 hex chars)\n"
    "  --check-subgroup  also check that every point is in the prime-order subgroup (slow)\n"
    "  --gpu             do the subgroup check on the GPU (builds with CUDA)\n"
    "  --help            this text\n"
    "exit status: 0 valid, 1 invalid file, 2 usage or I/O error\n";

[[noreturn]] void usage_error(const std::string& why) {
    std::fprintf(stderr, "cuzk-params: %s\n%s", why.c_str(), usage_text);
    std::exit(2);
}

struct options {
    std::string file;
    bool digest = false;
    bool check_subgroup = false;
    bool gpu = false;
};

options parse(int argc, char** argv) {
    options o;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--help" || a == "-h") {
            std::fputs(usage_text, stdout);
            std::exit(0);
        } else if (a == "--digest") o.digest = true;
        else if (a == "--check-subgroup") o.check_subgroup = true;
        else if (a == "--gpu") o.gpu = true;
        else if (!a.empty() && a[0] == '-') usage_error("unknown argument " + std::string(a));
        else if (!o.file.empty()) usage_error("more than one FILE");
        else o.file = a;
    }
    if (o.file.empty()) usage_error("missing FILE");
    if (o.gpu && !o.check_subgroup) usage_error("--gpu needs --check-subgroup (it is where that check runs)");
#if !defined(CUZK_PARAMS_GPU)
    if (o.gpu) usage_error("--gpu needs a build with CUDA");
#endif
    return o;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void print_section(const cuzk::io::bellperson_section& s) {
    std::printf("  %-5s %12llu points %15llu bytes  at byte %llu\n", s.name, (unsigned long long)s.count,
                (unsigned long long)s.bytes(), (unsigned long long)s.offset);
}

int threads() {
#if defined(_OPENMP)
    return omp_get_max_threads();
#else
    return 1;
#endif
}

}  // namespace

int main(int argc, char** argv) {
    if (cuzk::examples::print_version_if_asked(argc, argv, "cuzk-params")) return 0;
    const options o = parse(argc, argv);
    namespace io = cuzk::io;
#if !defined(CUZK_HAVE_OPENSSL)
    if (o.digest) usage_error("--digest needs a build with OpenSSL (CUZK_HAVE_OPENSSL)");
#endif
    const bool vk_file = o.file.size() >= 3 && o.file.compare(o.file.size() - 3, 3, ".vk") == 0;
    try {
        const auto l = vk_file ? io::scan_bellperson_vk(o.file) : io::scan_bellperson_params(o.file);
        std::printf("file      %s\n", o.file.c_str());
        std::printf("size      %llu bytes (%.3f GB)\n", (unsigned long long)l.file_size, double(l.file_size) / 1e9);
        std::printf("format    bellperson Groth16 %s, BLS12-381\n", vk_file ? "verifying key" : "parameters");
        std::printf("  VK    %12d points %15llu bytes  at byte 0\n", 6,
                    (unsigned long long)io::bellperson_vk_points_bytes);
        print_section(l.ic);
        if (!vk_file) {
            for (const auto* s : l.big_sections()) print_section(*s);
            std::printf("domain    %llu (H count + 1)\n", (unsigned long long)l.domain_size());
            const double nv = double(l.num_variables());
            std::printf("variables %llu (%llu inputs incl. one, %llu aux); A %.1f%%, B %.1f%% of them: %s\n",
                        (unsigned long long)l.num_variables(), (unsigned long long)l.num_inputs(),
                        (unsigned long long)l.num_aux(), nv ? 100.0 * double(l.a.count) / nv : 0.0,
                        nv ? 100.0 * double(l.b_g1.count) / nv : 0.0, l.is_dense() ? "dense" : "density-compressed");
            if (l.b_g1.count != l.b_g2.count)
                std::printf("warning   B_G1 and B_G2 counts differ: not a key bellperson's generator writes\n");
        }

        const auto t0 = std::chrono::steady_clock::now();
        if (vk_file) {
            (void)io::read_bellperson_vk(o.file);
        } else {
            io::bellperson_read_options ro{.check_subgroup = o.check_subgroup};
#if defined(CUZK_PARAMS_GPU)
            if (o.gpu) ro.subgroup_batch = cuzk_params::gpu_subgroup_check();
#endif
            const auto p = io::read_bellperson_params(o.file, ro);
            (void)p;
        }
        const double dt = seconds_since(t0);
        std::printf("decode    %.3f s, %.2f GB/s (%s, %d threads)\n", dt, dt > 0 ? double(l.file_size) / dt / 1e9 : 0.0,
                    o.check_subgroup ? (o.gpu ? "on-curve checks, subgroup checks on the GPU" : "on-curve and subgroup checks")
                                     : "on-curve checks",
                    threads());
#if defined(CUZK_HAVE_OPENSSL)
        if (o.digest) {
            const auto t1 = std::chrono::steady_clock::now();
            const std::string d = io::filecoin_params_digest(o.file);
            const double ht = seconds_since(t1);
            std::printf("digest    %s (BLAKE2b-512, first 32 hex; %.3f s, %.2f GB/s)\n", d.c_str(), ht,
                        ht > 0 ? double(l.file_size) / ht / 1e9 : 0.0);
        }
#endif
        std::printf("valid\n");
        return 0;
    } catch (const cuzk::decode_error& e) {
        std::fprintf(stderr, "cuzk-params: invalid: %s\n", e.what());
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cuzk-params: error: %s\n", e.what());
        return 2;
    }
}
